import Foundation
import Testing
import Flipbook
@testable import FlipbookLottie
import FlipbookScene
import FlipbookTimeline

/// `--lottie-compat core-animation`: what lottie-ios's Core Animation engine leaves out or
/// does differently, each read from its source (cited beside the code in FlipbookLottie),
/// against the default lottie-web reading of the same small file.
@Suite struct CoreAnimationProfileTests {
    static func load(_ json: String, _ compat: LottieCompatibility) throws -> Scene {
        try LottieLoader.parse(
            Data(json.utf8), path: nil, options: SceneLoader.Options(lottieCompatibility: compat))
    }

    /// Every layer of the tree, depth first.
    static func layers(_ scene: Scene) -> [Layer] {
        func walk(_ l: Layer) -> [Layer] { [l] + l.sublayers.flatMap(walk) }
        return scene.layers.flatMap(walk)
    }

    static func shapeLayer(_ body: String, extra: String = "") -> String {
        """
        {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "Shape", "ind": 1, "ip": 0, "op": 10, "st": 0, \(extra)
           "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "to": [90, 0], "ti": [0, 0],
                                       "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                      {"t": 10, "s": [100, 0]}]}},
           "shapes": [\(body)]}]}
        """
    }

    static let ellipse = #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}}"#

    /// A straight motion path whose first handle reaches 90 % of the way: by arc length
    /// (lottie-web) half the time is half the distance, x = 50; by the curve's parameter
    /// (CAKeyframeAnimation with a path, linear mode) x(½) = 3·¼·½·90 + 3·½·¼·100 + ⅛·100 = 83.75.
    @Test func motionPathAdvancesByTheCurveParameter() throws {
        let json = Self.shapeLayer(
            Self.ellipse + #", {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}}"#)
        for (compat, x) in [(LottieCompatibility.lottieWeb, 50.0), (.coreAnimation, 83.75)] {
            let scene = try Self.load(json, compat)
            let shape = try #require(Self.layers(scene).first { $0.id == "Shape" })
            let position = try #require(shape.compositing?.transform).position.value(at: 0.5)
            #expect(
                abs(position[0] - x) < 0.05 && abs(position[1]) < 1e-9, "\(compat): \(position)")
        }
    }

    /// A radial gradient with a 50 % highlight: CAGradientLayer has no highlight.
    @Test func radialGradientHighlightIsDropped() throws {
        let fill =
            #"{"ty": "gf", "t": 2, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [10, 0]}, "#
            + #""h": {"a": 0, "k": 50}, "a": {"a": 0, "k": 30}, "o": {"a": 0, "k": 100}, "#
            + #""g": {"p": 2, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1]}}}"#
        for (compat, highlight) in [(LottieCompatibility.lottieWeb, 50.0), (.coreAnimation, 0.0)] {
            let scene = try Self.load(Self.shapeLayer(Self.ellipse + ", " + fill), compat)
            let shape = try #require(Self.layers(scene).first { $0.id == "Shape" })
            guard case .vector(let vector) = shape.content, case .fill(let f) = vector.items.last,
                case .gradient(let g) = f.paint
            else {
                Issue.record("no gradient fill in \(shape.content)")
                return
            }
            #expect(g.highlightLength.value(at: 0) == [highlight], "\(compat)")
        }
    }

    /// A fill colour with a fourth value of 0.5: lottie-web's reading keeps it as alpha,
    /// lottie-ios sets alpha to 1.
    @Test func colourAlphaIsIgnored() throws {
        let json = Self.shapeLayer(
            Self.ellipse + #", {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 0.5]}}"#)
        for (compat, alpha) in [(LottieCompatibility.lottieWeb, 0.5), (.coreAnimation, 1.0)] {
            let shape = try #require(
                Self.layers(try Self.load(json, compat)).first { $0.id == "Shape" })
            guard case .vector(let vector) = shape.content, case .fill(let f) = vector.items.last,
                case .solid(let colour) = f.paint
            else {
                Issue.record("no solid fill in \(shape.content)")
                return
            }
            #expect(colour.value(at: 0) == [1, 0, 0, alpha], "\(compat)")
        }
    }

