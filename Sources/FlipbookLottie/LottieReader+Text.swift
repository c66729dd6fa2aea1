import FlipbookGeometry
import FlipbookScene

/// Text layers (`ty` 5). The text document `t.d` gives the string `t`, font name `f`,
/// size `s`, fill `fc`, stroke `sc`/`sw`, justification `j`, tracking `tr` (1/1000 em),
/// line height `lh` and baseline shift `ls`; lines split at `\r`, `\n` or U+0003.
///
/// - With glyph shapes in the document's `chars` (After Effects "glyphs" export), each
///   character is its glyph's shapes at size/100, advanced by its width plus tracking,
///   lines `lh` apart, justified about x = 0 (left, right or centred), all filled (and
///   stroked) as one vector shape: exactly what players draw.
/// - Without them, the string is laid out by the text engine (FreeType and HarfBuzz) in
///   the named font through fontconfig (its family `fFamily` and style), with fallback
///   fonts; the first baseline sits at y = 0 as in After Effects.
/// - With `--lottie-compat core-animation`, text the glyph shapes do not cover is laid out
///   as lottie-ios's Core Text layer does it (LottieReader+CoreText.swift), the glyph shapes
///   it has drawn character by character among the font's glyphs. The default profile
///   draws such text from the font alone.
extension LottieReader {
    /// The text animators `t.a` that are drawn: none for lottie-ios's Core Animation
    /// engine, which draws a text layer's first document without its animators
    /// (Sources/Private/CoreAnimation/Layers/TextLayer.swift).
    func textAnimatorNodes(_ t: JSONNode) -> [JSONNode] {
        if coreAnimation {
            if t["a"].count > 0 { warn("text animators (Core Animation draws text without them)") }
            return []
        }
        return t["a"].elements ?? []
    }

