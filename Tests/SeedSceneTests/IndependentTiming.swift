/// Timing curves computed here, independently of the library's Newton solver, so that
/// the scene tests check the timeline against a second implementation.
enum IndependentTiming {
    /// CAMediaTimingFunction's cubic Bézier from (0, 0) through (x1, y1), (x2, y2) to
    /// (1, 1), evaluated at time fraction `x` by bisection on the curve's x(s).
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double)
        -> Double
    {
        func b(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if b(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return b(y1, y2, (lo + hi) / 2)
    }

    static func easeIn(_ x: Double) -> Double { bezier(0.42, 0, 1, 1, at: x) }
    static func easeOut(_ x: Double) -> Double { bezier(0, 0, 0.58, 1, at: x) }
    static func easeInEaseOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: x) }
}
