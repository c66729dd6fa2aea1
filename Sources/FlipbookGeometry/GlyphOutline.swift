/// A glyph given as a shape rather than found in a font: its outline and advance in ems
/// (multiplied by the font size to draw), origin at the pen position on the baseline, x to
/// the right, y down. Both the scene model (a text layer's own glyphs) and the text engine
/// (``TextRequest/suppliedGlyphs`` in FlipbookText) hold it, so it lives here, under both.
public struct GlyphOutline: Sendable, Hashable {
    public var path: Path
    public var advance: Double

    public init(path: Path, advance: Double) {
        self.path = path
        self.advance = advance
    }
}
