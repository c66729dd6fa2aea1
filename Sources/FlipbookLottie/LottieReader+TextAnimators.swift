import FlipbookGeometry
import FlipbookScene

/// Glyph text (`chars`) with text animators (`t.a`): the characters laid out as the
/// plain glyph text is (advance plus tracking, lines `lh` apart, justified about x = 0),
/// each kept apart so the timeline can move it (``VectorText``).
///
/// Range selectors (`s`): start `s`, end `e`, offset `o` in percent (`r` 1) or indices
/// (`r` 2), amount `a`, shape `sh` (1 square … 6 smooth), ease high `xe` and low `ne`,
/// based on `b` (1 characters, 2 characters without spaces, 3 words, 4 lines), counted as
/// lottie-web counts them (a line break is a unit of its own for words and lines).
/// Animated properties: anchor `a`, position `p`, scale `s`, rotation `r`, skew `sk`/`sa`,
/// opacity `o`, fill `fc` and stroke `sc` colour, stroke width `sw`, tracking `t`.
/// Randomised order, 3D rotation and hue/saturation/brightness are drawn without (warned).
extension LottieReader {
    func animatedGlyphText(
        _ t: JSONNode, lines: [String], family: String, style: String, size: Double,
        lineHeight: Double, justify: Int, tracking: Double, shift: Double, fill: [Double]?,
        stroke: [Double]?, strokeWidth: Double, fillOverStroke: Bool,
        path: VectorTextPath?
    ) -> VectorText {
        let animatorNodes = coreAnimation ? [] : t["a"].elements ?? []
        // lottie-web's letters: every character, and a line break between lines.
        struct Letter { var ch: Character?; var line: Int }
        var letters: [Letter] = []
        for (row, line) in lines.enumerated() {
            if row > 0 { letters.append(Letter(ch: nil, line: row - 1)) }
            letters += line.map { Letter(ch: $0, line: row) }
        }
        var indices = [[Int]](repeating: [], count: letters.count)
        var totals: [Int] = []
        for a in animatorNodes {
            let basedOn = Self.smallInt(a["s"]["b"].number, default: 1)
            var index = 0
            for (i, l) in letters.enumerated() {
                indices[i].append(index)
                let last = i == letters.count - 1
                let counts: Bool
                switch basedOn {
                case 2: counts = l.ch != nil && l.ch != " " && l.ch != "\u{A0}"
                case 3: counts = l.ch == nil || l.ch == " " || l.ch == "\u{A0}" || last
                case 4: counts = l.ch == nil || last
                default: counts = l.ch != nil
                }
                if counts { index += 1 }
            }
            totals.append(index)
        }

        var characters: [VectorTextCharacter] = []
        var letterIndex = 0
        for (row, line) in lines.enumerated() {
            if row > 0 { letterIndex += 1 }  // the line break
            let advances = line.map { ch in
                (glyph(ch, family, style)?["w"].number ?? 0) * size / 100
            }
            let width = advances.reduce(0) { $0 + $1 + tracking }
            var x = justify == 1 ? -width : justify == 2 ? -width / 2 : 0
            let y = Double(row) * lineHeight - shift
            for (ch, advance) in zip(line, advances) {
                let shapes = glyph(ch, family, style).map { shapeItems($0["data"]["shapes"]) } ?? []
                var character = VectorTextCharacter(
                    shapes: shapes, scale: size / 100, origin: Point(x, y),
                    advance: advance, line: row, indices: indices[letterIndex])
                character.lineWidth = width
                characters.append(character)
                x += advance + tracking
                letterIndex += 1
            }
        }

        let animators = zip(animatorNodes, totals).map { node, total in animator(node, total: total)
        }
        var text = VectorText(
            characters: characters, fill: fill, stroke: stroke, strokeWidth: strokeWidth,
            fillOverStroke: fillOverStroke, animators: animators,
            alignment: animated(
                t["m"]["a"], "a grouping alignment [x, y] in percent",
                default: [0, 0]) ?? .constant([0, 0]),
            fontSize: size, justification: justify)
        text.path = path
        text.tracking = tracking
        return text
    }

