import FlipbookScene

/// Every animation of one scalar component of one layer, in begin order, and the rules
/// that combine them (UIView's, as the format states):
///
/// - An animation runs from `from`, or else from the value on screen at its begin time
///   (so a later animation on a running property starts where it is: beginFromCurrentState),
///   to its target, and wins over earlier ones while it runs.
/// - Once over, its final value stays (the model value changed), unless
///   `removedOnCompletion` restores what the earlier animations give.
/// - Before it begins it shows nothing, unless `fillMode` backwards/both shows its first
///   value.
///
/// Start values depend only on earlier animations at a fixed time, so they are computed
/// once when the track is built; evaluating a frame is a single pass.
struct PropertyTrack: Sendable {
    struct Entry: Sendable {
        var begin: Double
        var duration: Double
        var timing: Timing
        var repeatCount: Double
        var autoreverses: Bool
        var removedOnCompletion: Bool
        var fillsBackwards: Bool
        /// Jumps to its target at `begin` instead of interpolating (booleans).
        var discrete: Bool
        var change: ComponentChange
        /// Filled in by ``PropertyTrack/init(base:entries:)``.
        var start: Double = 0
    }

    enum ComponentChange: Sendable {
        case to(from: Double?, to: Double)
        case keyframes(
            values: [Double], keyTimes: [Double], curves: [TimingCurve], overall: TimingCurve)
    }

    private(set) var entries: [Entry]

    init(base: Double, entries unsorted: [Entry]) {
        // Stable sort: same-time animations keep file order, the later one winning.
        entries = unsorted.enumerated().sorted { a, b in
            a.element.begin != b.element.begin
                ? a.element.begin < b.element.begin : a.offset < b.offset
        }.map(\.element)
        for i in entries.indices {
            switch entries[i].change {
            case .to(let from?, _): entries[i].start = from
            case .to(nil, _): entries[i].start = value(at: entries[i].begin, base: base, upTo: i)
            case .keyframes(let values, _, _, _): entries[i].start = values.first ?? base
            }
        }
    }

    /// The component's value at `seconds` when its model value is `base`.
    func value(at seconds: Double, base: Double) -> Double {
        value(at: seconds, base: base, upTo: entries.count)
    }

    private func value(at t: Double, base: Double, upTo count: Int) -> Double {
        var v = base
        for i in 0..<count {
            let e = entries[i]
            if t < e.begin {
                if e.fillsBackwards { v = e.sample(fraction: 0) }
                continue
            }
            let local = t - e.begin
            if e.discrete {
                v = e.finalValue
            } else if local < e.activeDuration {
                v = e.sample(local: local)
            } else if !e.removedOnCompletion {
                v = e.finalValue
            }
        }
        return v
    }
}

extension PropertyTrack.Entry {
    var activeDuration: Double {
        repeatCount.isInfinite ? .infinity : duration * repeatCount * (autoreverses ? 2 : 1)
    }

    /// The value at `local` seconds after begin, within the active duration.
    func sample(local: Double) -> Double {
        guard duration > 0 else { return finalValue }
        let cycle = autoreverses ? 2 * duration : duration
        var phase = local.truncatingRemainder(dividingBy: cycle)
        if autoreverses && phase > duration { phase = cycle - phase }
        return sample(fraction: phase / duration)
    }

    /// What the animation shows when it ends: the target, or for an autoreversing
    /// animation with a whole repeat count the start; fractional counts stop mid-cycle.
    var finalValue: Double {
        if discrete || duration <= 0 { return sample(fraction: 1) }
        let halves = repeatCount * (autoreverses ? 2 : 1)
        let whole = halves.rounded(.down)
        let rest = halves - whole
        // Parity without converting (a repeat count of 1e300 is past Int); as Int's `%`,
        // the remainder of a negative count is negative.
        let remainder = whole.truncatingRemainder(dividingBy: 2)
        if rest == 0 {
            let backward = autoreverses && remainder == 0
            return sample(fraction: backward ? 0 : 1)
        }
        let backward = autoreverses && remainder == 1
        return sample(fraction: backward ? 1 - rest : rest)
    }

    /// The value at `fraction` (0…1) of one forward cycle.
    func sample(fraction: Double) -> Double {
        switch change {
        case .to(_, let target):
            if discrete { return fraction > 0 || duration <= 0 ? target : start }
            if fraction >= 1 { return target }
            let p: Double
            switch timing {
            case .curve(let curve): p = curve.progress(at: fraction)
            case .spring(let spring): p = spring.progress(at: fraction * duration)
            }
            return start + (target - start) * p
        case .keyframes(let values, let keyTimes, let curves, let overall):
            return Self.keyframeValue(
                values: values, keyTimes: keyTimes, curves: curves,
                at: overall.progress(at: fraction))
        }
    }

    /// CAKeyframeAnimation's linear calculation mode: find the segment holding `x`, ease
    /// within it by its own curve, and interpolate its two values.
    private static func keyframeValue(
        values: [Double], keyTimes: [Double], curves: [TimingCurve],
        at x: Double
    ) -> Double {
        guard let first = values.first else { return 0 }
        guard values.count > 1 else { return first }
        if x <= keyTimes[0] { return first }
        // The first key time past x (key times do not decrease; the reader checks).
        let i = keyTimes.partitionPoint(in: 1..<values.count) { x < $0 }
        if i < values.count {
            let t0 = keyTimes[i - 1], t1 = keyTimes[i]
            let local = t1 > t0 ? (x - t0) / (t1 - t0) : 1
            let curve = i - 1 < curves.count ? curves[i - 1] : .linear
            let p = curve.progress(at: local)
            return values[i - 1] + (values[i] - values[i - 1]) * p
        }
        return values[values.count - 1]
    }
}
