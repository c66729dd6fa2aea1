import FlipbookGeometry
import FlipbookScene

/// A path measured as lottie-web measures it for text on a path (`bez.buildBezierData`):
/// each curved segment sampled at 150 points, a straight one at its two ends, and lengths
/// summed along the polyline. Positions beyond the ends of an open path continue along
/// its first or last piece; a closed path wraps around.
struct TextPathWalker {
    private var points: [Point] = []
    private var lengths: [Double] = []
    private let closed: Bool
    var total: Double { lengths.last ?? 0 }

    init?(_ v: [Double], reversed: Bool) {
        guard v.count >= 2 else { return nil }
        let count = min(Int(max(0, min(v[1], 1e5))), (v.count - 2) / 6)
        guard count >= 2 || (count == 1 && v[0] >= 0.5) else { return nil }
        closed = v[0] >= 0.5
        // (vertex, in-handle, out-handle), handles absolute.
        var vertices: [(Point, Point, Point)] = (0..<count).map { i in
            let b = 2 + 6 * i
            let p = Point(v[b], v[b + 1])
            return (p, p + Point(v[b + 2], v[b + 3]), p + Point(v[b + 4], v[b + 5]))
        }
        if reversed {
            // lottie-web keeps a closed path's first vertex first and walks back from it.
            let order = closed ? [0] + Array((1..<count).reversed()) : Array((0..<count).reversed())
            vertices = order.map { (vertices[$0].0, vertices[$0].2, vertices[$0].1) }
        }
        var segments: [(Point, Point, Point, Point)] = []
        for i in 0..<(count - 1) {
            segments.append((vertices[i].0, vertices[i].2, vertices[i + 1].1, vertices[i + 1].0))
        }
        if closed {
            segments.append(
                (vertices[count - 1].0, vertices[count - 1].2, vertices[0].1, vertices[0].0))
        }
        points = [vertices[0].0]
        lengths = [0]
        for (p0, p1, p2, p3) in segments {
            let samples = Self.isStraight(p0, p1, p2, p3) ? 2 : 150
            for k in 1..<samples {
                let q = Bezier.point(.cubic, (p0, p1, p2, p3), Double(k) / Double(samples - 1))
                let last = points[points.count - 1]
                lengths.append(
                    lengths[lengths.count - 1]
                        + ((q.x - last.x) * (q.x - last.x) + (q.y - last.y) * (q.y - last.y))
                        .squareRoot())
                points.append(q)
            }
        }
        guard points.count >= 2 else { return nil }
    }

    /// Handles on the chord's line (lottie-web's pointOnLine2D test), so the segment is straight.
    private static func isStraight(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Bool {
        guard p0 != p3 else { return p1 == p0 && p2 == p0 }
        func onLine(_ q: Point) -> Bool {
            let cross = (p3.x - p0.x) * (q.y - p0.y) - (p3.y - p0.y) * (q.x - p0.x)
            return abs(cross) < 0.001
        }
        return onLine(p1) && onLine(p2)
    }

    /// The point `length` along the path and the direction there (degrees, clockwise from +x).
    func place(_ length: Double) -> (point: Point, degrees: Double) {
        var l = length
        if closed && total > 0 {
            l = l.truncatingRemainder(dividingBy: total)
            if l < 0 { l += total }
        }
        // The piece whose end reaches l (the first non-empty one before the start, the
        // last one past the end).
        var k = lengths.firstIndex { $0 >= l } ?? lengths.count - 1
        k = max(k, 1)
        while k < lengths.count - 1 && lengths[k] - lengths[k - 1] <= 0 { k += 1 }
        while k > 1 && lengths[k] - lengths[k - 1] <= 0 { k -= 1 }
        let a = points[k - 1], b = points[k]
        let piece = lengths[k] - lengths[k - 1]
        let f = piece > 0 ? (l - lengths[k - 1]) / piece : 0
        return (
            Point(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f),
            atan2(b.y - a.y, b.x - a.x) * 180 / .pi
        )
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
