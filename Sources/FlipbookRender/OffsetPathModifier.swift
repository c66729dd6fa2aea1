import FlipbookGeometry
import FlipbookScene

/// After Effects' Offset Paths, as lottie-web's OffsetPathModifier builds it:
///
/// - each segment is split at its inflection points (so every piece's control polygon is
///   convex) and each piece is offset by moving the three legs of its control polygon
///   `amount` sideways and intersecting them;
/// - an open path is offset along its length and back along the other side, so the
///   result outlines it;
/// - where neighbouring offset segments cross (the inside of a corner), both are cut at
///   the crossing;
/// - where they leave a gap (the outside of a corner), the line join closes it: miter
///   (the two end tangents extended to where they meet), round (a curve with handles of
///   0.5519 of the gap's half width) or bevel (a straight line).
///
/// Two choices differ from lottie-web, both as ThorVG and After Effects do:
/// - a positive amount grows the shape whichever way the path turns (lottie-web grows
///   clockwise paths and shrinks counter-clockwise ones); the turning is that of the
///   whole path, so holes still shrink when the outline grows;
/// - the miter limit is a ratio, as for strokes: a corner is mitered while the miter
///   reaches at most `miterLimit`·|amount| from the path (lottie-web compares the miter's
///   length in pixels with the limit).
extension BezierContours {
    func offset(by amount: Double, join: LineJoin, miterLimit: Double) -> BezierContours {
        guard amount != 0 else { return self }
        var copy = self
        // Signed area (y down: positive when clockwise on screen) of all contours together.
        var area = 0.0
        for c in contours where c.closed {
            for (i, v) in c.vertices.enumerated() {
                let w = c.vertices[(i + 1) % c.vertices.count].point
                area += v.point.x * w.y - w.x * v.point.y
            }
        }
        let signed = area < 0 ? -amount : amount
        copy.contours = contours.compactMap {
            OffsetContour(amount: signed, join: join, miterLimit: miterLimit).offset($0)
        }
        return copy
    }
}

private struct OffsetContour {
    let amount: Double
    let join: LineJoin
    let miterLimit: Double

    func offset(_ contour: BezierContours.Contour) -> BezierContours.Contour? {
        let v = contour.vertices, n = v.count
        let count = contour.closed ? n : n - 1
        guard count > 0 else { return nil }
        var pieces: [[CubicSegment]] = []
        for i in 0..<count {
            let a = v[i], b = v[(i + 1) % n]
            pieces.append(
                split(CubicSegment(a.point, a.outHandle, b.inHandle, b.point, linearize: true)))
        }
        if !contour.closed {
            for i in stride(from: count - 1, through: 0, by: -1) {
                let a = v[i], b = v[(i + 1) % n]
                pieces.append(
                    split(CubicSegment(b.point, b.inHandle, a.outHandle, a.point, linearize: true)))
            }
        }
        pieces = pruneIntersections(pieces)

        var out: [BezierContours.Vertex] = []
        var lastPoint: Point?
        var lastSegment: CubicSegment?
        for run in pieces {
            guard let first = run.first, let last = run.last else { continue }
            if let previous = lastSegment { lastPoint = joinLines(&out, previous, first) }
            lastSegment = last
            for s in run {
                if let p = lastPoint, CubicSegment.same(s.start, p), !out.isEmpty {
                    out[out.count - 1].outHandle = s.points[1]
                } else {
                    out.append(
                        BezierContours.Vertex(
                            point: s.start, inHandle: s.start, outHandle: s.points[1]))
                }
                out.append(
                    BezierContours.Vertex(point: s.end, inHandle: s.points[2], outHandle: s.end))
                lastPoint = s.end
            }
        }
        if let previous = lastSegment, let first = pieces.first(where: { !$0.isEmpty })?.first {
            _ = joinLines(&out, previous, first)
        }
        guard !out.isEmpty else { return nil }
        return BezierContours.Contour(vertices: out, closed: contour.closed)
    }

    /// The control polygon's three legs moved sideways and intersected.
    private func offsetSegment(_ s: CubicSegment) -> CubicSegment {
        func shifted(_ p: Point, _ q: Point) -> (Point, Point) {
            let angle = atan2(q.x - p.x, q.y - p.y)
            return (
                CubicSegment.polarOffset(p, angle, amount),
                CubicSegment.polarOffset(q, angle, amount)
            )
        }
        let p = s.points
        let (p0, p1a) = shifted(p[0], p[1]), (p1b, p2b) = shifted(p[1], p[2]),
            (p2a, p3) = shifted(p[2], p[3])
        let p1 = CubicSegment.lineIntersection(p0, p1a, p1b, p2b) ?? p1a
        let p2 = CubicSegment.lineIntersection(p2a, p3, p1b, p2b) ?? p2a
        return CubicSegment(p0, p1, p2, p3)
    }

