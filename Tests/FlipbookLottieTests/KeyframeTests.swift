import Foundation
import Testing
import FlipbookGeometry
import FlipbookScene
import FlipbookTimeline

/// Keyframe evaluation, table-driven, with values worked out by hand.
@Suite struct KeyframeTests {
    static let linear = [Keyframe(time: 0, value: [0, 10]), Keyframe(time: 2, value: [100, 30])]

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var keyframes: [Keyframe]
        var seconds: Double
        var expected: [Double]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "before the first keyframe holds it", keyframes: linear, seconds: -1,
            expected: [0, 10]),
        Case(
            name: "after the last keyframe holds it", keyframes: linear, seconds: 5,
            expected: [100, 30]),
        Case(name: "linear midpoint", keyframes: linear, seconds: 1, expected: [50, 20]),
        Case(
            name: "hold keeps the start value to the next keyframe",
            keyframes: [Keyframe(time: 0, value: [1], hold: true), Keyframe(time: 1, value: [9])],
            seconds: 0.999, expected: [1]),
        Case(
            name: "hold switches exactly at the next keyframe",
            keyframes: [Keyframe(time: 0, value: [1], hold: true), Keyframe(time: 1, value: [9])],
            seconds: 1, expected: [9]),
        // ease (0.42, 0, 1, 1) at x = 0.5: solve x(s) = 0.5 → s ≈ 0.6003, y(s) = s³ ≈ 0.2163... the
        // curve's y(s) = 3(1−s)s²·0 + s³ with y1 = 0, y2 = 1: y = 3(1−s)s² + s³.
        Case(
            name: "per-dimension easing: x linear, y ease-in",
            keyframes: [
                Keyframe(time: 0, value: [0, 0], easing: [.linear, TimingCurve(0.42, 0, 1, 1)]),
                Keyframe(time: 1, value: [1, 1]),
            ],
            seconds: 0.5, expected: [0.5, TimingCurve(0.42, 0, 1, 1).progress(at: 0.5)]),
        // A straight "curve" (tangents along the chord) walked by arc length: the midpoint.
        Case(
            name: "spatial tangents on a straight line move at the easing's speed",
            keyframes: [
                Keyframe(time: 0, value: [0, 0], outTangent: [10, 0], inTangent: [-10, 0]),
                Keyframe(time: 1, value: [30, 0]),
            ],
            seconds: 0.5, expected: [15, 0]),
    ]

    @Test(arguments: cases)
    func evaluates(_ c: Case) {
        let value = AnimatedValue.keyframes(c.keyframes).value(at: c.seconds)
        #expect(value.count == c.expected.count)
        for (a, b) in zip(value, c.expected) {
            #expect(abs(a - b) < 1e-6, "\(c.name): \(value) vs \(c.expected)")
        }
    }

    /// A quarter circle as a cubic (handles 0.5523·r): the point at half the arc length is
    /// at 45°, (r cos 45°, r sin 45°), within the cubic's 0.03 % radial error.
    @Test func spatialBezierFollowsTheArcByLength() {
        let r = 100.0, k = 0.5523 * r
        let frames = [
            Keyframe(time: 0, value: [r, 0], outTangent: [0, k], inTangent: [k, 0]),
            Keyframe(time: 1, value: [0, r]),
        ]
        let (v, heading) = AnimatedValue.keyframes(frames).valueAndHeading(at: 0.5)
        #expect(
            abs(v[0] - r * 0.5.squareRoot()) < 0.1 && abs(v[1] - r * 0.5.squareRoot()) < 0.1, "\(v)"
        )
        // Travelling from (r, 0) toward (0, r): at 45° the direction is 135°.
        #expect(abs((heading ?? 0) - 135) < 0.5, "\(String(describing: heading))")
    }

    @Test func keyframedTransformAppliesAnchorScaleRotationPosition() {
        let t = KeyframedTransform(
            anchor: .constant([10, 0]), position: .constant([100, 50]),
            scale: .constant([2, 2]), rotation: .constant([90]))
        // (20, 0): minus anchor (10, 0), ×2 → (20, 0), rotated 90° clockwise → (0, 20), + (100, 50).
        let p = t.matrix(at: 0).apply(Point(20, 0))
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 70) < 1e-9, "\(p)")
    }

    /// Skew 45° along the x axis (axis 0): lottie-web's skewFromAxis(−sk, sa) shears x by
    /// −tan(sk)·y, so (0, 10) goes to (−10, 10).
    @Test func skewShearsAlongItsAxis() {
        let t = KeyframedTransform(skew: .constant([45]), skewAxis: .constant([0]))
        let p = t.matrix(at: 0).apply(Point(0, 10))
        #expect(abs(p.x + 10) < 1e-9 && abs(p.y - 10) < 1e-9, "\(p)")
    }

    @Test func gradientStopsMergeColorAndOpacityStops() {
        // Two colour stops (black at 0, white at 1), opacity stops 1 at 0 and 0 at 0.5.
        let (colors, locations) = VectorGradientStops.resolve(
            [0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0.5, 0], colorStops: 2)
        #expect(locations == [0, 0.5, 1])
        #expect(colors[1].red == 0.5 && colors[1].alpha == 0)
        #expect(colors[2].alpha == 0 && colors[0].alpha == 1)
    }
}