    /// A Gaussian blur beside a drop shadow: Core Animation keeps only the shadow.
    @Test func effectsOtherThanDropShadowAreLeftOut() throws {
        let effects =
            #""ef": [{"ty": 29, "nm": "Blur", "ef": [{"v": {"a": 0, "k": 10}}, {"v": {"a": 0, "k": 1}}]}, "#
            + #"{"ty": 25, "nm": "Shadow", "ef": [{"v": {"a": 0, "k": [0, 0, 0, 1]}}, {"v": {"a": 0, "k": 128}}, "#
            + #"{"v": {"a": 0, "k": 135}}, {"v": {"a": 0, "k": 5}}, {"v": {"a": 0, "k": 4}}]}],"#
        let json = Self.shapeLayer(Self.ellipse, extra: effects)
        let web = try #require(
            Self.layers(try Self.load(json, .lottieWeb)).first { $0.id == "Shape" })
        #expect(web.compositing?.effects.count == 2)
        let scene = try Self.load(json, .coreAnimation)
        let ca = try #require(Self.layers(scene).first { $0.id == "Shape" })
        #expect(ca.compositing?.effects.count == 1)
        if case .dropShadow = ca.compositing?.effects.first {
        } else {
            Issue.record("\(ca.compositing?.effects)")
        }
        #expect(
            scene.warnings.contains {
                $0.message.contains("Blur") && $0.message.contains("only drop shadows")
            }, "\(scene.warnings)")
    }

    /// A drop shadow's softness 40 becomes lottie-web's blur (σ = softness / 4 = 10) by
    /// default and lottie-ios's CALayer shadowRadius (softness / 5, DropShadowMapping) under
    /// the core-animation profile.
    @Test func dropShadowSoftnessFollowsTheProfile() throws {
        let effect =
            #""ef": [{"ty": 25, "nm": "Shadow", "ef": [{"v": {"a": 0, "k": [0, 0, 0, 1]}}, "#
            + #"{"v": {"a": 0, "k": 128}}, {"v": {"a": 0, "k": 135}}, {"v": {"a": 0, "k": 5}}, {"v": {"a": 0, "k": 40}}]}],"#
        let json = Self.shapeLayer(Self.ellipse, extra: effect)
        func blur(_ compat: LottieCompatibility) throws -> Double? {
            let layer = try #require(
                Self.layers(try Self.load(json, compat)).first { $0.id == "Shape" })
            guard case .dropShadow(_, _, _, _, let blur, _)? = layer.compositing?.effects.first
            else { return nil }
            return blur.scalar(at: 0)
        }
        #expect(try blur(.lottieWeb) == DropShadowMapping.effectSigma(softness: 40, .lottieWeb))
        #expect(try blur(.lottieWeb) == 10)
        #expect(
            try blur(.coreAnimation) == DropShadowMapping.effectSigma(softness: 40, .coreAnimation))
        #expect(try blur(.coreAnimation) != blur(.lottieWeb))
    }

    /// Glyph text with a range animator: lottie-web animates the letters, Core Animation
    /// draws the text document as it is.
    @Test func textAnimatorsAreLeftOut() throws {
        let file = LottieSupport.fixtures + "/text_animator_range.json"
        func animators(_ compat: LottieCompatibility) throws -> (Int, [SceneWarning]) {
            let scene = try SceneFile.load(
                path: file, options: SceneLoader.Options(lottieCompatibility: compat))
            let count = Self.layers(scene).reduce(0) { total, layer in
                guard case .vector(let v) = layer.content else { return total }
                return total
                    + v.items.reduce(0) {
                        if case .text(let t) = $1 { $0 + t.animators.count } else { $0 }
                    }
            }
            return (count, scene.warnings)
        }
        let (web, webWarnings) = try animators(.lottieWeb)
        #expect(web > 0 && webWarnings.isEmpty)
        let (ca, caWarnings) = try animators(.coreAnimation)
        #expect(ca == 0)
        #expect(caWarnings.contains { $0.message.contains("text animators") }, "\(caWarnings)")
    }

    /// A red dot held at x = 10 until the out point (frame 10 of 10), where a hold key
    /// moves it to x = 90. Paused at 100 %, lottie-web's reading shows the last instant
    /// before the end (the dot at 10); Core Animation seeks to the end itself and keeps a
    /// layer ending there visible (VisibilityAnimation.swift), so the dot is at 90.
    @Test func pausedAtTheEndShowsTheEndInstant() throws {
        let json = """
            {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
              {"ty": 4, "nm": "Dot", "ind": 1, "ip": 0, "op": 10, "st": 0,
               "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [10, 50], "h": 1}, {"t": 10, "s": [90, 50], "h": 1}]}},
               "shapes": [\(Self.ellipse), {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}}]}]}
            """
        for (compat, x) in [(LottieCompatibility.lottieWeb, 10), (.coreAnimation, 90)] {
            let scene = try Self.load(json, compat)
            #expect(scene.canvas.pausedEndIsEndInstant == (compat == .coreAnimation))
            let image = try StillFrame.render(
                scene, at: StillTime.progress(100).seconds(in: scene.canvas))
            for (probe, red) in [(x, true), (100 - x, false)] {
                let i = (50 * image.width + probe) * 4
                #expect(
                    (image.data[i], image.data[i + 3]) == (red ? (255, 255) : (0, 0)),
                    "\(compat) at x = \(probe)")
            }
        }
    }

    /// Inside a precomposition started at frame 4 (`st`), precomposition frame 6 is the
    /// animation's end (frame 10): under Core Animation a layer ending there stays on at
    /// 100 % (at the end instant, precomposition frame 6, its range would be over), one
    /// ending at frame 5 does not. lottie-web's reading, at the instant before the end,
    /// shows the same.
    @Test func theEndIsMappedIntoPrecompositions() throws {
        func dot(_ name: String, y: Int, op: Int) -> String {
            #"{"ty": 4, "nm": "\#(name)", "ip": 0, "op": \#(op), "st": 0, "ks": {"p": {"a": 0, "k": [50, \#(y)]}}, "#
                + #""shapes": [\#(Self.ellipse), {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}}]}"#
        }
        let json = """
            {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
             "assets": [{"id": "inner", "layers": [\(dot("Ends at the end", y: 20, op: 6)), \(dot("Ends before", y: 80, op: 5))]}],
             "layers": [{"ty": 0, "nm": "Pre", "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 10, "st": 4,
                         "ks": {}}]}
            """
        for compat in [LottieCompatibility.lottieWeb, .coreAnimation] {
            let scene = try Self.load(json, compat)
            let image = try StillFrame.render(
                scene, at: StillTime.progress(100).seconds(in: scene.canvas))
            #expect(
                image.data[(20 * 100 + 50) * 4 + 3] == 255, "\(compat): the layer ending at the end"
            )
            #expect(image.data[(80 * 100 + 50) * 4 + 3] == 0, "\(compat): the layer ending before")
        }
    }

    @Test func theCommandLineTakesTheProfile() throws {
        let out = LottieCommandTests.temporary("ca.png")
        let r = try LottieCommandTests.run([
            "still", LottieSupport.fixtures + "/ellipse.json", "--at", "50%", "--lottie-compat",
            "core-animation", "-o", out,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let bad = try LottieCommandTests.run([
            "still", LottieSupport.fixtures + "/ellipse.json", "--at", "50%", "--lottie-compat",
            "safari", "-o", out,
        ])
        #expect(bad.status == 64 && bad.stderr.contains("lottie-compat"), "\(bad.stderr)")
    }
}
