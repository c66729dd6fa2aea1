import Testing
import FlipbookGeometry
import FlipbookScene
@testable import FlipbookTimeline

/// The timeline's stages are linear or n·log n in their input (keyframes, key times,
/// gradient stops) and survive counts past Int's range; results match plain reference
/// readings of the same rules.
@Suite struct HostileNumberTimelineTests {
    /// The keyframed value by its definition: the segment before the first keyframe later
    /// than t, linear easing.
    static func reference(_ list: [Keyframe], _ t: Double) -> Double {
        if t <= list[0].time { return list[0].value[0] }
        guard let later = list.indices.dropFirst().first(where: { t < list[$0].time }) else {
            return list[list.count - 1].value[0]
        }
        let (k0, k1) = (list[later - 1], list[later])
        if k0.hold { return k0.value[0] }
        let span = k1.time - k0.time
        let u = span > 0 ? (t - k0.time) / span : 1
        return k0.value[0] + (k1.value[0] - k0.value[0]) * u
    }

    /// Keyframes with repeated times and holds, probed at, between and outside them; then
    /// 1,000,000 keyframes evaluated 20,000 times, which the scan from the first keyframe
    /// made 2·10¹⁰ steps.
    @Test func keyframeLookupBySearch() {
        let times: [Double] = [0, 0.5, 0.5, 1, 1, 1, 2, 3.25]
        let list = times.enumerated().map { i, t in
            Keyframe(time: t, value: [Double(i * i)], hold: i == 5)
        }
        let value = AnimatedValue.keyframes(list)
        for t in stride(from: -0.5, through: 3.5, by: 0.125) + times + [
            .nan, .infinity, -.infinity,
        ] {
            let (got, want) = (value.scalar(at: t), Self.reference(list, t))
            #expect(got == want || (got.isNaN && want.isNaN), "t = \(t)")
        }
        let many = AnimatedValue.keyframes(
            (0..<1_000_000).map { Keyframe(time: Double($0) / 1000, value: [Double($0 % 97)]) })
        let clock = ContinuousClock()
        let start = clock.now
        var sum = 0.0
        for i in 0..<20_000 { sum += many.scalar(at: Double(i) * 0.04999) }
        // A hang guard (minutes for the scan), not a speed measurement: generous for a loaded CI machine.
        #expect(clock.now - start < .seconds(30))
        #expect(sum > 0)
    }

