import FlipbookGeometry

/// The outlines of After Effects' parametric shapes, vertex for vertex as lottie-web
/// builds them (start points and directions matter to trim paths and dashes):
///
/// - rect: clockwise from the top of the right edge; corners are quarter ellipses with
///   handles at 0.5519 of the radius (the radius clamped to half the shorter side);
/// - ellipse: four vertices from the top, clockwise, handles at 0.5519 of each radius;
/// - polystar: vertices from the top (−90°) plus the rotation, alternating outer and
///   inner radius for a star (see `star` and `polygon` for the handle lengths and
///   fractional point counts).
/// `reversed` (direction 3) goes counter-clockwise from the same start.
enum VectorOutlines {
    static let kappa = 0.5519

    /// A closed path through (vertex, in-handle, out-handle) triples, handles absolute.
    static func closed(_ v: [(Point, Point, Point)]) -> Path {
        guard let first = v.first else { return Path() }
        var path = Path()
        path.move(to: first.0)
        for i in 0..<v.count {
            let a = v[i], b = v[(i + 1) % v.count]
            if a.2 == a.0 && b.1 == b.0 {
                path.line(to: b.0)
            } else {
                path.cubic(to: b.0, control1: a.2, control2: b.1)
            }
        }
        path.close()
        return path
    }

    static func rect(center c: Point, size: Point, roundness: Double, reversed: Bool) -> Path {
        let hw = size.x / 2, hh = size.y / 2
        let r = max(0, min(hw, hh, roundness))
        let k = r * (1 - kappa)
        let (l, rt, t, b) = (c.x - hw, c.x + hw, c.y - hh, c.y + hh)
        func p(_ x: Double, _ y: Double) -> Point { Point(x, y) }
        var v: [(Point, Point, Point)]
        if !reversed {
            if r > 0 {
                v = [
                    (p(rt, t + r), p(rt, t + k), p(rt, t + r)),
                    (p(rt, b - r), p(rt, b - r), p(rt, b - k)),
                    (p(rt - r, b), p(rt - k, b), p(rt - r, b)),
                    (p(l + r, b), p(l + r, b), p(l + k, b)),
                    (p(l, b - r), p(l, b - k), p(l, b - r)),
                    (p(l, t + r), p(l, t + r), p(l, t + k)),
                    (p(l + r, t), p(l + k, t), p(l + r, t)),
                    (p(rt - r, t), p(rt - r, t), p(rt - k, t)),
                ]
            } else {
                v = [
                    (p(rt, t), p(rt, t), p(rt, t)), (p(rt, b), p(rt, b), p(rt, b)),
                    (p(l, b), p(l, b), p(l, b)), (p(l, t), p(l, t), p(l, t)),
                ]
            }
        } else {
            if r > 0 {
                v = [
                    (p(rt, t + r), p(rt, t + r), p(rt, t + k)),
                    (p(rt - r, t), p(rt - k, t), p(rt - r, t)),
                    (p(l + r, t), p(l + r, t), p(l + k, t)),
                    (p(l, t + r), p(l, t + k), p(l, t + r)),
                    (p(l, b - r), p(l, b - r), p(l, b - k)),
                    (p(l + r, b), p(l + k, b), p(l + r, b)),
                    (p(rt - r, b), p(rt - r, b), p(rt - k, b)),
                    (p(rt, b - r), p(rt, b - k), p(rt, b - r)),
                ]
            } else {
                v = [
                    (p(rt, t), p(rt, t), p(rt, t)), (p(l, t), p(l, t), p(l, t)),
                    (p(l, b), p(l, b), p(l, b)), (p(rt, b), p(rt, b), p(rt, b)),
                ]
            }
        }
        return closed(v)
    }

    static func ellipse(center c: Point, size: Point, reversed: Bool) -> Path {
        let rx = size.x / 2, ry = size.y / 2
        let kx = rx * kappa, ky = ry * kappa
        let s: Double = reversed ? -1 : 1
        let top = Point(c.x, c.y - ry), right = Point(c.x + s * rx, c.y)
        let bottom = Point(c.x, c.y + ry), left = Point(c.x - s * rx, c.y)
        return closed([
            (top, Point(c.x - s * kx, top.y), Point(c.x + s * kx, top.y)),
            (right, Point(right.x, c.y - ky), Point(right.x, c.y + ky)),
            (bottom, Point(c.x + s * kx, bottom.y), Point(c.x - s * kx, bottom.y)),
            (left, Point(left.x, c.y + ky), Point(left.x, c.y - ky)),
        ])
    }

    static func polystar(
        isStar: Bool, center c: Point, points: Double, rotation: Double, outerRadius: Double,
        innerRadius: Double, outerRoundness: Double, innerRoundness: Double, reversed: Bool
    ) -> Path {
        let count = min(max(points, 0), 10_000)
        guard count > 0 else { return Path() }
        return isStar
            ? star(
                c, count, rotation, outerRadius, innerRadius, outerRoundness / 100,
                innerRoundness / 100, reversed)
            : polygon(c, count, rotation, outerRadius, outerRoundness / 100, reversed)
    }

