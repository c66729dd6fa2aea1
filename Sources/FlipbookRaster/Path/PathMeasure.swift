import FlipbookGeometry

/// Arc length along a path, and extraction of the piece between two lengths, keeping
/// curves as curves (the basis of dashing and strokeStart/strokeEnd trimming).
///
/// Rules:
/// - A contour starts at a `move` (or at the previous contour's start after a `close`);
///   a closed contour's length includes the closing line back to its start.
/// - Lines measure exactly. A curve is sampled at uniform parameters (enough samples to
///   stay within 1/2048 of a unit of the curve, at least 16; chord sums then miss
///   less than 1e-5 of the length) and the cumulative chord
///   lengths give length; a length inside the curve maps to a parameter by linear
///   interpolation in that table, and the piece is cut out with de Casteljau splits.
struct PathMeasure {
    typealias Kind = BezierKind

    struct Segment {
        var kind: Kind
        var p: (Point, Point, Point, Point)
        var length: Double
        /// Cumulative lengths at t = i / (count − 1), for curves.
        var table: [Double]
    }

    struct Contour {
        var start: Point
        var segments: [Segment] = []
        var closed = false
        /// A contour made of a lone move has no drawing commands.
        var hasSegments = false
        var length = 0.0
        /// The original elements, for copying the whole contour unchanged.
        var elements: [PathElement] = []
    }

    private(set) var contours: [Contour] = []
    var totalLength: Double { contours.reduce(0) { $0 + $1.length } }

    init(_ path: Path) {
        var current = Point.zero
        var open: Contour? = nil
        func finish(_ c: inout Contour?) {
            if var done = c {
                done.length = done.segments.reduce(0) { $0 + $1.length }
                contours.append(done)
            }
            c = nil
        }
        for e in path.elements {
            if case .move(let p) = e {
                finish(&open)
                open = Contour(start: p, elements: [e])
                current = p
                continue
            }
            if open == nil { open = Contour(start: current, elements: [.move(current)]) }
            open!.elements.append(e)
            switch e {
            case .move: break
            case .line(let p):
                open!.segments.append(Self.segment(.line, (current, p, p, p)))
                open!.hasSegments = true
                current = p
            case .quad(let c, let p):
                open!.segments.append(Self.segment(.quad, (current, c, p, p)))
                open!.hasSegments = true
                current = p
            case .cubic(let c1, let c2, let p):
                open!.segments.append(Self.segment(.cubic, (current, c1, c2, p)))
                open!.hasSegments = true
                current = p
            case .close:
                let start = open!.start
                if current != start {
                    open!.segments.append(Self.segment(.line, (current, start, start, start)))
                }
                open!.closed = true
                open!.hasSegments = true
                current = start
                finish(&open)
            }
        }
        finish(&open)
    }

    static func segment(_ kind: Kind, _ p: (Point, Point, Point, Point)) -> Segment {
        switch kind {
        case .line:
            return Segment(kind: .line, p: p, length: (p.1 - p.0).length, table: [])
        case .quad, .cubic:
            let dd =
                kind == .quad
                ? (p.0 - p.1 * 2 + p.2).length
                : max((p.0 - p.1 * 2 + p.2).length, (p.1 - p.2 * 2 + p.3).length)
            let n = max(16, PathFlattener.chordCount(dd, kind == .quad ? 0.25 : 0.75, 1.0 / 2048))
            var table = [0.0]
            table.reserveCapacity(n + 1)
            var prev = p.0, sum = 0.0
            for i in 1...n {
                let q = Bezier.point(kind, p, Double(i) / Double(n))
                sum += (q - prev).length
                table.append(sum)
                prev = q
            }
            return Segment(kind: kind, p: p, length: sum, table: table)
        }
    }

    /// Unit tangent of a segment at parameter t (the chord direction where the
    /// derivative vanishes).
    static func tangent(_ s: Segment, _ t: Double) -> Point { Bezier.unitTangent(s.kind, s.p, t) }

    /// The parameter at arc length `d` (0…length) along a segment.
    static func parameter(_ s: Segment, at d: Double) -> Double {
        guard s.length > 0 else { return 0 }
        if s.kind == .line { return min(max(d / s.length, 0), 1) }
        if d <= 0 { return 0 }
        if d >= s.length { return 1 }
        var lo = 0, hi = s.table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s.table[mid] <= d { lo = mid } else { hi = mid }
        }
        let span = s.table[hi] - s.table[lo]
        let f = span > 0 ? (d - s.table[lo]) / span : 0
        return (Double(lo) + f) / Double(s.table.count - 1)
    }

    /// The element for the part of a segment between parameters t0 < t1.
    static func piece(_ s: Segment, _ t0: Double, _ t1: Double) -> PathElement {
        var p = s.p
        if t1 < 1 { p = Bezier.split(s.kind, p, t1).0 }
        if t0 > 0 { p = Bezier.split(s.kind, p, t1 > 0 ? t0 / t1 : 0).1 }
        switch s.kind {
        case .line: return .line(p.1)
        case .quad: return .quad(p.1, p.2)
        case .cubic: return .cubic(p.1, p.2, p.3)
        }
    }

    /// Appends the part of contour `index` between lengths d0 ≤ d1 as an open subpath.
    /// With `continuing`, the piece carries on the current subpath (no move).
    func appendPiece(
        of index: Int, from d0: Double, to d1: Double, into out: inout Path,
        continuing: Bool = false
    ) {
        let c = contours[index]
        var offset = 0.0
        var started = continuing
        for s in c.segments {
            let (a, b) = (offset, offset + s.length)
            offset = b
            if b < d0 || (b == d0 && s.length > 0) { continue }
            if a > d1 { break }
            let t0 = Self.parameter(s, at: d0 - a)
            let t1 = Self.parameter(s, at: d1 - a)
            if !started {
                out.move(to: Bezier.point(s.kind, s.p, t0))
                started = true
            }
            if t1 > t0 || s.length == 0 {
                out.elements.append(Self.piece(s, t0, t1))
            } else if d1 == d0 {
                // A zero-length piece (a dash of length 0): a dot. A nanometre step along
                // the tangent lets square caps turn with the path, as CoreGraphics' do.
                let p = Bezier.point(s.kind, s.p, t0)
                out.line(to: p + Self.tangent(s, t0) * 1e-9)
                break
            }
            if b >= d1 { break }
        }
    }
}