    /// Text on a path (`t.p` with a mask index `m`): the layer's mask `m` is the path
    /// (lottie-web reads the mask's shape whatever its mode), first margin `f`, last `l`,
    /// perpendicular `p`, reversed `r`, force alignment `a`.
    func textPath(_ p: JSONNode, masks: JSONNode) -> VectorTextPath? {
        guard let index = p["m"].number else { return nil }
        let mask = masks[Int(max(0, min(index, 1e6)))]
        // Without its path the text is laid out on a line, as without a path (a mask path
        // that cannot be read has its own warning).
        guard mask.exists else {
            leaveOut(
                p["m"],
                "expected the index of one of the layer's masks (the text path), got \(index)")
            return nil
        }
        guard let shape = animatedPath(mask["pt"]) else { return nil }
        func value(_ key: String, _ what: String, _ fallback: Double) -> AnimatedValue {
            animated(p[key], what, default: [fallback]) ?? .constant([fallback])
        }
        return VectorTextPath(
            path: shape, firstMargin: value("f", "a first margin", 0),
            lastMargin: value("l", "a last margin", 0),
            perpendicular: value("p", "perpendicular to path (0 or 1)", 1),
            reversed: value("r", "reverse path (0 or 1)", 0),
            forceAlignment: value("a", "force alignment (0 or 1)", 0))
    }

    /// An enumeration code from the file, without trapping on huge or fractional numbers.
    static func smallInt(_ v: Double?, default fallback: Int) -> Int {
        guard let v, v.isFinite, abs(v) < 1e6 else { return fallback }
        return Int(v)
    }

    private func animator(_ node: JSONNode, total: Int) -> VectorTextAnimator {
        let s = node["s"], a = node["a"]
        func value(
            _ n: JSONNode, _ what: String, _ fallback: Double,
            _ f: @escaping (Double) -> Double = { $0 }
        ) -> AnimatedValue {
            animated(n, what, default: [fallback]) { $0.map(f) } ?? .constant([f(fallback)])
        }
        let byIndex = s["r"].number == 2
        if s["rn"].number == 1 { warn("text selector randomize order (drawn in order)") }
        if let type = s["t"].number, type != 0 {
            warn("text selector type \(Self.smallInt(type, default: 0))")
        }
        let shape =
            VectorTextSelector.Shape(rawValue: Self.smallInt(s["sh"].number, default: 1)) ?? .square
        var result = VectorTextAnimator(
            selector: VectorTextSelector(
                start: value(s["s"], "a selector start", 0),
                end: value(s["e"], "a selector end", byIndex ? Double(total) : 100),
                offset: value(s["o"], "a selector offset", 0),
                amount: value(s["a"], "a selector amount in percent", 100) { $0 / 100 },
                easeHigh: value(s["xe"], "an ease high in percent", 0),
                easeLow: value(s["ne"], "an ease low in percent", 0),
                byIndex: byIndex, shape: shape, total: total))
        func optional(_ key: String, _ what: String, _ f: @escaping ([Double]) -> [Double] = { $0 })
            -> AnimatedValue?
        {
            a[key].exists ? animated(a[key], what, transform: f) : nil
        }
        result.anchor = optional("a", "an animator anchor [x, y]")
        result.position = optional("p", "an animator position [x, y]")
        result.scale = optional("s", "an animator scale in percent") { $0.map { $0 / 100 } }
        result.rotation = optional("r", "an animator rotation in degrees")
        result.skew = optional("sk", "an animator skew in degrees")
        result.skewAxis = optional("sa", "an animator skew axis in degrees")
        result.opacity = optional("o", "an animator opacity in percent") { $0.map { $0 / 100 } }
        result.fillColor = a["fc"].exists ? color(a["fc"]) : nil
        result.strokeColor = a["sc"].exists ? color(a["sc"]) : nil
        result.strokeWidth = optional("sw", "an animator stroke width")
        result.tracking = optional("t", "an animator tracking")
        if a["rx"].exists || a["ry"].exists { warn("text animator 3D rotation") }
        if a["fh"].exists || a["fs"].exists || a["fb"].exists {
            warn("text animator hue/saturation/brightness")
        }
        return result
    }
}
