import FlipbookGeometry
import FlipbookScene

/// Text layers as lottie-ios's Core Animation engine draws them
/// (Sources/Private/CoreAnimation/Layers/TextLayer.swift with CoreTextRenderLayer): the
/// first document's string drawn by Core Text in the font `CTFontCreateWithName` gives for
/// the document's font name `f` (Helvetica when no such font is installed), never from the
/// `chars` glyph shapes, which that engine does not read. Flipbook still draws the glyph
/// shapes when they cover every character (they are the named font's own outlines, and that
/// font is usually not installed here); this path draws the rest.
///
/// - Point text (no `sz`): the first baseline sits at the layer's `ps` (or its origin), left,
///   centred or right about it. Justified point text (`j` 3…6) is the exception:
///   CoreTextRenderLayer anchors it at its frame's top-left, so its first baseline sits one
///   ascent below that point.
/// - Paragraph text (`sz` [w, h] at `ps`): wrapped at w, aligned (or justified) in it, the
///   first baseline the font's cap height below the box's top, and only the lines whose
///   baseline lies inside the box, as the Core Text frame lottie-ios builds holds them.
/// - Lines are `max(lh, the font's ascent + descent + leading)` apart (`lh` 0 when absent),
///   tracking `tr` is Core Text kerning after every character, no optional ligatures.
/// - `ls` (baseline shift) and text animators are not applied: the engine ignores them. No
///   fill colour `fc` draws no fill.
extension LottieReader {
    func coreTextLayer(
        _ e: Entry, doc: JSONNode, string: String, size: Double, tracking: Double,
        fill: [Double]?, stroke: [Double]?
    ) -> [Layer] {
        if stroke != nil && (doc["sw"].number ?? 0) > 0 { warn("text stroke without glyph shapes") }
        guard let fill else { return [] }
        let justify = Self.smallInt(doc["j"].number, default: 0)
        let justified = (3...6).contains(justify)
        let alignment: TextAlignment =
            justify == 1 ? .right : justify == 2 ? .center : justified ? .justified : .left
        let box = doc["sz"].numbers.flatMap {
            $0.count >= 2 && $0[0] > 0 && $0[1] > 0 ? Size($0[0], $0[1]) : nil
        }
        // U+0003 ends a line in After Effects' exports but is an invisible control to Core Text.
        let drawn = String(string.unicodeScalars.filter { $0 != "\u{3}" })
        var content = TextContent(
            string: drawn, font: .coreTextName(doc["f"].string ?? ""), alignment: alignment,
            wrapped: box != nil, baselineOrigin: box == nil && !justified, tracking: tracking,
            lineHeight: doc["lh"].number ?? 0)
        content.coreTextFrame = true
        var text = Layer(id: uniqueID("\(e.name) text"))
        text.content = .text(content)
        text.properties.bounds = Rect(0, 0, box?.width ?? 0, box?.height ?? 0)
        text.properties.anchorPoint = .zero
        let origin = doc["ps"].numbers ?? []
        text.properties.position = origin.count >= 2 ? Point(origin[0], origin[1]) : .zero
        text.properties.fontSize = size
        text.properties.textColor = Color(red: fill[0], green: fill[1], blue: fill[2], alpha: 1)
        return [text]
    }
}
