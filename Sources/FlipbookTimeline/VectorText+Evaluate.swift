import FlipbookGeometry
import FlipbookScene

/// Text animators at one time, as lottie-web's TextAnimatorProperty applies them to
/// point text (`getMeasures`):
///
/// - each selector gives each character a weight: start, end and offset (percent of the
///   unit count, or indices) with start ≤ end after the offset, the shape (square, ramps,
///   triangle, round, smooth) evaluated at the character's index, eased by the
///   cubic-Bézier (ease low, 0, 1 − ease high, 1) (negative eases move the y values),
///   times the amount;
/// - a character's matrix, in order: its glyph scaled by size/100; moved so its centre on
///   the baseline (plus the grouping alignment) is the origin; every animator's anchor
///   subtracted; every animator's scale 1 + (s − 1)·w; then per animator skew and
///   rotation; every animator's position·w; then moved back to its place on the line;
/// - tracking·w adds to the advance before each character except the first of a line
///   (left-justified text; justified lines shift by the tracking they gain, as in
///   lottie-web);
/// - opacity o steps as opacity += (o·w − opacity)·w per animator; fill and stroke
///   colours move toward the animator's by w.
extension VectorText {
    func evaluate(at t: Double) -> VectorNode {
        let frames = animators.map { AnimatorFrame($0, at: t) }
        let align = alignment.value(at: t)
        let alignX = (align.first ?? 0) * 0.005,
            alignY = (align.count > 1 ? align[1] : 0) * fontSize * 1.2 * 0.714 * 0.01
        let weights: [[Double]] = characters.map { c in
            frames.enumerated().map { j, f in j < c.indices.count ? f.weight(c.indices[j]) : 0 }
        }
        let justifyShift = justificationShifts(frames, weights)

        var nodes: [VectorNode] = []
        var trackingShift = 0.0
        var line = -1
        // Text on a path: lottie-web's `currentLength`, the distance along the path.
        let pathFrame = path.flatMap { PathFrame($0, at: t) }
        var along = 0.0
        for (i, c) in characters.enumerated() {
            let firstInLine = c.line != line
            if firstInLine {
                line = c.line
                trackingShift = 0
                if let p = pathFrame {
                    along = p.firstMargin
                    if justification == 1 { along += p.walker.total - c.lineWidth }
                    if justification == 2 { along += (p.walker.total - c.lineWidth) / 2 }
                }
            }
            let w = weights[i]
            let half = c.advance / 2 + alignX * c.advance
            var place: (point: Point, degrees: Double)?
            if let p = pathFrame {
                along += c.advance / 2 + alignX * c.advance
                var offset = 0.0
                for (j, f) in frames.enumerated() { offset += (f.position.x + f.anchor.x) * w[j] }
                if p.forceAlignment && characters.count > 1 {
                    let first = characters[0].advance,
                        last = characters[characters.count - 1].advance
                    let span: Double = p.walker.total - p.firstMargin - first / 2 - last / 2
                    along =
                        first / 2 + span * Double(i) / Double(characters.count - 1) + p.firstMargin
                }
                place = p.walker.place(along + offset)
            }
            // Tracking adds before every character but a line's first (lottie-web tests
            // xPos ≠ 0, which along a path never holds: there only justified text tracks).
            for (j, f) in frames.enumerated()
            where f.tracking != 0 && ((!firstInLine && place == nil) || justification != 0) {
                if place != nil {
                    along += f.tracking * w[j]
                } else {
                    trackingShift += f.tracking * w[j]
                }
            }
            var m = AffineTransform.scale(c.scale, c.scale).concatenating(
                .translation(-half, -alignY))
            for (j, f) in frames.enumerated() where f.anchor != .zero {
                m = m.concatenating(.translation(-f.anchor.x * w[j], -f.anchor.y * w[j]))
            }
            for (j, f) in frames.enumerated() where f.scale != Point(1, 1) {
                m = m.concatenating(.scale(1 + (f.scale.x - 1) * w[j], 1 + (f.scale.y - 1) * w[j]))
            }
            var opacity = 1.0
            var fill = self.fill.map { Array($0.prefix(3)) }
            var stroke = self.stroke.map { Array($0.prefix(3)) }
            var strokeWidth = self.strokeWidth
            for (j, f) in frames.enumerated() {
                let k = w[j]
                if f.skew != 0 {
                    let axis = f.skewAxis * k
                    m = m.concatenating(.rotation(degrees: axis))
                        .concatenating(
                            AffineTransform(
                                a: 1, b: 0, c: -tan(f.skew * k * .pi / 180), d: 1, tx: 0, ty: 0)
                        )
                        .concatenating(.rotation(degrees: -axis))
                }
                if f.rotation != 0 { m = m.concatenating(.rotation(degrees: f.rotation * k)) }
                if let o = f.opacity { opacity += (o * k - opacity) * k }
                if let s = f.strokeWidth { strokeWidth += s * k }
                if let target = f.stroke, var s = stroke {
                    for n in 0..<3 { s[n] += (target[n] - s[n]) * k }; stroke = s
                }
                if let target = f.fill, var c = fill {
                    for n in 0..<3 { c[n] += (target[n] - c[n]) * k }; fill = c
                }
            }
            for (j, f) in frames.enumerated() where f.position != .zero {
                // Along a path the x of a position moved the character along it instead.
                m = m.concatenating(
                    .translation(place == nil ? f.position.x * w[j] : 0, f.position.y * w[j]))
            }
            if let place, let p = pathFrame {
                m = m.concatenating(.translation(0, c.origin.y + alignY))
                if p.perpendicular { m = m.concatenating(.rotation(degrees: place.degrees)) }
                m = m.concatenating(.translation(place.point.x, place.point.y))
                along += c.advance / 2 + tracking - alignX * c.advance
            } else {
                m = m.concatenating(
                    .translation(
                        c.origin.x + trackingShift + justifyShift[i] + half, c.origin.y + alignY))
            }

            var items = VectorShape.evaluate(c.shapes, at: t)
            let fillNode = fill.map {
                VectorNode.fill(
                    paint: .solid(Color(red: $0[0], green: $0[1], blue: $0[2], alpha: 1)),
                    rule: .nonZero)
            }
            let strokeNode = stroke.map {
                VectorNode.stroke(
                    paint: .solid(Color(red: $0[0], green: $0[1], blue: $0[2], alpha: 1)),
                    style: VectorStrokeFrame(
                        width: max(0, strokeWidth) / max(c.scale, 1e-9), cap: .butt,
                        join: .miter, miterLimit: 4, dashes: [], dashOffset: 0))
            }
            // Earlier items draw on top: `of` puts the fill over the stroke.
            items += (fillOverStroke ? [fillNode, strokeNode] : [strokeNode, fillNode]).compactMap {
                $0
            }
            nodes.append(
                .group(
                    VectorGroupFrame(nodes: items, transform: m, opacity: max(0, min(opacity, 1)))))
        }
        return .group(VectorGroupFrame(nodes: nodes, transform: .identity, opacity: 1))
    }

