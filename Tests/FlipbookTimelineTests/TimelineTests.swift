import Testing
import FlipbookGeometry
import FlipbookScene
@testable import FlipbookTimeline

/// The animation rules at their boundary times, one table row per (scene, time, value).
/// Expected values come from the rules stated in the format brief, worked by hand.
@Suite struct TimelineTests {
    static func scene(_ animations: [Animation], layers: [Layer]? = nil) -> Scene {
        var box = LayerProperties()
        box.bounds = Rect(0, 0, 10, 10)
        let defaultLayers = [Layer(id: "box", properties: box)]
        return Scene(
            canvas: Canvas(size: Size(100, 100)), layers: layers ?? defaultLayers,
            animations: animations)
    }

    static func opacity(_ change: AnimationChange) -> AnimationTarget {
        AnimationTarget(layer: "box", keyPath: "opacity", change: change)
    }

    static let linearTo0 = Animation(
        begin: 1, duration: 2, timing: .curve(.linear),
        targets: [opacity(.to(from: nil, to: [0]))])

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var animations: [Animation]
        var samples: [(Double, Double)]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "before, during, after a linear animation", animations: [linearTo0],
            samples: [(0, 1), (1, 1), (1.5, 0.75), (2, 0.5), (3, 0), (10, 0)]),
        Row(
            name: "removedOnCompletion restores the model value",
            animations: [
                Animation(
                    begin: 1, duration: 2, timing: .curve(.linear), removedOnCompletion: true,
                    targets: [opacity(.to(from: nil, to: [0]))])
            ],
            samples: [(2, 0.5), (2.999, 0.0005), (3, 1), (5, 1)]),
        Row(
            name: "fillMode backwards shows `from` before the begin time",
            animations: [
                Animation(
                    begin: 1, duration: 1, timing: .curve(.linear), fillMode: .backwards,
                    targets: [opacity(.to(from: [0.2], to: [0.6]))])
            ],
            samples: [(0, 0.2), (1, 0.2), (1.5, 0.4), (2, 0.6)]),
        Row(
            name: "without backwards fill `from` waits for the begin time",
            animations: [
                Animation(
                    begin: 1, duration: 1, timing: .curve(.linear),
                    targets: [opacity(.to(from: [0.2], to: [0.6]))])
            ],
            samples: [(0.99, 1), (1, 0.2)]),
        Row(
            name: "a later animation starts from the on-screen value and wins",
            animations: [
                linearTo0,
                Animation(
                    begin: 2, duration: 1, timing: .curve(.linear),
                    targets: [opacity(.to(from: nil, to: [1]))]),
            ],
            samples: [(1.5, 0.75), (2, 0.5), (2.5, 0.75), (3, 1), (4, 1)]),
        Row(
            name: "repeat 2 with autoreverse ends on the start value",
            animations: [
                Animation(
                    begin: 0, duration: 1, timing: .curve(.linear), repeatCount: 2,
                    autoreverses: true, targets: [opacity(.to(from: nil, to: [0]))])
            ],
            samples: [
                (0.5, 0.5), (1, 0), (1.5, 0.5), (2, 1), (2.25, 0.75), (3.5, 0.5), (4, 1), (9, 1),
            ]),
        Row(
            name: "fractional repeat stops mid-cycle",
            animations: [
                Animation(
                    begin: 0, duration: 1, timing: .curve(.linear), repeatCount: 1.5,
                    targets: [opacity(.to(from: [0], to: [1]))])
            ],
            samples: [(0.5, 0.5), (1.25, 0.25), (1.5, 0.5), (3, 0.5)]),
        Row(
            name: "infinite repeat keeps cycling",
            animations: [
                Animation(
                    begin: 0, duration: 1, timing: .curve(.linear), repeatCount: .infinity,
                    targets: [opacity(.to(from: [0], to: [1]))])
            ],
            samples: [(0.25, 0.25), (100.25, 0.25), (1000.75, 0.75)]),
        Row(
            name: "keyframes with per-segment curves",
            animations: [
                Animation(
                    begin: 0, duration: 1.2, timing: .curve(.linear),
                    targets: [
                        opacity(
                            .keyframes(
                                values: [[0], [0.8], [1]], keyTimes: [0, 0.6, 1],
                                curves: [.linear, .linear]))
                    ])
            ],
            samples: [(0, 0), (0.36, 0.4), (0.72, 0.8), (0.96, 0.9), (1.2, 1), (5, 1)]),
        Row(
            name: "easeIn at half time is the curve's value",
            animations: [
                Animation(
                    begin: 0, duration: 2, timing: .curve(.easeIn),
                    targets: [opacity(.to(from: [0], to: [1]))])
            ],
            samples: [(1, TimingCurve.easeIn.progress(at: 0.5))]),
        Row(
            name: "zero duration jumps at the begin time",
            animations: [
                Animation(begin: 1, duration: 0, targets: [opacity(.to(from: nil, to: [0.3]))])
            ],
            samples: [(0.999, 1), (1, 0.3), (2, 0.3)]),
    ]

    @Test(arguments: rows)
    func opacityOverTime(_ row: Row) throws {
        let timeline = Timeline(scene: Self.scene(row.animations))
        for (t, expected) in row.samples {
            let got = try #require(timeline.properties(of: "box", at: t)).opacity
            #expect(abs(got - expected) < 1e-9, "t = \(t): got \(got), expected \(expected)")
        }
    }

    @Test func springOvershootsThenSettlesOnTarget() throws {
        let spring = Spring.uiKit(duration: 1, dampingRatio: 0.3, initialVelocity: 0)
        let move = Animation(
            begin: 0, duration: 1, timing: .spring(spring),
            targets: [
                AnimationTarget(
                    layer: "box", keyPath: "position.y", change: .to(from: [0], to: [100]))
            ])
        let timeline = Timeline(scene: Self.scene([move]))
        let ys = stride(from: 0.0, through: 1.0, by: 0.01).map {
            timeline.properties(of: "box", at: $0)!.position.y
        }
        #expect(ys.max()! > 100)
        #expect(
            abs(
                timeline.properties(of: "box", at: 0.5)!.position.y - 100 * spring.progress(at: 0.5)
            ) < 1e-9)
        #expect(timeline.properties(of: "box", at: 1)!.position.y == 100)
    }

    @Test func colorsInterpolatePerChannelUnpremultiplied() throws {
        let fade = Animation(
            begin: 0, duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(
                    layer: "box", keyPath: "backgroundColor",
                    change: .to(from: [1, 1, 1, 1], to: [1, 1, 1, 0]))
            ])
        let c = Timeline(scene: Self.scene([fade])).properties(of: "box", at: 0.5)!.backgroundColor
        #expect(c == Color(red: 1, green: 1, blue: 1, alpha: 0.5))
    }

    @Test func scaleBroadcastsToBothAxesAndFrameSetsPositionAndSize() throws {
        let grow = Animation(
            begin: 0, duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(
                    layer: "box", keyPath: "transform.scale", change: .to(from: [0], to: [1])),
                AnimationTarget(
                    layer: "box", keyPath: "frame", change: .to(from: nil, to: [20, 40, 30, 10])),
            ])
        let p = Timeline(scene: Self.scene([grow])).properties(of: "box", at: 1)!
        #expect(p.transform.scale == Point(1, 1))
        #expect(p.position == Point(35, 45))
        #expect(p.bounds == Rect(0, 0, 30, 10))
        let half = Timeline(scene: Self.scene([grow])).properties(of: "box", at: 0.5)!
        #expect(half.transform.scale == Point(0.5, 0.5))
        #expect(half.position == Point(17.5, 22.5))
    }

    @Test func hiddenSwitchesAtTheBeginTimeAndDropsTheLayer() throws {
        let hide = Animation(
            begin: 0.5, duration: 1,
            targets: [
                AnimationTarget(layer: "box", keyPath: "hidden", change: .to(from: nil, to: [1]))
            ])
        let timeline = Timeline(scene: Self.scene([hide]))
        #expect(timeline.frame(at: 0.49).layers.count == 1)
        #expect(timeline.frame(at: 0.5).layers.isEmpty)
    }

    @Test func followMapTracksItsSourceClampedAtBothEnds() throws {
        var pager = LayerProperties()
        pager.bounds = Rect(0, 0, 375, 667)
        let follower = Layer(
            id: "girl",
            follows: [
                FollowBinding(
                    component: "transform.translation.x", sourceLayer: "pager",
                    sourceComponent: "bounds.x", map: [Point(0, 0), Point(375, 475)])
            ])
        let scroll = Animation(
            begin: 0, duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(
                    layer: "pager", keyPath: "bounds.origin.x", change: .to(from: [-100], to: [500])
                )
            ])
        let timeline = Timeline(
            scene: Self.scene(
                [scroll], layers: [Layer(id: "pager", properties: pager, sublayers: [follower])]))
        let rows: [(Double, Double)] = [(0, 0), (1.0 / 6, 0), (0.5, 200 * 475 / 375), (1, 475)]
        for (t, x) in rows {
            #expect(
                abs(timeline.properties(of: "girl", at: t)!.transform.translation.x - x) < 1e-9,
                "t = \(t)")
        }
    }

    @Test func replicatorInstancesSeeDelayedTimeAndAccumulatedTransforms() throws {
        var rep = LayerProperties()
        rep.bounds = Rect(0, 0, 40, 40)
        rep.instanceTransform = LayerTransform(translation: Point(10, 0))
        rep.instanceAlphaOffset = -0.25
        var tile = LayerProperties()
        tile.bounds = Rect(0, 0, 10, 10)
        let fade = Animation(
            begin: 0, duration: 1, timing: .curve(.linear),
            targets: [
                AnimationTarget(layer: "tile", keyPath: "opacity", change: .to(from: [1], to: [0]))
            ])
        let scene = Self.scene(
            [fade],
            layers: [
                Layer(
                    id: "rep", properties: rep,
                    replicator: Replicator(instanceCount: 4, instanceDelay: 0.25),
                    sublayers: [Layer(id: "tile", properties: tile)])
            ])
        let frame = Timeline(scene: scene).frame(at: 0.5)
        let instances = frame.layers[0].sublayers
        // Instance k sees t = 0.5 − 0.25k: opacity 0.5, 0.75, 1, 1; its container's alpha is 1 − 0.25k.
        #expect(instances.count == 4)
        #expect(instances.map { $0.sublayers[0].properties.opacity } == [0.5, 0.75, 1, 1])
        #expect(instances.map { $0.properties.opacity } == [1, 0.75, 0.5, 0.25])
        #expect(instances.map { $0.transformMatrix.tx } == [0, 10, 20, 30])
        #expect(instances[2].properties.position == Point(20, 20))
    }
}
