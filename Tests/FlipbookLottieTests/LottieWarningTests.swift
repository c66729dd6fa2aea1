import Foundation
import Testing
import Flipbook
import FlipbookLottie

/// Implemented features stop warning; what is still drawn without keeps its warning.
@Suite struct LottieWarningTests {
    @Test(arguments: [
        "zigzag.json", "zigzag_closed.json", "offset_path.json", "offset_path_joins.json",
        "text_animator_range.json", "text_animator_shapes.json", "text_animator_ease.json",
        "text_on_path.json", "style_drop_shadow.json", "drop_shadow_softness_10.json",
    ])
    func implementedFeaturesDoNotWarn(_ file: String) throws {
        let scene = try SceneFile.load(path: LottieSupport.fixtures + "/" + file)
        #expect(scene.warnings.isEmpty, "\(scene.warnings)")
    }

    @Test func twistAndAnimatorsOnFontTextStillWarn() throws {
        let json = """
            {"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
              {"ty": 4, "nm": "Twisted", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {},
               "shapes": [{"ty": "el", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}},
                          {"ty": "tw", "a": {"a": 0, "k": 45}, "c": {"a": 0, "k": [50, 50]}},
                          {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]},
              {"ty": 5, "nm": "Words", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {},
               "t": {"d": {"k": [{"t": 0, "s": {"s": 20, "f": "DejaVuSans", "t": "Hi", "j": 0, "fc": [0, 0, 0]}}]},
                     "p": {}, "m": {"g": 1, "a": {"a": 0, "k": [0, 0]}},
                     "a": [{"s": {"t": 0, "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "r": 1,
                                  "b": 1, "sh": 1, "a": {"a": 0, "k": 100}},
                            "a": {"o": {"a": 0, "k": 0}}}]}}]}
            """
        let scene = try LottieLoader.parse(Data(json.utf8), path: nil)
        #expect(
            scene.warnings.contains {
                $0.message.contains("Twisted") && $0.message.contains("twist")
            }, "\(scene.warnings)")
        #expect(
            scene.warnings.contains {
                $0.message.contains("Words") && $0.message.contains("text animators")
            }, "\(scene.warnings)")
        #expect(scene.warnings.count == 2, "\(scene.warnings)")
    }

    /// Drop-shadow styles are drawn; every other layer style (here inner shadow and outer
    /// glow, as lottie-ios and ThorVG leave them out too) gets one warning naming it.
    @Test func layerStylesOtherThanDropShadowWarn() throws {
        func style(_ ty: Int, _ name: String) -> String {
            """
            {"ty": \(ty), "nm": "\(name)", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 75},
             "a": {"a": 0, "k": 120}, "s": {"a": 0, "k": 5}, "d": {"a": 0, "k": 5}, "ch": {"a": 0, "k": 0}}
            """
        }
        let json = """
            {"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
              {"ty": 4, "nm": "Styled", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {},
               "sy": [\(style(1, "Drop Shadow")), \(style(2, "Inner Shadow")), \(style(3, "Outer Glow"))],
               "shapes": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
                          {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """
        let scene = try LottieLoader.parse(Data(json.utf8), path: nil)
        #expect(scene.warnings.count == 2, "\(scene.warnings)")
        #expect(
            scene.warnings.contains {
                $0.message.contains("Styled") && $0.message.contains("Inner Shadow")
            }, "\(scene.warnings)")
        #expect(scene.warnings.contains { $0.message.contains("Outer Glow") }, "\(scene.warnings)")
        #expect(
            !scene.warnings.contains { $0.message.contains("Drop Shadow") }, "\(scene.warnings)")
    }
}
