import FlipbookGeometry

/// The outlines of After Effects' parametric shapes, vertex for vertex as lottie-web
/// builds them (start points and directions matter to trim paths and dashes):
///
/// - rect: clockwise from the top of the right edge; corners are quarter ellipses with
///   handles at 0.5519 of the radius (the radius clamped to half the shorter side);
/// - ellipse: four vertices from the top, clockwise, handles at 0.5519 of each radius;
/// - polystar: vertices from the top (−90°) plus the rotation, alternating outer and
///   inner radius for a star; roundness turns each vertex's handles along the tangent,
///   at roundness × the perimeter share of that vertex.
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
            if a.2 == a.0 && b.1 == b.0 { path.line(to: b.0) } else { path.cubic(to: b.0, control1: a.2, control2: b.1) }
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
                v = [(p(rt, t + r), p(rt, t + k), p(rt, t + r)), (p(rt, b - r), p(rt, b - r), p(rt, b - k)),
                     (p(rt - r, b), p(rt - k, b), p(rt - r, b)), (p(l + r, b), p(l + r, b), p(l + k, b)),
                     (p(l, b - r), p(l, b - k), p(l, b - r)), (p(l, t + r), p(l, t + r), p(l, t + k)),
                     (p(l + r, t), p(l + k, t), p(l + r, t)), (p(rt - r, t), p(rt - r, t), p(rt - k, t))]
            } else {
                v = [(p(rt, t), p(rt, t), p(rt, t)), (p(rt, b), p(rt, b), p(rt, b)),
                     (p(l, b), p(l, b), p(l, b)), (p(l, t), p(l, t), p(l, t))]
            }
        } else {
            if r > 0 {
                v = [(p(rt, t + r), p(rt, t + r), p(rt, t + k)), (p(rt - r, t), p(rt - k, t), p(rt - r, t)),
                     (p(l + r, t), p(l + r, t), p(l + k, t)), (p(l, t + r), p(l, t + k), p(l, t + r)),
                     (p(l, b - r), p(l, b - r), p(l, b - k)), (p(l + r, b), p(l + k, b), p(l + r, b)),
                     (p(rt - r, b), p(rt - r, b), p(rt - k, b)), (p(rt, b - r), p(rt, b - k), p(rt, b - r))]
            } else {
                v = [(p(rt, t), p(rt, t), p(rt, t)), (p(l, t), p(l, t), p(l, t)),
                     (p(l, b), p(l, b), p(l, b)), (p(rt, b), p(rt, b), p(rt, b))]
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

    static func polystar(isStar: Bool, center c: Point, points: Double, rotation: Double, outerRadius: Double,
                         innerRadius: Double, outerRoundness: Double, innerRoundness: Double, reversed: Bool) -> Path {
        let corners = Int(max(0, min(points, 10_000)).rounded(.down))
        guard corners > 0 else { return Path() }
        let count = isStar ? corners * 2 : corners
        let step = 2 * Double.pi / Double(count)
        let dir: Double = reversed ? -1 : 1
        var angle = -Double.pi / 2 + rotation * .pi / 180
        var v: [(Point, Point, Point)] = []
        var long = true
        for _ in 0..<count {
            let radius = long || !isStar ? outerRadius : innerRadius
            let roundness = (long || !isStar ? outerRoundness : innerRoundness) / 100
            let perimeter = isStar ? 2 * Double.pi * radius / Double(count * 2) : 2 * Double.pi * radius / Double(count * 4)
            let x = radius * cos(angle), y = radius * sin(angle)
            let length = (x * x + y * y).squareRoot()
            let ox = length == 0 ? 0 : y / length, oy = length == 0 ? 0 : -x / length
            let p = Point(x + c.x, y + c.y)
            let d = perimeter * roundness * dir
            // lottie-web's setTripleAt(v, out, in): the out handle trails the direction of travel.
            v.append((p, Point(p.x + ox * d, p.y + oy * d), Point(p.x - ox * d, p.y - oy * d)))
            long.toggle()
            angle += step * dir
        }
        return closed(v)
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
                case .cubic(let c1, let c2, _): result.cubic(to: seg.from, control1: c2, control2: c1)
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
