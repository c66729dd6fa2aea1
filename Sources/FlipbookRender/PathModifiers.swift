import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// The shape modifiers, each reshaping the paths in its scope in place (lottie-web's
/// algorithms):
/// - trim: start and end (0…1) shifted by the offset (turns) and wrapped, so a range
///   that crosses the start of the path becomes two pieces; start > end swaps them;
/// - round corners: every sharp vertex (no handles) becomes two vertices `radius` along
///   its two edges (at most half of each edge) joined by a curve whose handles sit at
///   0.5519 of the way back to the corner; open ends stay sharp;
/// - pucker/bloat: vertices move toward the mean of the vertices by the amount and
///   handles away from it (negative amounts pucker);
/// - zig-zag (ZigZagModifier.swift) and offset path (OffsetPathModifier.swift);
/// - twist is not drawn (the reader warns).
enum PathModifiers {
    static func apply(_ node: VectorNode, to refs: [VectorRenderer.SlotRef]) {
        switch node {
        case .trim(let start, let end, let offset, let individually):
            trim(refs, start: start, end: end, offset: offset, individually: individually)
        case .roundCorners(let radius) where radius > 0:
            for ref in refs {
                ref.slot.path = BezierContours(ref.slot.path).rounded(radius: radius).path
            }
        case .puckerBloat(let amount) where amount != 0:
            for ref in refs {
                ref.slot.path = BezierContours(ref.slot.path).puckeredOrBloated(amount).path
            }
        case .zigZag(let size, let ridges, let smooth) where size != 0 && size.isFinite:
            for ref in refs {
                ref.slot.path =
                    BezierContours(ref.slot.path).zigZagged(
                        size: size, ridges: ridges, smooth: smooth
                    ).path
            }
        case .offsetPath(let amount, let join, let miterLimit) where amount != 0 && amount.isFinite:
            for ref in refs {
                ref.slot.path =
                    BezierContours(ref.slot.path).offset(
                        by: amount, join: join, miterLimit: miterLimit
                    ).path
            }
        default:
            break
        }
    }

    /// The (from, to) fractions a trim keeps, after the offset and wrapping.
    static func ranges(start: Double, end: Double, offset: Double) -> [(Double, Double)] {
        var s = min(max(start, 0), 1), e = min(max(end, 0), 1)
        if s > e { swap(&s, &e) }
        if e - s >= 1 { return [(0, 1)] }
        if e - s <= 0 { return [] }
        var a = (s + offset).truncatingRemainder(dividingBy: 1)
        if a < 0 { a += 1 }
        let b = a + (e - s)
        return b <= 1 ? [(a, b)] : [(a, 1), (0, b - 1)]
    }

    private static func trim(
        _ refs: [VectorRenderer.SlotRef], start: Double, end: Double, offset: Double,
        individually: Bool
    ) {
        let keep = ranges(start: start, end: end, offset: offset)
        if keep.count == 1 && keep[0] == (0, 1) { return }
        guard individually else {
            for ref in refs { ref.slot.path = pieces(ref.slot.path, keep) }
            return
        }
        let lengths = refs.map { PathTrimmer.length(of: $0.slot.path) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return }
        var before = 0.0
        for (ref, length) in zip(refs, lengths) {
            defer { before += length }
            guard length > 0 else { ref.slot.path = Path(); continue }
            let local = keep.compactMap { r -> (Double, Double)? in
                let a = max(r.0 * total, before), b = min(r.1 * total, before + length)
                return b > a ? ((a - before) / length, (b - before) / length) : nil
            }
            ref.slot.path = pieces(ref.slot.path, local)
        }
    }

    private static func pieces(_ path: Path, _ ranges: [(Double, Double)]) -> Path {
        var out = Path()
        for r in ranges { out.elements += PathTrimmer.trim(path, from: r.0, to: r.1).elements }
        return out
    }
}

/// A path as After Effects holds it: contours of vertices with in and out handles.
struct BezierContours {
    struct Vertex {
        var point: Point
        var inHandle: Point
        var outHandle: Point
        var isSharp: Bool { inHandle == point && outHandle == point }
    }

    struct Contour {
        var vertices: [Vertex]
        var closed: Bool
    }

    var contours: [Contour] = []

