import Foundation
import Testing
@testable import FlipbookLottie
import FlipbookScene
import FlipbookTimeline

/// The timeline evaluates a shape layer's artwork once when none of its values is keyframed
/// (issue 24's speed work). What a frame holds must stay what evaluating the artwork at
/// that frame's time gives (``VectorShape/evaluate(at:)``, the definition), for static
/// artwork and for artwork with one keyframed value anywhere in it.
@Suite struct LottieStaticArtworkTests {
    static let ellipse = #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}}"#
    static let growing =
        #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 1, "k": [{"t": 0, "s": [10, 10], "#
        + #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [40, 40]}]}}"#
    static let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
    static let fading =
        #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 1, "k": [{"t": 0, "s": [100], "#
        + #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [20]}]}}"#
    static let turning =
        #"{"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "#
        + #""r": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, "#
        + #"{"t": 10, "s": [90]}]}, "o": {"a": 0, "k": 100}}"#

    /// One shape layer per entry, named by it, moving along x so that every layer shows.
    static func scene(_ shapes: [(String, String)]) throws -> Scene {
        let layers = shapes.enumerated().map { i, entry in
            """
            {"ty": 4, "nm": "\(entry.0)", "ind": \(i + 1), "ip": 0, "op": 10, "st": 0,
             "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [10, 50], "o": {"x": [0], "y": [0]},
                                         "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [90, 50]}]}},
             "shapes": [\(entry.1)]}
            """
        }
        let json = """
            {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
             "layers": [\(layers.joined(separator: ","))]}
            """
        return try LottieLoader.parse(Data(json.utf8), path: nil, options: SceneLoader.Options())
    }

    static func find(_ id: String, in layers: [Layer]) -> Layer? {
        for l in layers {
            if l.id == id { return l }
            if let found = find(id, in: l.sublayers) { return found }
        }
        return nil
    }

    static func find(_ id: String, in layers: [RenderLayer]) -> RenderLayer? {
        for l in layers {
            if l.id == id { return l }
            if let found = find(id, in: l.sublayers) { return found }
        }
        return nil
    }

    @Test func framesHoldTheArtworkEvaluatedAtTheirTime() throws {
        let cases = [
            ("Static", Self.ellipse + ", " + Self.fill),
            ("StaticGroup", #"{"ty": "gr", "it": [\#(Self.ellipse), \#(Self.fill)]}"#),
            ("Growing", Self.growing + ", " + Self.fill),
            ("Fading", Self.ellipse + ", " + Self.fading),
            (
                "TurningGroup",
                #"{"ty": "gr", "it": [\#(Self.ellipse), \#(Self.fill), \#(Self.turning)]}"#
            ),
        ]
        let scene = try Self.scene(cases)
        let timeline = Timeline(scene: scene)
        for (name, _) in cases {
            let model = try #require(Self.find(name, in: scene.layers))
            guard case .vector(let shape) = model.content else {
                Issue.record("\(name) has no vector artwork")
                continue
            }
            var seen: [[VectorNode]] = []
            for seconds in [0.0, 0.25, 0.5, 0.95] {
                let frame = timeline.frame(at: seconds)
                let layer = try #require(Self.find(name, in: frame.layers), "\(name) at \(seconds)")
                let vector = try #require(layer.vector)
                #expect(vector == shape.evaluate(at: seconds), "\(name) at \(seconds)")
                seen.append(vector)
            }
            // The animated cases do change (so the check above can tell a frozen artwork).
            let changes = seen.dropFirst().contains { $0 != seen[0] }
            #expect(changes == !name.hasPrefix("Static"), "\(name)")
        }
    }
}
