import Foundation
import Testing
import Flipbook
import FlipbookLottie
import FlipbookRaster
import FlipbookRender
import FlipbookScene

/// Absurd numbers from a Lottie file (positions of 1e20, scales of ±1e308, shadows of
/// softness 1e5, NaN made by inf − inf on the way): every frame renders, with and
/// without reuse between frames, without trapping and within the surface's memory.
@Suite struct HostileNumberRenderTests {
    static func value(_ v: Any) -> [String: Any] { ["a": 0, "k": v] }

    static func animated(_ from: Any, _ to: Any) -> [String: Any] {
        [
            "a": 1,
            "k": [
                ["t": 0, "s": from, "o": ["x": [0], "y": [0]], "i": ["x": [1], "y": [1]]],
                ["t": 10, "s": to],
            ],
        ]
    }

    static func transform() -> [String: Any] {
        [
            "ty": "tr", "a": value([0, 0]), "p": value([0, 0]), "s": value([100, 100]),
            "r": value(0), "o": value(100),
        ]
    }

    static func rect(_ size: Double = 40) -> [String: Any] {
        ["ty": "rc", "d": 1, "p": value([50, 50]), "s": value([size, size]), "r": value(0)]
    }

    static var fill: [String: Any] {
        ["ty": "fl", "c": value([0.2, 0.3, 0.9, 1]), "o": value(100), "r": 1]
    }

    /// A shape layer holding `items` (a transform is appended) with `ks` overrides.
    static func layer(
        _ ind: Int, _ items: [[String: Any]], ks overrides: [String: Any] = [:],
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var ks: [String: Any] = [
            "a": value([0, 0, 0]), "p": value([0, 0, 0]), "s": value([100, 100, 100]),
            "r": value(0), "o": value(100),
        ]
        ks.merge(overrides) { $1 }
        var l: [String: Any] = [
            "ty": 4, "ind": ind, "ip": 0, "op": 10, "st": 0, "sr": 1, "ks": ks,
            "shapes": [["ty": "gr", "it": items + [transform()]]],
        ]
        l.merge(extra) { $1 }
        return l
    }

    static func dropShadow(softness: Double, distance: Double) -> [[String: Any]] {
        [
            [
                "ty": 25, "en": 1,
                "ef": [
                    ["ty": 2, "v": value([0, 0, 0, 1])], ["ty": 0, "v": value(128)],
                    ["ty": 0, "v": value(135)], ["ty": 0, "v": value(distance)],
                    ["ty": 0, "v": value(softness)],
                ],
            ]
        ]
    }

    static var backdrop: [String: Any] {
        layer(
            99,
            [rect(100), ["ty": "fl", "c": value([0.85, 0.85, 0.85, 1]), "o": value(100), "r": 1]])
    }

    static func scene(_ layers: [[String: Any]], assets: [[String: Any]] = []) throws -> Scene {
        let doc: [String: Any] = [
            "v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
            "assets": assets, "layers": layers + [backdrop],
        ]
        return try LottieLoader.parse(try JSONSerialization.data(withJSONObject: doc), path: nil)
    }

    /// Every frame with reuse between frames (the damage code compares device boxes),
    /// then every frame alone.
    static func renderAll(_ scene: Scene) throws -> [Pixmap] {
        var renderer = try SceneRenderer(scene: scene)
        renderer.frameReuse = FrameReuse()
        let reused = (0..<renderer.frameCount).map { renderer.renderFrame($0) }
        renderer.frameReuse = nil
        for (i, frame) in reused.enumerated() {
            let same = renderer.renderFrame(i).data == frame.data
            #expect(same, "frame \(i): reuse changed the bytes")
        }
        return reused
    }

    /// The box of a layer moving to 1e20 (the reported `render` crash, exit 132, in the
    /// damage code): once far away it draws nothing, so the last frame is the backdrop.
    @Test(arguments: [1e20, 1e308, -1e308])
    func layerMovingFarAway(_ far: Double) throws {
        let frames = try Self.renderAll(
            try Self.scene([
                Self.layer(
                    1, [Self.rect(), Self.fill],
                    ks: ["p": Self.animated([0, 0, 0], [far, far, 0])])
            ]))
        let backdrop = try Self.renderAll(try Self.scene([]))
        let same = frames.last?.data == backdrop.last?.data
        #expect(same)
    }