    /// The star as lottie-ios, lottie-android, rlottie and ThorVG build it: a fractional
    /// point count adds a partial point (its radius between inner and outer), and each
    /// vertex's handle is radius × roundness × 0.47829 / 0.28 / points long, at right
    /// angles to its radius.
    private static func star(
        _ c: Point, _ points: Double, _ rotation: Double, _ outer: Double, _ inner: Double,
        _ outerRound: Double, _ innerRound: Double, _ reversed: Bool
    ) -> Path {
        let dir: Double = reversed ? -1 : 1
        let magic = 0.47829 / 0.28
        var angle = (rotation - 90) * .pi / 180
        let perPoint = 2 * Double.pi / points, half = perPoint / 2
        let partial = points - points.rounded(.down)
        if partial != 0 { angle += half * (1 - partial) * dir }
        var partialRadius = 0.0
        var x: Double, y: Double
        if partial != 0 {
            partialRadius = inner + partial * (outer - inner)
            x = partialRadius * cos(angle); y = partialRadius * sin(angle)
            angle += perPoint * partial / 2 * dir
        } else {
            x = outer * cos(angle); y = outer * sin(angle)
            angle += half * dir
        }
        var path = Path()
        path.move(to: Point(x + c.x, y + c.y))
        let rounded = outerRound != 0 || innerRound != 0
        var long = false
        let total = Int(points.rounded(.up)) * 2
        for i in 0..<total {
            var radius = long ? outer : inner
            var dTheta = half
            if partialRadius != 0 && i == total - 2 { dTheta = perPoint * partial / 2 }
            if partialRadius != 0 && i == total - 1 { radius = partialRadius }
            let px = x, py = y
            x = radius * cos(angle); y = radius * sin(angle)
            if rounded {
                let t1 = atan2(py, px) - .pi / 2 * dir, t2 = atan2(y, x) - .pi / 2 * dir
                let r1 = (long ? inner : outer) * (long ? innerRound : outerRound) * magic / points
                let r2 = (long ? outer : inner) * (long ? outerRound : innerRound) * magic / points
                var cp1 = Point(r1 * cos(t1), r1 * sin(t1)), cp2 = Point(r2 * cos(t2), r2 * sin(t2))
                if partial != 0 && (i == 0 || i == total - 1) {
                    cp1 = cp1 * partial; cp2 = cp2 * partial
                }
                path.cubic(
                    to: Point(x + c.x, y + c.y),
                    control1: Point(px - cp1.x + c.x, py - cp1.y + c.y),
                    control2: Point(x + cp2.x + c.x, y + cp2.y + c.y))
            } else {
                path.line(to: Point(x + c.x, y + c.y))
            }
            angle += dTheta * dir
            long.toggle()
        }
        path.close()
        return path
    }

    /// The regular polygon of the same players: floor(points) corners, handles
    /// radius × roundness × 0.25 at right angles to the radius.
    private static func polygon(
        _ c: Point, _ points: Double, _ rotation: Double, _ radius: Double,
        _ roundness: Double, _ reversed: Bool
    ) -> Path {
        let n = Int(points.rounded(.down))
        guard n > 0 else { return Path() }
        let dir: Double = reversed ? -1 : 1
        let perPoint = 2 * Double.pi / Double(n)
        var angle = (rotation - 90) * .pi / 180
        var x = radius * cos(angle), y = radius * sin(angle)
        var path = Path()
        path.move(to: Point(x + c.x, y + c.y))
        angle += perPoint * dir
        for _ in 0..<n {
            let px = x, py = y
            x = radius * cos(angle); y = radius * sin(angle)
            if roundness != 0 {
                let t1 = atan2(py, px) - .pi / 2 * dir, t2 = atan2(y, x) - .pi / 2 * dir
                let r = radius * roundness * 0.25
                path.cubic(
                    to: Point(x + c.x, y + c.y),
                    control1: Point(px - r * cos(t1) + c.x, py - r * sin(t1) + c.y),
                    control2: Point(x + r * cos(t2) + c.x, y + r * sin(t2) + c.y))
            } else {
                path.line(to: Point(x + c.x, y + c.y))
            }
            angle += perPoint * dir
        }
        path.close()
        return path
    }

    /// The same outline traversed backwards (each subpath from its end).
    static func reversed(_ path: Path) -> Path {
        var result = Path()
        var start: Point?
        var segments: [(from: Point, element: PathElement)] = []
        var current = Point.zero
        var closed = false
        func flush() {
            guard let s = start else { return }
            result.move(to: segments.last.map { end(of: $0.element) } ?? s)
            for seg in segments.reversed() {
                switch seg.element {
                case .line: result.line(to: seg.from)
                case .quad(let c, _): result.quad(to: seg.from, control: c)
                case .cubic(let c1, let c2, _):
                    result.cubic(to: seg.from, control1: c2, control2: c1)
                default: break
                }
            }
            if closed { result.close() }
            start = nil
            segments = []
            closed = false
        }
        func end(of e: PathElement) -> Point {
            switch e {
            case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): p
            case .close: current
            }
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                flush()
                start = p
                current = p
            case .close:
                closed = true
                if let s = start { current = s }
            default:
                segments.append((current, e))
                current = end(of: e)
            }
        }
        flush()
        return result
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
