// Bézier curve maths, in one place for every stage that cuts or walks curves: the
// rasterizer's path measuring (dashes, strokeStart/strokeEnd trims), the Lottie shape
// modifiers (offset path, zig-zag) and text on a path.
//
// Two forms, each kept where its numbers are relied on:
// - ``Bezier``: Bernstein evaluation and de Casteljau splits of a line, quadratic or cubic
//   segment (control points padded to four), as path measuring uses them;
// - ``CubicSegment``: one cubic in polynomial form with what lottie-web's PolynomialBezier
//   offers (inflections, bounds, curve–curve intersections), whose rounding the modifiers follow.
//
// Both split with the same de Casteljau construction (``Bezier/split(_:_:_:lerp:)``); they
// interpolate differently (a + (b − a)·t against a·(1 − t) + b·t), which changes last bits,
// so each keeps its own interpolation and every output stays what it was.

/// The degree of a segment whose control points are padded to four.
package enum BezierKind: Sendable {
    case line, quad, cubic
}

/// Control points of a segment: (start, c1, c2, end) for a cubic, (start, c, end, end) for a
/// quadratic, (start, end, end, end) for a line.
package typealias BezierPoints = (Point, Point, Point, Point)

/// Evaluation, tangents and splitting of line, quadratic and cubic segments.
package enum Bezier {
    /// The point at parameter t (Bernstein form).
    package static func point(_ kind: BezierKind, _ p: BezierPoints, _ t: Double) -> Point {
        let u = 1 - t
        switch kind {
        case .line: return p.0 * u + p.1 * t
        case .quad: return p.0 * (u * u) + p.1 * (2 * u * t) + p.2 * (t * t)
        case .cubic:
            return p.0 * (u * u * u) + p.1 * (3 * u * u * t) + p.2 * (3 * u * t * t) + p.3
                * (t * t * t)
        }
    }

    /// The derivative at parameter t.
    package static func derivative(_ kind: BezierKind, _ p: BezierPoints, _ t: Double) -> Point {
        let u = 1 - t
        switch kind {
        case .line: return p.1 - p.0
        case .quad: return (p.1 - p.0) * (2 * u) + (p.2 - p.1) * (2 * t)
        case .cubic:
            return (p.1 - p.0) * (3 * u * u) + (p.2 - p.1) * (6 * u * t) + (p.3 - p.2) * (3 * t * t)
        }
    }

    /// Unit tangent at parameter t: the chord's direction where the derivative vanishes
    /// (a handle on its end point), (1, 0) for a segment of no length.
    package static func unitTangent(_ kind: BezierKind, _ p: BezierPoints, _ t: Double) -> Point {
        var d = derivative(kind, p, t)
        if d.length < 1e-12 { d = (kind == .quad ? p.2 : p.3) - p.0 }
        if kind == .line { d = p.1 - p.0 }
        let len = d.length
        return len > 0 ? d * (1 / len) : Point(1, 0)
    }

    /// a + (b − a)·t.
    package static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { a + (b - a) * t }

    /// De Casteljau split at t: the control points of the parts before and after t, padded
    /// as the input is. `lerp` is the interpolation (``lerp(_:_:_:)`` unless a caller's
    /// numbers follow another form).
    package static func split(
        _ kind: BezierKind, _ p: BezierPoints, _ t: Double,
        lerp: (Point, Point, Double) -> Point = Bezier.lerp
    )
        -> (BezierPoints, BezierPoints)
    {
        switch kind {
        case .line:
            let m = lerp(p.0, p.1, t)
            return ((p.0, m, m, m), (m, p.1, p.1, p.1))
        case .quad:
            let (a, b) = (lerp(p.0, p.1, t), lerp(p.1, p.2, t))
            let m = lerp(a, b, t)
            return ((p.0, a, m, m), (m, b, p.2, p.2))
        case .cubic:
            let (a, b, c) = (lerp(p.0, p.1, t), lerp(p.1, p.2, t), lerp(p.2, p.3, t))
            let (d, e) = (lerp(a, b, t), lerp(b, c, t))
            let m = lerp(d, e, t)
            return ((p.0, a, d, m), (m, e, c, p.3))
        }
    }
}