    /// lottie-web's `animatorJustifyOffset`: right- and centre-justified lines move left
    /// by all (or half) the tracking their characters gain.
    private func justificationShifts(_ frames: [AnimatorFrame], _ weights: [[Double]]) -> [Double] {
        var shifts = [Double](repeating: 0, count: characters.count)
        guard justification == 1 || justification == 2, frames.contains(where: { $0.tracking != 0 })
        else { return shifts }
        let factor = justification == 2 ? -0.5 : -1
        var lineShift = 0.0, firstCharShift = 0.0
        var lineStart = 0
        func finish(_ end: Int) {
            if lineShift != 0 { lineShift += firstCharShift }
            for k in lineStart..<end { shifts[k] = lineShift }
            lineShift = 0
            lineStart = end
        }
        for (i, c) in characters.enumerated() {
            let newLine = i == 0 || characters[i - 1].line != c.line
            if newLine && i > 0 { finish(i) }
            for (j, f) in frames.enumerated() where f.tracking != 0 {
                if newLine && justification == 2 { firstCharShift += f.tracking * factor }
                lineShift += f.tracking * weights[i][j] * factor
            }
        }
        finish(characters.count)
        return shifts
    }
}

/// The text path's values at a time.
private struct PathFrame {
    var walker: TextPathWalker
    var firstMargin: Double
    var perpendicular: Bool
    var forceAlignment: Bool

