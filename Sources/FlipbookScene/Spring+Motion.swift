#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Spring {
    /// The spring UIKit builds for
    /// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`:
    /// mass 1, natural frequency ω0 chosen so that the envelope falls to 0.001 of the
    /// distance at `duration`.
    ///
    /// For ζ < 1: ω0 = −ln(0.001·√(1−ζ²)/ζ) / (ζ·duration). At ζ = 1 that formula has no
    /// limit, so the critically damped envelope (1 + ω0·t)·e^(−ω0·t) = 0.001 is solved
    /// instead (ω0·duration ≈ 9.2335). ζ is clamped to (0, 1].
    public static func uiKit(duration: Double, dampingRatio: Double, initialVelocity: Double)
        -> Spring
    {
        let zeta = min(max(dampingRatio, 1e-6), 1)
        let omega0: Double
        if zeta < 0.999_999 {
            omega0 = -log(0.001 * (1 - zeta * zeta).squareRoot() / zeta) / (zeta * duration)
        } else {
            omega0 = criticalEnvelopeRoot / duration
        }
        return Spring(
            mass: 1, stiffness: omega0 * omega0, damping: 2 * zeta * omega0,
            initialVelocity: initialVelocity)
    }

    /// x with (1 + x)·e^(−x) = 0.001, by Newton's method from x = 10.
    private static let criticalEnvelopeRoot: Double = {
        var x = 10.0
        for _ in 0..<50 {
            let f = (1 + x) * exp(-x) - 0.001
            let df = -x * exp(-x)
            x -= f / df
        }
        return x
    }()

    /// Undamped angular frequency √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2√(km)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Fraction of the distance covered `seconds` after the start: 0 at 0, tends to 1,
    /// and may overshoot. Closed-form solution of m·x'' + c·x' + k·x = 0 with x(0) = −1,
    /// x'(0) = v0, shifted by 1.
    public func progress(at seconds: Double) -> Double {
        let t = max(seconds, 0)
        let w0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * w0 * t)
            return 1 - envelope * (cos(wd * t) + ((zeta * w0 - v0) / wd) * sin(wd * t))
        } else if zeta == 1 {
            return 1 - (1 + (w0 - v0) * t) * exp(-w0 * t)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let s1 = w0 * (-zeta + root)
            let s2 = w0 * (-zeta - root)
            let c1 = (-s2 - v0) / (s2 - s1)
            let c2 = (s1 + v0) / (s2 - s1)
            return 1 + c1 * exp(s1 * t) + c2 * exp(s2 * t)
        }
    }

    /// The time after which the motion stays within 0.001 of the target: the duration
    /// CASpringAnimation uses when none is given. Found by scanning in 1 ms steps (up to
    /// 120 s), so it is exact to the millisecond rather than an envelope estimate.
    public var settlingDuration: Double {
        let step = 0.001
        var lastOutside = 0.0
        var t = 0.0
        while t <= 120 {
            if abs(1 - progress(at: t)) > 0.001 { lastOutside = t }
            t += step
        }
        return min(lastOutside + step, 120)
    }
}
