import Testing
import FlipbookScene
@testable import FlipbookTimeline

/// Curves and springs checked against independent computations: the Bézier by dense
/// sampling of its parametric form (not by the Newton solver under test), the springs
/// against the numbers in the format brief and the oscillator's defining properties.
@Suite struct TimingTests {
    /// y at x found by sampling the parametric curve at 200 001 parameters and
    /// interpolating between the two samples around x.
    static func bruteForce(_ c: TimingCurve, _ x: Double) -> Double {
        func bez(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        let n = 200_000
        var previous = (x: 0.0, y: 0.0)
        for i in 1...n {
            let s = Double(i) / Double(n)
            let point = (x: bez(c.x1, c.x2, s), y: bez(c.y1, c.y2, s))
            if point.x >= x {
                let f = point.x > previous.x ? (x - previous.x) / (point.x - previous.x) : 0
                return previous.y + (point.y - previous.y) * f
            }
            previous = point
        }
        return 1
    }

    static let curves: [(String, TimingCurve)] = [
        ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
        ("default", .default), ("custom", TimingCurve(0.68, -0.55, 0.27, 1.55)),
    ]

    @Test(arguments: curves, [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0])
    func curveMatchesDenseSampling(_ named: (String, TimingCurve), _ x: Double) {
        let got = named.1.progress(at: x)
        #expect(abs(got - Self.bruteForce(named.1, x)) < 1e-5, "\(named.0) at \(x)")
    }

    @Test func symmetricCurveIsHalfAtHalf() {
        #expect(abs(TimingCurve.easeInEaseOut.progress(at: 0.5) - 0.5) < 1e-9)
        #expect(TimingCurve.linear.progress(at: 0.3) == 0.3)
    }

    /// The brief's two checks of UIKit's spring conversion.
    @Test(arguments: [(3.0, 0.25, 54.8336, 3.7025), (1.0, 0.5, 161.7195, 12.7169)])
    func uiKitSpringConversion(_ row: (Double, Double, Double, Double)) {
        let spring = Spring.uiKit(duration: row.0, dampingRatio: row.1, initialVelocity: 0)
        #expect(abs(spring.stiffness - row.2) < 1e-3)
        #expect(abs(spring.damping - row.3) < 1e-3)
        #expect(spring.mass == 1)
    }

    /// p(0) = 0, p'(0) = v0, and at `duration` the defining relation of UIKit's (Framer's)
    /// conversion holds: e^(−ζω0·d) · ζ / √(1−ζ²) = 0.001.
    @Test(arguments: [0.1, 0.4, 0.7, 0.95, 1.0], [0.0, 5.0])
    func springStartsAtRestWithItsVelocity(_ zeta: Double, _ velocity: Double) {
        let spring = Spring.uiKit(duration: 0.5, dampingRatio: zeta, initialVelocity: velocity)
        #expect(abs(spring.progress(at: 0)) < 1e-12)
        let h = 1e-6
        #expect(abs(spring.progress(at: h) / h - velocity) < 1e-3 * max(1, velocity) + 0.01)
        if velocity == 0 && zeta < 1 {
            let envelope =
                exp(-zeta * spring.naturalFrequency * 0.5) * zeta
                / (1 - zeta * zeta).squareRoot()
            #expect(abs(envelope - 0.001) < 1e-9)
        }
        #expect(abs(spring.progress(at: 5) - 1) < 1e-6)
    }

    @Test func overdampedSpringApproachesWithoutOvershoot() {
        let spring = Spring(mass: 1, stiffness: 100, damping: 40)
        #expect(spring.dampingRatio == 2)
        var previous = 0.0
        for i in 1...200 {
            let p = spring.progress(at: Double(i) * 0.01)
            #expect(p >= previous && p <= 1)
            previous = p
        }
    }

    @Test func settlingDurationOfDefaultSpring() {
        // ζ = 0.5, ω0 = 10: the motion stays within 0.001 after ≈ 1.3 s (envelope bound:
        // −ln(0.001·√0.75)/5 = 1.41 s; the actual oscillation enters earlier).
        let d = Spring().settlingDuration
        #expect(d > 1.0 && d < 1.42)
        for i in 0..<500 { #expect(abs(1 - Spring().progress(at: d + Double(i) * 0.01)) <= 0.001) }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
