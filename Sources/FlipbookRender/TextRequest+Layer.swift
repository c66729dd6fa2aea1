import FlipbookScene
import FlipbookText

extension TextRequest {
    /// The layout request for a text layer's content with its evaluated values: the
    /// box is the layer's bounds size.
    public init(_ text: TextContent, properties p: LayerProperties) {
        let font: Font
        switch text.font {
        case .family(let name): font = .family(name)
        case .file(let path): font = .file(path)
        case .coreTextName(let name): font = .coreTextName(name)
        }
        let alignment: Alignment
        switch text.alignment {
        case .left, .natural: alignment = .left
        case .center: alignment = .center
        case .right: alignment = .right
        case .justified: alignment = .justified
        }
        let truncation: Truncation
        switch text.truncation {
        case .none: truncation = .none
        case .start: truncation = .start
        case .middle: truncation = .middle
        case .end: truncation = .end
        }
        self.init(
            string: text.string, font: font, fontSize: p.fontSize, boxSize: p.bounds.size,
            alignment: alignment, wrapped: text.wrapped, truncation: truncation,
            direction: text.direction == .ltr
                ? .leftToRight : text.direction == .rtl ? .rightToLeft : .natural,
            tracking: text.tracking, lineHeight: text.lineHeight, coreTextFrame: text.coreTextFrame,
            suppliedGlyphs: text.glyphs)
    }
}
