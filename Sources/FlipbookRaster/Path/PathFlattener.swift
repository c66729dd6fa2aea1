import FlipbookGeometry

/// Turns a ``Path`` into polylines: lines pass through, quadratic and cubic Béziers are
/// cut into uniform-parameter chords.
///
/// Rules:
/// - Points are mapped through the transform first, so the tolerance is in output units
///   (device pixels for fills).
/// - The chord count comes from the curve's second differences (Wang's bound): a
///   quadratic needs n = ⌈√(|P0 − 2P1 + P2| / (4·tol))⌉ chords, a cubic
///   n = ⌈√(3·max|ΔΔP| / (4·tol))⌉, which keeps every chord within `tol` of the curve.
/// - A curve whose control points all lie on one side outside the cull box is replaced
///   by its chord: above, below or right of the box it adds nothing visible, and left of
///   it only its end points matter for the winding of visible pixels.
/// - `move` starts a contour, `close` ends one as closed; drawing after a `close` starts
///   a new contour at the closed contour's first point (CoreGraphics' rule).

/// Receives flattened contours.
protocol FlattenSink {
    mutating func beginContour(at p: Point)
    mutating func lineTo(_ p: Point)
    mutating func endContour(closed: Bool)
}

/// A device-space box outside which curve detail is not needed.
struct CullBox {
    var minX: Double, minY: Double, maxX: Double, maxY: Double
}

enum PathFlattener {
    static let maxChords = 4096

    static func flatten<S: FlattenSink>(
        _ path: Path, transform t: AffineTransform,
        tolerance: Double, cull: CullBox? = nil,
        into sink: inout S
    ) {
        var open = false
        var start = Point.zero
        var current = Point.zero
        func ensureOpen(_ s: inout S) {
            if !open { s.beginContour(at: current); start = current; open = true }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                if open { sink.endContour(closed: false) }
                current = t.apply(p)
                start = current
                sink.beginContour(at: current)
                open = true
            case .line(let p):
                ensureOpen(&sink)
                current = t.apply(p)
                sink.lineTo(current)
            case .quad(let c, let p):
                ensureOpen(&sink)
                let (p1, p2) = (t.apply(c), t.apply(p))
                if let cull, isCulled(current, p1, p2, p2, cull) {
                    sink.lineTo(p2)
                } else {
                    emitQuad(current, p1, p2, tolerance, &sink)
                }
                current = p2
            case .cubic(let c1, let c2, let p):
                ensureOpen(&sink)
                let (p1, p2, p3) = (t.apply(c1), t.apply(c2), t.apply(p))
                if let cull, isCulled(current, p1, p2, p3, cull) {
                    sink.lineTo(p3)
                } else {
                    emitCubic(current, p1, p2, p3, tolerance, &sink)
                }
                current = p3
            case .close:
                if open {
                    sink.endContour(closed: true)
                    open = false
                }
                current = start
            }
        }
        if open { sink.endContour(closed: false) }
    }

    /// Whether a curve's control points all lie on one side outside the box.
    @inline(__always)
    static func isCulled(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ box: CullBox) -> Bool
    {
        let minX = min(min(p0.x, p1.x), min(p2.x, p3.x)),
            maxX = max(max(p0.x, p1.x), max(p2.x, p3.x))
        let minY = min(min(p0.y, p1.y), min(p2.y, p3.y)),
            maxY = max(max(p0.y, p1.y), max(p2.y, p3.y))
        return maxY <= box.minY || minY >= box.maxY || minX >= box.maxX || maxX <= box.minX
    }

    static func chordCount(_ secondDifference: Double, _ factor: Double, _ tolerance: Double) -> Int
    {
        let n = (factor * secondDifference / max(tolerance, 1e-6)).squareRoot().rounded(.up)
        guard n.isFinite else { return 1 }
        // Capped before converting: a curve 1e20 px long asks for more chords than Int holds.
        return max(Int(min(n, Double(maxChords))), 1)
    }

    static func emitQuad<S: FlattenSink>(
        _ p0: Point, _ p1: Point, _ p2: Point,
        _ tol: Double, _ sink: inout S
    ) {
        let dd = (p0 - p1 * 2 + p2).length
        let n = chordCount(dd, 0.25, tol)
        if n > 1 {
            let step = 1 / Double(n)
            for i in 1..<n {
                let u = Double(i) * step, v = 1 - u
                sink.lineTo(
                    Point(
                        v * v * p0.x + 2 * u * v * p1.x + u * u * p2.x,
                        v * v * p0.y + 2 * u * v * p1.y + u * u * p2.y))
            }
        }
        sink.lineTo(p2)
    }

    static func emitCubic<S: FlattenSink>(
        _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point,
        _ tol: Double, _ sink: inout S
    ) {
        let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let n = chordCount(dd, 0.75, tol)
        if n > 1 {
            let step = 1 / Double(n)
            for i in 1..<n {
                let u = Double(i) * step, v = 1 - u
                let (b0, b1, b2, b3) = (v * v * v, 3 * u * v * v, 3 * u * u * v, u * u * u)
                sink.lineTo(
                    Point(
                        b0 * p0.x + b1 * p1.x + b2 * p2.x + b3 * p3.x,
                        b0 * p0.y + b1 * p1.y + b2 * p2.y + b3 * p3.y))
            }
        }
        sink.lineTo(p3)
    }
}

/// Collects flattened contours as point lists (used by the stroker and path measuring).
struct PolylineCollector: FlattenSink {
    struct Contour {
        var points: [Point]
        var closed: Bool
        /// True when the contour had drawing commands (a lone move has none).
        var hasSegments: Bool
    }
    var contours: [Contour] = []

    mutating func beginContour(at p: Point) {
        contours.append(Contour(points: [p], closed: false, hasSegments: false))
    }
    mutating func lineTo(_ p: Point) {
        contours[contours.count - 1].points.append(p)
        contours[contours.count - 1].hasSegments = true
    }
    mutating func endContour(closed: Bool) {
        contours[contours.count - 1].closed = closed
        if closed { contours[contours.count - 1].hasSegments = true }
    }
}
