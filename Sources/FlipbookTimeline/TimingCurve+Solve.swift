import FlipbookScene

extension TimingCurve {
    /// The curve's output for input `x` in 0…1, as CAMediaTimingFunction evaluates it.
    ///
    /// The Bézier's x(s) is monotonic for control x values in 0…1, so s is found by
    /// Newton's method (fast near the answer) guarded by bisection (never diverges); both
    /// stop at |x(s) − x| < 1e-9, far below 1/1000 of the value range the format asks for.
    public func progress(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if self == .linear { return x }
        let s = solveParameter(forX: x)
        return sampleY(s)
    }

    // B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³, written in polynomial form.
    private func sampleX(_ s: Double) -> Double {
        let c = 3 * x1, b = 3 * (x2 - x1) - c, a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private func sampleY(_ s: Double) -> Double {
        let c = 3 * y1, b = 3 * (y2 - y1) - c, a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private func slopeX(_ s: Double) -> Double {
        let c = 3 * x1, b = 3 * (x2 - x1) - c, a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }

    private func solveParameter(forX x: Double) -> Double {
        let epsilon = 1e-9
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < epsilon { return s }
            let slope = slopeX(s)
            if abs(slope) < 1e-7 { break }
            s -= error / slope
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<100 {
            let value = sampleX(s)
            if abs(value - x) < epsilon { return s }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