    init(_ path: Path) {
        var current: Contour?
        func finish() {
            if var c = current, !c.vertices.isEmpty {
                // A closed contour that returns to its start by a segment has a duplicate end.
                if c.closed, c.vertices.count > 1, let last = c.vertices.last,
                    last.point == c.vertices[0].point
                {
                    c.vertices[0].inHandle = last.inHandle
                    c.vertices.removeLast()
                }
                contours.append(c)
            }
            current = nil
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                finish()
                current = Contour(
                    vertices: [Vertex(point: p, inHandle: p, outHandle: p)], closed: false)
            case .line(let p):
                current?.vertices.append(Vertex(point: p, inHandle: p, outHandle: p))
            case .quad(let c, let p):
                guard var contour = current, let from = contour.vertices.last?.point else {
                    continue
                }
                let c1 = from + (c - from) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
                contour.vertices[contour.vertices.count - 1].outHandle = c1
                contour.vertices.append(Vertex(point: p, inHandle: c2, outHandle: p))
                current = contour
            case .cubic(let c1, let c2, let p):
                guard var contour = current, !contour.vertices.isEmpty else { continue }
                contour.vertices[contour.vertices.count - 1].outHandle = c1
                contour.vertices.append(Vertex(point: p, inHandle: c2, outHandle: p))
                current = contour
            case .close:
                current?.closed = true
                let start = current?.vertices.first
                finish()
                if let start {
                    current = Contour(
                        vertices: [
                            Vertex(
                                point: start.point, inHandle: start.point,
                                outHandle: start.point)
                        ], closed: false)
                }
            }
        }
        finish()
        contours.removeAll { $0.vertices.count == 1 && !$0.closed }
    }

    var path: Path {
        var out = Path()
        for c in contours {
            guard let first = c.vertices.first else { continue }
            out.move(to: first.point)
            let count = c.vertices.count
            let segments = c.closed ? count : count - 1
            for i in 0..<segments {
                let a = c.vertices[i], b = c.vertices[(i + 1) % count]
                if a.outHandle == a.point && b.inHandle == b.point {
                    out.line(to: b.point)
                } else {
                    out.cubic(to: b.point, control1: a.outHandle, control2: b.inHandle)
                }
            }
            if c.closed { out.close() }
        }
        return out
    }

    func rounded(radius: Double) -> BezierContours {
        var copy = self
        copy.contours = contours.map { c in
            let n = c.vertices.count
            var out: [Vertex] = []
            for (i, v) in c.vertices.enumerated() {
                guard v.isSharp, c.closed || (i != 0 && i != n - 1), n > 1 else {
                    out.append(v); continue
                }
                let previous = c.vertices[(i - 1 + n) % n].point,
                    next = c.vertices[(i + 1) % n].point
                func toward(_ other: Point) -> Point {
                    let d = other - v.point
                    let distance = (d.x * d.x + d.y * d.y).squareRoot()
                    let f = distance > 0 ? min(distance / 2, radius) / distance : 0
                    return v.point + d * f
                }
                let a = toward(previous), b = toward(next)
                out.append(
                    Vertex(
                        point: a, inHandle: a,
                        outHandle: a + (v.point - a) * VectorCornerKappa.value))
                out.append(
                    Vertex(
                        point: b, inHandle: b + (v.point - b) * VectorCornerKappa.value,
                        outHandle: b))
            }
            return Contour(vertices: out, closed: c.closed)
        }
        return copy
    }

    func puckeredOrBloated(_ amount: Double) -> BezierContours {
        var copy = self
        copy.contours = contours.map { c in
            guard !c.vertices.isEmpty else { return c }
            var center = Point.zero
            for v in c.vertices { center = center + v.point }
            center = center * (1 / Double(c.vertices.count))
            return Contour(
                vertices: c.vertices.map { v in
                    Vertex(
                        point: v.point + (center - v.point) * amount,
                        inHandle: v.inHandle + (center - v.inHandle) * -amount,
                        outHandle: v.outHandle + (center - v.outHandle) * -amount)
                }, closed: c.closed)
        }
        return copy
    }
}

/// The handle ratio After Effects uses for round corners (1 − 0.5519 from the corner).
enum VectorCornerKappa {
    static let value = 0.5519
}