    init?(_ p: VectorTextPath, at t: Double) {
        guard
            let walker = TextPathWalker(
                p.path.value(at: t), reversed: p.reversed.scalar(at: t) >= 0.5)
        else {
            return nil
        }
        self.walker = walker
        firstMargin = p.firstMargin.scalar(at: t)
        perpendicular = p.perpendicular.scalar(at: t) >= 0.5
        forceAlignment = p.forceAlignment.scalar(at: t) >= 0.5
    }
}

/// One animator's values at a time.
private struct AnimatorFrame {
    var start = 0.0, end = 0.0, amount = 1.0
    var shape: VectorTextSelector.Shape
    var easing: TimingCurve
    var anchor = Point.zero, position = Point.zero, scale = Point(1, 1)
    var rotation = 0.0, skew = 0.0, skewAxis = 0.0, tracking = 0.0
    var opacity: Double?, strokeWidth: Double?
    var fill: [Double]?, stroke: [Double]?

    init(_ a: VectorTextAnimator, at t: Double) {
        let s = a.selector
        // Percent of the unit count, or indices; the offset moves both ends.
        let divisor = s.byIndex ? 1 : 100 / Double(max(s.total, 1))
        let offset = s.offset.scalar(at: t) / divisor
        start = s.start.scalar(at: t) / divisor + offset
        end = s.end.scalar(at: t) / divisor + offset
        if start > end { swap(&start, &end) }
        amount = s.amount.scalar(at: t)
        shape = s.shape
        // Clamped to ±100 % so the easing curve's x stays in 0…1 (ThorVG clamps too).
        let low = min(max(s.easeLow.scalar(at: t), -100), 100),
            high = min(max(s.easeHigh.scalar(at: t), -100), 100)
        easing = TimingCurve(
            low > 0 ? low / 100 : 0, low > 0 ? 0 : -low / 100,
            high > 0 ? 1 - high / 100 : 1, high > 0 ? 1 : 1 + high / 100)
        func point(_ v: AnimatedValue?, _ fallback: Point) -> Point {
            guard let x = v?.value(at: t), let first = x.first else { return fallback }
            return Point(first, x.count > 1 ? x[1] : first)
        }
        anchor = point(a.anchor, .zero)
        position = point(a.position, .zero)
        scale = point(a.scale, Point(1, 1))
        rotation = a.rotation?.scalar(at: t) ?? 0
        skew = a.skew?.scalar(at: t) ?? 0
        skewAxis = a.skewAxis?.scalar(at: t) ?? 0
        tracking = a.tracking?.scalar(at: t) ?? 0
        opacity = a.opacity?.scalar(at: t)
        strokeWidth = a.strokeWidth?.scalar(at: t)
        fill = a.fillColor.map { Array($0.value(at: t).prefix(3)) }.flatMap {
            $0.count == 3 ? $0 : nil
        }
        stroke = a.strokeColor.map { Array($0.value(at: t).prefix(3)) }.flatMap {
            $0.count == 3 ? $0 : nil
        }
    }

    /// How much the selector selects unit `index` (lottie-web's getMult).
    func weight(_ index: Int) -> Double {
        let s = start, e = end
        var x = Double(index)
        var w = 0.0
        func ramp() -> Double { max(0, min(0.5 / (e - s) + (x - s) / (e - s), 1)) }
        switch shape {
        case .rampUp: w = e == s ? (x >= e ? 1 : 0) : ramp()
        case .rampDown: w = e == s ? (x >= e ? 0 : 1) : 1 - ramp()
        case .triangle:
            if e != s {
                w = ramp()
                w = w < 0.5 ? w * 2 : 1 - 2 * (w - 0.5)
            }
        case .round:
            if e != s {
                let total = e - s
                x = min(max(0, x + 0.5 - s), total)
                let u = -total / 2 + x, r = total / 2
                w = max(0, 1 - u * u / (r * r)).squareRoot()
            }
        case .smooth:
            if e != s {
                x = min(max(0, x + 0.5 - s), e - s)
                w = (1 + cos(.pi + .pi * 2 * x / (e - s))) / 2
            }
        case .square:
            if x >= s.rounded(.down) {
                w = x - s < 0 ? max(0, min(min(e, 1) - (s - x), 1)) : max(0, min(e - x, 1))
            }
        }
        return easing.progress(at: w) * amount
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