    /// CAKeyframeAnimation key times found by search: the same values as the definition
    /// at each key time and between; 200,000 key times evaluated 20,000 times stay cheap
    /// (the scan made that 2·10⁹ steps).
    @Test func keyTimesBySearch() {
        let layer = Layer(id: "a")
        let values = (0..<6).map { [Double($0 * 10)] }
        let keyTimes = [0, 0.2, 0.2, 0.5, 0.9, 1]
        let animation = Animation(
            duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(
                    layer: "a", keyPath: "opacity",
                    change: .keyframes(values: values, keyTimes: keyTimes, curves: []))
            ])
        let timeline = Timeline(
            scene: Scene(
                canvas: Canvas(size: Size(10, 10)), layers: [layer], animations: [animation]))
        // Segment by segment: the first key time past x, linear within it.
        for (x, want) in [
            (0.1, 5.0), (0.2, 20), (0.35, 25), (0.5, 30), (0.7, 35), (0.95, 45), (0.999, 49.9),
        ] {
            let got = timeline.properties(of: "a", at: x)!.opacity
            #expect(abs(got - want) < 1e-9, "x = \(x): \(got)")
        }
        let n = 200_000
        let big = Animation(
            duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(
                    layer: "a", keyPath: "opacity",
                    change: .keyframes(
                        values: (0..<n).map { [Double($0 % 2)] },
                        keyTimes: (0..<n).map { Double($0) / Double(n - 1) }, curves: []))
            ])
        let heavy = Timeline(
            scene: Scene(canvas: Canvas(size: Size(10, 10)), layers: [layer], animations: [big]))
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<20_000 { _ = heavy.properties(of: "a", at: Double(i) / 20_000) }
        #expect(clock.now - start < .seconds(30), "a hang guard, not a speed measurement")
    }

    /// A repeat count past Int's range (1e300 halves) ends on the right side of its
    /// cycle instead of trapping on the conversion that found its parity.
    @Test func repeatCountPastInt() {
        let animation = Animation(
            duration: 1, timing: .curve(.linear), repeatCount: 1e300, autoreverses: true,
            targets: [
                AnimationTarget(
                    layer: "a", keyPath: "opacity", change: .to(from: [0.25], to: [0.75]))
            ])
        let timeline = Timeline(
            scene: Scene(
                canvas: Canvas(size: Size(10, 10)), layers: [Layer(id: "a")],
                animations: [animation]))
        // 2e300 half cycles, an even number: back at the start once over (never, in time
        // a Double can hold, so the value is mid-cycle; what matters is that it evaluates).
        #expect(abs(timeline.properties(of: "a", at: 0.5)!.opacity - 0.5) < 1e-12)
        #expect(
            PropertyTrack.Entry(
                begin: 0, duration: 1, timing: .curve(.linear), repeatCount: 1e300,
                autoreverses: true,
                removedOnCompletion: false, fillsBackwards: false, discrete: false,
                change: .to(from: 0.25, to: 0.75), start: 0.25
            ).finalValue == 0.25)
    }

    /// Lottie gradient stops by the rule (colour stops lerped at every offset, opacity
    /// stops merged in), against a plain per-offset scan; unsorted offsets included.
    /// 100,000 colour and 100,000 opacity stops resolve in well under the 20 s the scan took.
    @Test func gradientStopsResolveInLogTime() {
        func lerp(_ offsets: [Double], _ values: [Double], _ x: Double) -> Double {
            if x <= offsets[0] { return values[0] }
            for j in 1..<offsets.count where x <= offsets[j] {
                let span = offsets[j] - offsets[j - 1]
                return values[j - 1] + (values[j] - values[j - 1])
                    * (span > 0 ? (x - offsets[j - 1]) / span : 1)
            }
            return values[values.count - 1]
        }
        let colorStops: [[Double]] = [
            [0, 1, 0, 0], [0.6, 0, 1, 0], [0.3, 0, 0, 1], [0.6, 1, 1, 1], [1, 0, 0, 0],
        ]
        let alphaStops: [[Double]] = [[0, 1], [0.45, 0.2], [0.3, 0.7], [1, 0.5]]
        let (colors, offsets) = VectorGradientStops.resolve(
            colorStops.flatMap { $0 } + alphaStops.flatMap { $0 },
            colorStops: colorStops.count)
        #expect(offsets == [0, 0.3, 0.45, 0.6, 0.6, 1])
        for (color, x) in zip(colors, offsets) {
            let channel = { (k: Int) in lerp(colorStops.map { $0[0] }, colorStops.map { $0[k] }, x)
            }
            let want = Color(
                red: channel(1), green: channel(2), blue: channel(3),
                alpha: lerp(alphaStops.map { $0[0] }, alphaStops.map { $0[1] }, x))
            #expect(color == want, "offset \(x)")
        }
        let n = 100_000
        var raw: [Double] = []
        for i in 0..<n { raw += [Double(i) / Double(n), Double(i % 3) / 3, 0.5, 1] }
        for i in 0..<n { raw += [(Double(i) + 0.5) / Double(n), Double(i % 2)] }
        let clock = ContinuousClock()
        let start = clock.now
        let (many, manyOffsets) = VectorGradientStops.resolve(raw, colorStops: n)
        #expect(clock.now - start < .seconds(30), "a hang guard, not a speed measurement")
        #expect(many.count == 2 * n && manyOffsets.count == 2 * n)
    }
}