/// One cubic Bézier segment in polynomial form, with what the zig-zag and offset-path
/// modifiers need: points and derivatives, splitting, inflection points and curve–curve
/// intersections (lottie-web's PolynomialBezier, whose numbers these follow).
package struct CubicSegment {
    package var points: [Point]
    // p(t) = a·t³ + b·t² + c·t + d
    private let a: Point, b: Point, c: Point, d: Point

    /// `linearize`: a handle that sits on its vertex is moved to a third of the chord, so
    /// a straight segment is parameterised uniformly (lottie-web does this for every
    /// segment it reads from a shape).
    package init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, linearize: Bool = false) {
        var p1 = p1, p2 = p2
        if linearize && Self.same(p0, p1) { p1 = p0 + (p3 - p0) * (1.0 / 3.0) }
        if linearize && Self.same(p2, p3) { p2 = p0 + (p3 - p0) * (2.0 / 3.0) }
        points = [p0, p1, p2, p3]
        a = Point(-p0.x + 3 * p1.x - 3 * p2.x + p3.x, -p0.y + 3 * p1.y - 3 * p2.y + p3.y)
        b = Point(3 * p0.x - 6 * p1.x + 3 * p2.x, 3 * p0.y - 6 * p1.y + 3 * p2.y)
        c = Point(-3 * p0.x + 3 * p1.x, -3 * p0.y + 3 * p1.y)
        d = p0
    }

    package var start: Point { points[0] }
    package var end: Point { points[3] }

    package func point(_ t: Double) -> Point {
        Point(((a.x * t + b.x) * t + c.x) * t + d.x, ((a.y * t + b.y) * t + c.y) * t + d.y)
    }

    package func derivative(_ t: Double) -> Point {
        Point((3 * t * a.x + 2 * b.x) * t + c.x, (3 * t * a.y + 2 * b.y) * t + c.y)
    }

    /// Radians of the direction of travel at t (y down, as atan2(dy, dx)).
    package func tangentAngle(_ t: Double) -> Double {
        let p = derivative(t)
        return atan2(p.y, p.x)
    }

    /// Parameters in (0, 1) where the curvature changes sign.
    package var inflectionPoints: [Double] {
        let denominator = a.y * b.x - a.x * b.y
        guard !Self.zero(denominator) else { return [] }
        let cusp = -0.5 * (a.y * c.x - a.x * c.y) / denominator
        let square = cusp * cusp - (1.0 / 3.0) * (b.y * c.x - b.x * c.y) / denominator
        guard square >= 0 else { return [] }
        let root = square.squareRoot()
        if Self.zero(root) { return root > 0 && root < 1 ? [cusp] : [] }
        return [cusp - root, cusp + root].filter { $0 > 0 && $0 < 1 }
    }

    package func split(_ t: Double) -> (CubicSegment, CubicSegment) {
        if t <= 0 { return (CubicSegment(start, start, start, start), self) }
        if t >= 1 { return (self, CubicSegment(end, end, end, end)) }
        let (l, r) = Bezier.split(
            .cubic, (points[0], points[1], points[2], points[3]), t, lerp: Self.lerp)
        return (
            CubicSegment(l.0, l.1, l.2, l.3, linearize: true),
            CubicSegment(r.0, r.1, r.2, r.3, linearize: true)
        )
    }

    /// Tight bounds: the end points and the extrema of each coordinate.
    package var bounds: (min: Point, max: Point) {
        var lo = Point(min(start.x, end.x), min(start.y, end.y)),
            hi = Point(max(start.x, end.x), max(start.y, end.y))
        for axis in 0..<2 {
            let (qa, qb, qc) = axis == 0 ? (3 * a.x, 2 * b.x, c.x) : (3 * a.y, 2 * b.y, c.y)
            for t in Self.quadraticRoots(qa, qb, qc) where t > 0 && t < 1 {
                let p = point(t)
                if axis == 0 {
                    lo.x = min(lo.x, p.x); hi.x = max(hi.x, p.x)
                } else {
                    lo.y = min(lo.y, p.y); hi.y = max(hi.y, p.y)
                }
            }
        }
        return (lo, hi)
    }

    /// Approximate intersections as (t on self, t on other), by recursive halving of both
    /// curves while their bounding boxes meet, down to boxes of `tolerance` or `depth`
    /// halvings (lottie-web's defaults: 2 and 7).
    package func intersections(_ other: CubicSegment, tolerance: Double = 2, depth: Int = 7) -> [(
        Double, Double
    )] {
        var found: [(Double, Double)] = []
        Self.intersect(
            Piece(self, 0, 1), Piece(other, 0, 1), level: 0, tolerance: tolerance, depth: depth,
            into: &found)
        return found.map { refined($0, other) }
    }

    /// A crossing found to within the halving's boxes, polished by Newton's method on
    /// self(t) = other(u) (kept only when it converges inside both curves): the cut lands on
    /// the crossing instead of up to a pixel beside it.
    private func refined(_ guess: (Double, Double), _ other: CubicSegment) -> (Double, Double) {
        var (t, u) = guess
        for _ in 0..<8 {
            let f = point(t) - other.point(u)
            if abs(f.x) < 1e-10 && abs(f.y) < 1e-10 { break }
            let da = derivative(t), db = other.derivative(u)
            // [da, -db] · [Δt, Δu] = -f
            let det = da.x * -db.y - da.y * -db.x
            guard abs(det) > 1e-12 else { return guess }
            let dt = (-f.x * -db.y - -f.y * -db.x) / det
            let du = (da.x * -f.y - da.y * -f.x) / det
            t += dt
            u += du
        }
        let f = point(t) - other.point(u)
        guard t >= 0, t <= 1, u >= 0, u <= 1, abs(f.x) < 1e-6, abs(f.y) < 1e-6 else { return guess }
        return (t, u)
    }

    private struct Piece {
        var curve: CubicSegment
        var t0: Double, t1: Double
        var center: Point, size: Point
        init(_ curve: CubicSegment, _ t0: Double, _ t1: Double) {
            self.curve = curve
            self.t0 = t0
            self.t1 = t1
            let box = curve.bounds
            center = (box.min + box.max) * 0.5
            size = box.max - box.min
        }
        var t: Double { (t0 + t1) / 2 }
        var halves: (Piece, Piece) {
            let (l, r) = curve.split(0.5)
            return (Piece(l, t0, t), Piece(r, t, t1))
        }
    }

    private static func intersect(
        _ p: Piece, _ q: Piece, level: Int, tolerance: Double, depth: Int,
        into found: inout [(Double, Double)]
    ) {
        // Touching boxes count (lottie-web asks for overlap, and so misses a crossing that falls
        // exactly between two halves, as the corners of an inset square do).
        guard abs(p.center.x - q.center.x) * 2 <= p.size.x + q.size.x,
            abs(p.center.y - q.center.y) * 2 <= p.size.y + q.size.y
        else { return }
        if level >= depth
            || (p.size.x <= tolerance && p.size.y <= tolerance && q.size.x <= tolerance
                && q.size.y <= tolerance)
        {
            found.append((p.t, q.t))
            return
        }
        let (p0, p1) = p.halves, (q0, q1) = q.halves
        for (x, y) in [(p0, q0), (p0, q1), (p1, q0), (p1, q1)] {
            intersect(x, y, level: level + 1, tolerance: tolerance, depth: depth, into: &found)
        }
    }

    /// p·(1 − t) + q·t, lottie-web's interpolation.
    package static func lerp(_ p: Point, _ q: Point, _ t: Double) -> Point { p * (1 - t) + q * t }

    /// lottie-web's relative float comparison.
    package static func equal(_ x: Double, _ y: Double) -> Bool {
        abs(x - y) * 100_000 <= min(abs(x), abs(y))
    }
    package static func same(_ p: Point, _ q: Point) -> Bool { equal(p.x, q.x) && equal(p.y, q.y) }
    package static func zero(_ x: Double) -> Bool { abs(x) <= 0.00001 }

    package static func quadraticRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        guard a != 0 else { return [] }
        let s = b * b - 4 * a * c
        guard s >= 0 else { return [] }
        let single = -b / (2 * a)
        guard s > 0 else { return [single] }
        let delta = s.squareRoot() / (2 * a)
        return [single - delta, single + delta]
    }

    /// Where the lines through (a1, a2) and (b1, b2) cross; nil when parallel.
    package static func lineIntersection(_ a1: Point, _ a2: Point, _ b1: Point, _ b2: Point)
        -> Point?
    {
        // Homogeneous coordinates: the cross product of the two lines.
        let l1 = (a1.y - a2.y, a2.x - a1.x, a1.x * a2.y - a1.y * a2.x)
        let l2 = (b1.y - b2.y, b2.x - b1.x, b1.x * b2.y - b1.y * b2.x)
        let x = l1.1 * l2.2 - l1.2 * l2.1, y = l1.2 * l2.0 - l1.0 * l2.2,
            w = l1.0 * l2.1 - l1.1 * l2.0
        guard !zero(w) else { return nil }
        return Point(x / w, y / w)
    }

    /// `p` moved `length` in the direction `angle` (radians, y up as lottie-web measures).
    package static func polarOffset(_ p: Point, _ angle: Double, _ length: Double) -> Point {
        Point(p.x + cos(angle) * length, p.y - sin(angle) * length)
    }

    package static func distance(_ p: Point, _ q: Point) -> Double {
        ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
