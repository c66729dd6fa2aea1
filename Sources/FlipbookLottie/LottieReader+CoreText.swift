import FlipbookGeometry
import FlipbookScene

/// Text layers as lottie-ios's Core Animation engine draws them
/// (Sources/Private/CoreAnimation/Layers/TextLayer.swift with CoreTextRenderLayer): the
/// first document's string drawn by Core Text in the font `CTFontCreateWithName` gives for
/// the document's font name `f` (Helvetica when no such font is installed), never from the
/// `chars` glyph shapes, which that engine does not read. Flipbook still draws the glyph
/// shapes, as they are the named font's own outlines and that font is usually not installed
/// here: when they cover every character, as the default profile does (LottieReader+Text);
/// otherwise through this path, character by character:
///
/// - A character with a glyph of the document's font family and style (`ch`, `fFamily`,
///   `style`; `size` only records the size it was exported at, and players match without
///   it) is drawn from that glyph's shapes at size/100, advancing by its `w` × size/100.
///   The others come from the Core Text font below. Both kinds share one Core Text layout
///   (``TextContent/glyphs``): their advances add up on the same lines, and wrapping,
///   alignment, tracking and the paragraph box treat them alike.
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
        fill: [Double]?, stroke: [Double]?, family: String, style: String
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
        content.glyphs = textGlyphs(drawn, family: family, style: style)
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

    /// The glyphs `chars` has for the characters of `string` in `family` and `style`, in ems.
    func textGlyphs(_ string: String, family: String, style: String) -> [Character: GlyphOutline] {
        var found: [Character: GlyphOutline] = [:]
        for ch in Set(string) where found[ch] == nil {
            guard let g = glyph(ch, family, style) else { continue }
            let width = g["w"].number ?? 0
            found[ch] = GlyphOutline(
                path: Self.staticOutline(shapeItems(g["data"]["shapes"]))
                    .applying(.scale(0.01, 0.01)),
                advance: width.isFinite ? width / 100 : 0)
        }
        return found
    }

    /// The outline glyph shapes draw at their first frame: their paths (`sh`, rectangles,
    /// ellipses) through their groups' transforms. Glyph data is static After Effects
    /// output (groups of paths), so styles and modifiers inside it are not applied: the
    /// text's own fill paints the outline.
    static func staticOutline(
        _ items: [VectorItem], _ transform: AffineTransform = .identity
    ) -> Path {
        var path = Path()
        for item in items {
            switch item {
            case .group(let group):
                path.elements +=
                    staticOutline(
                        group.items, groupTransform(group.transform).concatenating(transform)
                    ).elements
            case .path(let value, _):
                path.elements += VectorPathValue.path(value.initial).applying(transform).elements
            case .rect(let position, let size, _, _), .ellipse(let position, let size, _):
                let p = position.initial, s = size.initial
                guard p.count >= 2, s.count >= 2 else { continue }
                let box = Rect(p[0] - s[0] / 2, p[1] - s[1] / 2, s[0], s[1])
                let shape: Path = if case .rect = item { .rect(box) } else { .ellipse(in: box) }
                path.elements += shape.applying(transform).elements
            default: continue
            }
        }
        return path
    }

    /// A group's transform at its first frame: anchor, scale, rotation, then position.
    private static func groupTransform(_ t: KeyframedTransform) -> AffineTransform {
        func pair(_ v: AnimatedValue?, _ fallback: Double) -> (Double, Double) {
            let x = v?.initial ?? []
            return (x.count > 0 ? x[0] : fallback, x.count > 1 ? x[1] : fallback)
        }
        let anchor = pair(t.anchor, 0), scale = pair(t.scale, 1)
        var position = pair(t.position, 0)
        if let x = t.positionX?.initial.first, let y = t.positionY?.initial.first {
            position = (x, y)
        }
        return AffineTransform.translation(-anchor.0, -anchor.1)
            .concatenating(.scale(scale.0, scale.1))
            .concatenating(.rotation(degrees: t.rotation.initial.first ?? 0))
            .concatenating(.translation(position.0, position.1))
    }
}
