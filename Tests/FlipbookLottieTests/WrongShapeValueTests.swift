import Foundation
import Testing
import Flipbook
import FlipbookLottie
import FlipbookScene

/// A value of the wrong shape (issue 24 §1): drawn with the property's default where it has
/// one (the value an absent key gets), its item left out where it has none, one warning
/// each; a limit stays an error. The files ThorVG draws so are PlayableFileTests'; these
/// pin the rule where the reader applies it.
@Suite struct WrongShapeValueTests {
    /// A 100×100 composition: one shape layer `L` with the given transform, holding a
    /// 40×40 rect at the centre and then `paint`.
    static func file(ks: String = "{}", paint: String = Self.redFill) -> String {
        """
        {"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "L", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": \(ks),
           "shapes": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]},
                       "r": {"a": 0, "k": 0}}, \(paint)]}]}
        """
    }

    static let redFill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#

    static func load(_ json: String) throws -> Scene {
        try LottieLoader.parse(Data(json.utf8), path: nil)
    }

    /// The centre pixel's alpha of frame 0.
    static func centreAlpha(_ scene: Scene) throws -> UInt8 {
        let frame = try SceneRenderer(scene: scene, scale: 1).renderFrame(0)
        return frame.data[(50 * frame.width + 50) * 4 + 3]
    }

    /// Keyframes without a time (`t`), a string, an object: each drawn with the default
    /// opacity (100 %), the layer opaque, and the warning names the path and the default.
    @Test(arguments: [
        (#"{"a": 1, "k": [{"t": 0, "s": [0]}, {"s": [100]}]}"#, "ks.o.k[1].t"),
        (#"{"a": 0, "k": "half"}"#, "ks.o.k"),
        (#"{"a": 0, "k": {"value": 50}}"#, "ks.o.k"),
    ])
    func opacityFallsBackToItsDefault(_ opacity: String, _ path: String) throws {
        let scene = try Self.load(Self.file(ks: #"{"o": \#(opacity)}"#))
        #expect(scene.warnings.count == 1, "\(scene.warnings)")
        let message = scene.warnings.first?.message ?? ""
        #expect(message.contains("`layers[0].\(path)`"), "\(message)")
        #expect(message.contains("(drawn with the default, 100)"), "\(message)")
        #expect(try Self.centreAlpha(scene) == 255)
    }

    /// A wrong-shaped value with a default is what an absent key gives: the same frame.
    @Test func aWrongShapeDrawsAsTheAbsentKey() throws {
        let broken = try Self.load(Self.file(ks: #"{"s": {"a": 0, "k": "big"}, "r": [true]}"#))
        let absent = try Self.load(Self.file())
        #expect(broken.warnings.count == 2, "\(broken.warnings)")
        let a = try SceneRenderer(scene: broken, scale: 1).renderFrame(0)
        let b = try SceneRenderer(scene: absent, scale: 1).renderFrame(0)
        #expect(a.data == b.data)
    }

    /// Gradient stops have no default: the gradient fill is left out (nothing drawn), with
    /// a warning that says so.
    @Test func aValueWithoutADefaultLeavesItsItemOut() throws {
        let gradient = #"""
            {"ty": "gf", "o": {"a": 0, "k": 100}, "r": 1, "t": 1,
             "s": {"a": 0, "k": [30, 50]}, "e": {"a": 0, "k": [70, 50]},
             "g": {"p": 2, "k": {"a": 0, "k": "red to blue"}}}
            """#
        let scene = try Self.load(Self.file(paint: gradient))
        #expect(scene.warnings.count == 1, "\(scene.warnings)")
        #expect(scene.warnings.first?.message.contains("(left out)") == true)
        #expect(try Self.centreAlpha(scene) == 0)
    }

    /// A text layer whose document has no keyframes, or whose text is a number, draws no
    /// text and the rest of the file (ThorVG and rlottie draw the rest so).
    @Test(arguments: [
        (#"{"k": []}"#, "layers[1].t.d"),
        (
            #"{"k": [{"t": 0, "s": {"s": 20, "f": "Arial", "t": 5, "j": 0, "fc": [0, 0, 0]}}]}"#,
            "layers[1].t.d.k[0].s.t"
        ),
    ])
    func aTextLayerWithoutTextIsLeftOut(_ document: String, _ path: String) throws {
        let json = """
            {"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
              {"ty": 4, "nm": "L", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {},
               "shapes": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]},
                           "r": {"a": 0, "k": 0}}, \(Self.redFill)]},
              {"ty": 5, "nm": "T", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {},
               "t": {"d": \(document), "p": {}, "m": {"g": 1, "a": {"a": 0, "k": [0, 0]}}, "a": []}}]}
            """
        let scene = try Self.load(json)
        #expect(scene.warnings.count == 1, "\(scene.warnings)")
        #expect(scene.warnings.first?.message.contains("`\(path)`") == true, "\(scene.warnings)")
        #expect(try Self.centreAlpha(scene) == 255)
    }

    /// `--strict` refuses such a file, naming the value.
    @Test func strictRefusesAWrongShape() throws {
        let path = NSTemporaryDirectory() + "wrong-shape-\(UUID().uuidString).json"
        try Self.file(ks: #"{"o": {"a": 0, "k": "half"}}"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SceneError.self) {
            try SceneFile.load(path: path, options: SceneLoader.Options(strict: true))
        }
        #expect(try SceneFile.load(path: path).warnings.count == 1)
    }

    /// A limit is not a wrong shape: keyframes past `maxKeyframes` still refuse the file,
    /// even in a property with a default.
    @Test func aLimitStaysAnError() throws {
        let frames = (0..<5).map { #"{"t": \#($0), "s": [100]}"# }.joined(separator: ", ")
        let json = Self.file(ks: #"{"o": {"a": 1, "k": [\#(frames)]}}"#)
        var limits = ResourceLimits()
        limits.maxKeyframes = 3
        #expect(throws: SceneError.self) {
            try LottieLoader.parse(Data(json.utf8), path: nil, options: .init(limits: limits))
        }
    }
}