    /// Scales, anchors, rotations and parents at the Double limits: their products are
    /// infinite and their differences NaN; nothing traps.
    @Test(arguments: ["s", "a", "r", "parent", "repeater", "star", "stroke"])
    func transformsAtTheLimits(_ field: String) throws {
        for v in [1e20, 1e308, -1e308] {
            var items = [Self.rect(), Self.fill]
            var ks: [String: Any] = [:]
            var others: [[String: Any]] = []
            var extra: [String: Any] = [:]
            switch field {
            case "s": ks["s"] = Self.animated([100, 100, 100], [v, v, 100])
            case "a": ks["a"] = Self.animated([0, 0, 0], [v, -v, 0])
            case "r": ks["r"] = Self.animated(0, v)
            case "parent":
                extra["parent"] = 7
                ks["p"] = Self.animated([0, 0, 0], [v, -v, 0])
                others = [
                    [
                        "ty": 3, "ind": 7, "ip": 0, "op": 10, "st": 0, "sr": 1,
                        "ks": [
                            "a": Self.value([0, 0, 0]), "p": Self.value([0, 0, 0]),
                            "r": Self.value(45),
                            "s": Self.animated([100, 100, 100], [v, v, 100]), "o": Self.value(100),
                        ],
                    ]
                ]
            case "repeater":
                items.append([
                    "ty": "rp", "c": Self.value(3), "o": Self.value(v), "m": 1,
                    "tr": [
                        "ty": "tr", "a": Self.value([0, 0]), "p": Self.value([10, 0]),
                        "s": Self.value([100, 100]), "r": Self.value(0), "so": Self.value(100),
                        "eo": Self.value(50),
                    ],
                ])
            case "star":
                items = [
                    [
                        "ty": "sr", "sy": 1, "p": Self.value([50, 50]), "pt": Self.value(5),
                        "r": Self.value(v),
                        "or": Self.value(v), "ir": Self.value(v), "os": Self.value(v),
                        "is": Self.value(v),
                    ], Self.fill,
                ]
            default:
                items.append([
                    "ty": "st", "c": Self.value([0, 0, 0, 1]), "o": Self.value(100),
                    "w": Self.value(v),
                    "lc": 2, "lj": 1, "ml": 4,
                    "d": [
                        ["n": "d", "v": Self.value(v)], ["n": "g", "v": Self.value(v)],
                        ["n": "o", "v": Self.value(v)],
                    ],
                ])
            }
            let frames = try Self.renderAll(
                try Self.scene([Self.layer(1, items, ks: ks, extra: extra)] + others))
            #expect(frames.count == 10, "\(field) = \(v)")
        }
    }

    /// A drop shadow's softness of 1e4…1e308 spreads the shadow below a quarter level
    /// everywhere: exactly the pixels without it (it took 3.5 GB and 40 s, or aborted
    /// allocating 360 GB, or trapped). A distance of 1e308 puts it off the surface.
    @Test(arguments: [(1e4, 10.0), (3e4, 10), (1e5, 10), (1e308, 10), (0, 1e308), (1e308, -1e308)])
    func absurdDropShadowsAreInvisible(_ softness: Double, _ distance: Double) throws {
        let shadowed = try Self.renderAll(
            try Self.scene([
                Self.layer(
                    1, [Self.rect(), Self.fill],
                    extra: ["ef": Self.dropShadow(softness: softness, distance: distance)])
            ]))
        let plain = try Self.renderAll(try Self.scene([Self.layer(1, [Self.rect(), Self.fill])]))
        let same = shadowed.map(\.data) == plain.map(\.data)
        #expect(same)
    }

    /// Inside a precomposition (a clip): the offscreen is cut to the clip grown by the
    /// shadow's reach, which used to be converted to Int unchecked.
    @Test(arguments: [1e20, 1e308])
    func absurdShadowAndBlurInsideAClip(_ v: Double) throws {
        let inner = Self.layer(
            1, [Self.rect(), Self.fill], ks: ["s": Self.animated([100, 100, 100], [v, v, 100])],
            extra: [
                "ef": Self.dropShadow(softness: v, distance: v)
                    + [
                        [
                            "ty": 29, "en": 1,
                            "ef": [
                                ["ty": 0, "v": Self.value(v)], ["ty": 7, "v": Self.value(1)],
                                ["ty": 7, "v": Self.value(0)],
                            ],
                        ]
                    ]
            ])
        let precomp: [String: Any] = [
            "ty": 0, "ind": 1, "refId": "c", "w": 60, "h": 60, "ip": 0, "op": 10, "st": 0, "sr": 1,
            "ks": [
                "a": Self.value([0, 0, 0]), "p": Self.animated([0, 0, 0], [v, v, 0]),
                "s": Self.value([100, 100, 100]), "r": Self.value(0), "o": Self.value(100),
            ],
        ]
        let frames = try Self.renderAll(
            try Self.scene([precomp], assets: [["id": "c", "layers": [inner]]]))
        #expect(frames.count == 10)
    }
}