    func textLayers(_ e: Entry) -> [Layer] {
        let t = e.node["t"]
        let keyframes = t["d"]["k"].elements ?? []
        // A text layer without a readable document draws no text (ThorVG draws the rest).
        guard let first = keyframes.first else {
            leaveOut(t["d"], "expected the text document keyframes `k`")
            return []
        }
        if keyframes.count > 1 { warn("animated text document (the first value is drawn)") }
        let animatorNodes = textAnimatorNodes(t)
        let textPath = self.textPath(t["p"], masks: e.node["masksProperties"])
        let doc = first["s"]
        guard let string = doc["t"].string else {
            leaveOut(doc["t"], "expected the text `t`, got \(doc["t"].kind)")
            return []
        }
        guard
            count(
                &textRead, string.unicodeScalars.count, limit: limits.maxTextLength, at: doc["t"],
                item: .textCharacters)
        else { return [] }
        let size = doc["s"].number ?? 12
        let fontName = doc["f"].string ?? ""
        let font = fonts[fontName]
        let family = font?["fFamily"].string ?? fontName
        let style = font?["fStyle"].string ?? ""
        let lines = string.split(omittingEmptySubsequences: false) {
            $0 == "\r" || $0 == "\n" || $0 == "\u{3}"
        }
        .map(String.init)
        let lineHeight = doc["lh"].number ?? size * 1.2
        let justify = Self.smallInt(doc["j"].number, default: 0)
        let tracking = (doc["tr"].number ?? 0) / 1000 * size
        let fill = doc["fc"].numbers.map(Self.unitColor)
        let stroke = doc["sc"].numbers.map(Self.unitColor)
        let strokeWidth = doc["sw"].number ?? 0
        let shift = doc["ls"].number ?? 0
        let usable = lines.allSatisfy { line in
            line.allSatisfy { glyph($0, family, style) != nil || $0 == " " }
        }
        if coreAnimation && !(usable && !glyphs.isEmpty) {
            return coreTextLayer(
                e, doc: doc, string: string, size: size, tracking: tracking, fill: fill,
                stroke: stroke, family: family, style: style)
        }
        if let box = doc["sz"].numbers, box.count >= 2 {
            warn("paragraph text box (drawn as point text)")
        }

        if usable && !glyphs.isEmpty && (!animatorNodes.isEmpty || textPath != nil) {
            var layer = Layer(id: uniqueID("\(e.name) glyphs"))
            layer.properties.anchorPoint = .zero
            layer.content = .vector(
                VectorShape(items: [
                    .text(
                        animatedGlyphText(
                            t, lines: lines, family: family, style: style, size: size,
                            lineHeight: lineHeight, justify: justify,
                            tracking: tracking, shift: shift, fill: fill, stroke: stroke,
                            strokeWidth: strokeWidth,
                            fillOverStroke: doc["of"].bool ?? false, path: textPath))
                ]))
            return [layer]
        }
        if !animatorNodes.isEmpty { warn("text animators (without glyph shapes in `chars`)") }
        if textPath != nil { warn("text on a path (without glyph shapes in `chars`)") }
        if usable && !glyphs.isEmpty {
            var items: [VectorItem] = []
            for (row, line) in lines.enumerated() {
                let advances = line.map { ch in
                    (glyph(ch, family, style)?["w"].number ?? 0) * size / 100 + tracking
                }
                let width = advances.reduce(0, +)
                var x = justify == 1 ? -width : justify == 2 ? -width / 2 : 0
                let y = Double(row) * lineHeight - shift
                for (ch, advance) in zip(line, advances) {
                    if let g = glyph(ch, family, style) {
                        let shapes = shapeItems(g["data"]["shapes"])
                        items.append(
                            .group(
                                VectorGroup(
                                    items: shapes,
                                    transform: KeyframedTransform(
                                        position: .constant([x, y]),
                                        scale: .constant([size / 100, size / 100])))))
                    }
                    x += advance
                }
            }
            let strokeItem = stroke.map { color in
                VectorItem.stroke(
                    VectorStroke(
                        paint: .solid(.constant(color)), opacity: .constant([1]),
                        width: .constant([strokeWidth]), cap: .butt, join: .miter,
                        miterLimit: 4))
            }
            let fillItem = fill.map {
                VectorItem.fill(
                    VectorFill(
                        paint: .solid(.constant($0)), opacity: .constant([1]),
                        rule: .nonZero))
            }
            // Styles paint the glyph paths above them; `of` true: the fill draws over the
            // stroke (earlier items draw on top).
            let styles =
                (doc["of"].bool ?? false) ? [fillItem, strokeItem] : [strokeItem, fillItem]
            var layer = Layer(id: uniqueID("\(e.name) glyphs"))
            layer.properties.anchorPoint = .zero
            layer.content = .vector(VectorShape(items: items + styles.compactMap { $0 }))
            return [layer]
        }
        if stroke != nil && strokeWidth > 0 { warn("text stroke without glyph shapes") }
        var text = Layer(id: uniqueID("\(e.name) text"))
        let alignment: TextAlignment = justify == 1 ? .right : justify == 2 ? .center : .left
        let pattern = style.isEmpty ? family : "\(family):style=\(style)"
        text.content = .text(
            TextContent(
                string: lines.joined(separator: "\n"), font: .family(pattern),
                alignment: alignment, baselineOrigin: true, tracking: tracking,
                lineHeight: lineHeight))
        text.properties.bounds = Rect(0, 0, 0, 0)
        text.properties.anchorPoint = .zero
        text.properties.position = Point(0, -shift)
        text.properties.fontSize = size
        let c = fill ?? [0, 0, 0]
        text.properties.textColor = Color(
            red: c[0], green: c[1], blue: c[2], alpha: c.count > 3 ? c[3] : 1)
        return [text]
    }

    func glyph(_ ch: Character, _ family: String, _ style: String) -> JSONNode? {
        glyphs["\(ch)|\(family)|\(style)"]
    }

    /// A text colour in 0…1, at least r, g and b (zeros for what a short array lacks).
    static func unitColor(_ v: [Double]) -> [Double] {
        let rgb = v + Array(repeating: 0, count: max(0, 3 - v.count))
        return rgb.contains { $0 > 1 } ? rgb.map { $0 / 255 } : rgb
    }
}