    private func split(_ s: CubicSegment) -> [CubicSegment] {
        let flex = s.inflectionPoints
        if flex.isEmpty { return [offsetSegment(s)] }
        if flex.count == 1 || CubicSegment.equal(flex[1], 1) {
            let (l, r) = s.split(flex[0])
            return [offsetSegment(l), offsetSegment(r)]
        }
        let (l, rest) = s.split(flex[0])
        let (m, r) = rest.split((flex[1] - flex[0]) / (1 - flex[0]))
        return [offsetSegment(l), offsetSegment(m), offsetSegment(r)]
    }

    private func firstIntersection(_ a: CubicSegment, _ b: CubicSegment) -> (Double, Double)? {
        var found = a.intersections(b)
        if let f = found.first, CubicSegment.equal(f.0, 1) { found.removeFirst() }
        return found.first
    }

    /// Cuts neighbouring runs where they cross (lottie-web's pruneSegmentIntersection).
    private func pruneTwo(_ a: [CubicSegment], _ b: [CubicSegment]) -> (
        [CubicSegment], [CubicSegment]
    ) {
        var outA = a, outB = b
        if let x = firstIntersection(a[a.count - 1], b[0]) {
            outA[a.count - 1] = a[a.count - 1].split(x.0).0
            outB[0] = b[0].split(x.1).1
        }
        if a.count > 1 && b.count > 1, let x = firstIntersection(a[0], b[b.count - 1]) {
            return ([a[0].split(x.0).0], [b[b.count - 1].split(x.1).1])
        }
        return (outA, outB)
    }

    private func pruneIntersections(_ input: [[CubicSegment]]) -> [[CubicSegment]] {
        var runs = input.filter { !$0.isEmpty }
        guard !runs.isEmpty else { return runs }
        for i in 1..<max(runs.count, 1) {
            (runs[i - 1], runs[i]) = pruneTwo(runs[i - 1], runs[i])
        }
        if runs.count > 1 {
            (runs[runs.count - 1], runs[0]) = pruneTwo(runs[runs.count - 1], runs[0])
        }
        return runs
    }

    /// Closes the gap from `a`'s end to `b`'s start with the line join; returns the point
    /// the output path has reached.
    private func joinLines(
        _ out: inout [BezierContours.Vertex], _ a: CubicSegment, _ b: CubicSegment
    ) -> Point {
        let p0 = a.end, p1 = b.start
        if join == .bevel || CubicSegment.same(p0, p1) { return p0 }
        if join == .round {
            let angleOut = -a.tangentAngle(1), angleIn = -b.tangentAngle(0) + .pi
            // lottie-web's centre is the crossing of two parallel lines, so the radius is
            // in practice half the gap.
            let center = CubicSegment.lineIntersection(
                p0, CubicSegment.polarOffset(p0, angleOut + .pi / 2, 100),
                p1, CubicSegment.polarOffset(p1, angleOut + .pi / 2, 100))
            let radius =
                center.map { CubicSegment.distance($0, p0) } ?? CubicSegment.distance(p0, p1) / 2
            if !out.isEmpty {
                out[out.count - 1].outHandle = CubicSegment.polarOffset(
                    p0, angleOut, 2 * radius * VectorCornerKappa.value)
            }
            out.append(
                BezierContours.Vertex(
                    point: p1,
                    inHandle: CubicSegment.polarOffset(
                        p1, angleIn, 2 * radius * VectorCornerKappa.value),
                    outHandle: p1))
            return p1
        }
        let t0 = CubicSegment.same(p0, a.points[2]) ? a.points[0] : a.points[2]
        let t1 = CubicSegment.same(p1, b.points[1]) ? b.points[3] : b.points[1]
        if let x = CubicSegment.lineIntersection(t0, p0, p1, t1) {
            // The miter reaches |amount|/cos(θ/2) from the path, and p0→x is |amount|·tan(θ/2).
            let reach = CubicSegment.distance(x, p0)
            if reach * reach <= (miterLimit * miterLimit - 1) * amount * amount {
                out.append(BezierContours.Vertex(point: x, inHandle: x, outHandle: x))
                return x
            }
        }
        return p0
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
