import Foundation
import Testing
import FlipbookTesting
import Flipbook
import FlipbookGeometry
import FlipbookScene
import FlipbookTimeline

/// scenes/owl-login.yaml: readme.io's owl from shared/seeds/1-owl-login.md (RMIOLoginView.m),
/// on a 375 × 667 screen (kScreenWidth = 375).
///
/// Values from the tutorial's code used below:
/// - faceRect = (CGFloatPixelRound((kScreenWidth − 116) / 2), 69, 116, 92) = (129.5, 69, 116, 92);
///   CGRectGetMaxX(faceRect) = 245.5.
/// - KOwlAnimationDuration = 0.3 s, `UIView animateWithDuration:animations:` → easeInEaseOut.
/// - Arm frames (down state / up state), see `downFrames` and `upFrames`.
///
/// Storyboard (the scene's header): Password tapped at 1.0 and 4.6 (arms up, 0.3 s), Email
/// tapped at 3.2 and 6.0 (arms down, 0.3 s).
@Suite struct OwlLoginTests {
    static let faceX = 129.5  // (375 − 116) / 2
    static let faceMaxX = 245.5  // faceX + 116
    static let passwordTaps = [1.0, 4.6]
    static let emailTaps = [3.2, 6.0]
    static let duration = 0.3  // KOwlAnimationDuration

    /// armDownImageAnimation (and the initial frames in addSubviews).
    static let downFrames: [String: [Double]] = [
        "armDownLeft": [faceX - 36, 134, 43, 25],  // faceX − 43 + 7 = faceX − 36
        "armDownRight": [faceMaxX, 134, 43, 26],
        "armUpLeft": [faceX - 15, 150, 0, 0],
        "armUpRight": [faceMaxX + 15, 150, 0, 0],
    ]
    /// armUpImageAnimation.
    static let upFrames: [String: [Double]] = [
        "armDownLeft": [faceX + 29, 148, 0, 0],
        "armDownRight": [faceMaxX - 29, 148, 0, 0],
        "armUpLeft": [faceX - 6, 108, 51, 42],
        "armUpRight": [faceX + 60, 107, 51, 43],
    ]

    // Colors the scene draws (sRGB bytes).
    static let blue = [74, 144, 226]  // #4a90e2, the background view
    static let head = [139, 90, 60]  // #8b5a3c, the owl's head
    static let pupil = [42, 26, 15]  // #2a1a0f
    static let wing = [107, 65, 40]  // #6b4128, the raised hands

    /// The UIKit frame a layer shows: origin = position − anchor × size, size = bounds × scale
    /// (the arms are image-sized layers scaled about their top-left, as UIImageView stretches
    /// its image onto its frame).
    static func frame(_ timeline: Timeline, _ id: String, at t: Double) throws -> [Double] {
        let p = try #require(timeline.properties(of: id, at: t))
        let w = p.bounds.width * p.transform.scale.x
        let h = p.bounds.height * p.transform.scale.y
        return [p.position.x - p.anchorPoint.x * w, p.position.y - p.anchorPoint.y * h, w, h]
    }

    static func expectLayerFrame(
        _ actual: [Double], _ expected: [Double], _ what: String,
        tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ok = actual.count == 4 && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
        #expect(
            ok, "\(what): frame \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    // MARK: - Facts

    /// The face and the eye image sit at faceRect = ((375 − 116) / 2, 69, 116, 92) =
    /// (129.5, 69, 116, 92): 129.5 pt is already on the 2× grid, so CGFloatPixelRound keeps it.
    @Test func faceRectIsCenteredOn375() throws {
        let timeline = Timeline(scene: try SeedScene.load("owl-login"))
        for id in ["face", "eyes"] {
            Self.expectLayerFrame(
                try Self.frame(timeline, id, at: 0), [(375 - 116) / 2, 69, 116, 92], id)
        }
        #expect(timeline.scene.canvas.size.width == 375)
        #expect(timeline.scene.canvas.snap == .round)
    }

    /// The tutorial's pixel-alignment point: 129.5 pt is 259 px at 2× (aligned), and 388.5 px at
    /// 3×, which CGFloatPixelRound moves to round(388.5) = 389 px (129.667 pt). The right edge
    /// 245.5 pt → 491 px at 2×, round(736.5) = 737 px at 3×. The head's sides are straight at
    /// image y 36…70; row y = 69 + 50 = 119 pt (238 px at 2×, 357 px at 3×) crosses them
    /// above the lowered hands. Both edges must be hard (no half-covered column); with
    /// snapping off, the 3× column 388 is half head, half background.
    @Test func faceLandsOnWholePixelsAt2xAnd3x() throws {
        let scene = try SeedScene.load("owl-login")
        let twice = try SeedScene.render(scene, at: 0.5, scale: 2)
        #expect(SeedScene.rgb(twice, 258, 238) == Self.blue)
        #expect(SeedScene.rgb(twice, 259, 238) == Self.head)
        #expect(SeedScene.rgb(twice, 490, 238) == Self.head)
        #expect(SeedScene.rgb(twice, 491, 238) == Self.blue)
        #expect(SeedScene.columns(twice, row: 238, matching: Self.head, tolerance: 0) == 259...490)

        let thrice = try SeedScene.render(scene, at: 0.5, scale: 3)
        #expect(SeedScene.rgb(thrice, 388, 357) == Self.blue)
        #expect(SeedScene.rgb(thrice, 389, 357) == Self.head)
        #expect(SeedScene.rgb(thrice, 736, 357) == Self.head)
        #expect(SeedScene.rgb(thrice, 737, 357) == Self.blue)

        // Without CGFloatPixelRound the edge falls at 388.5 px: column 388 is a blend.
        var unsnapped = scene
        unsnapped.canvas.snap = .none
        let blurry = try SeedScene.render(unsnapped, at: 0.5, scale: 3)
        let edge = SeedScene.rgb(blurry, 388, 357)
        #expect(
            edge != Self.blue && edge != Self.head, "column 388 at 3× without snapping: \(edge)")
    }

    /// Email focused (state Down): the lowered hands at (faceX − 36, 134, 43, 25) and
    /// (maxX, 134, 43, 26), the raised ones zero-sized at (faceX − 15, 150) and (maxX + 15, 150),
    /// owlEyeImgView.alpha 0 — before the first tap, between 3.5 and 4.6, and after 6.3.
    /// The left pupil (image (31, 55) → (160.5, 124) pt → (321, 248) px) is visible.
    @Test func emailFocusedArmsDownEyesOpen() throws {
        let scene = try SeedScene.load("owl-login")
        let timeline = Timeline(scene: scene)
        for t in [0.0, 0.99, 3.5, 4.0, 4.59, 6.3, 7.1] {
            for (id, f) in Self.downFrames {
                Self.expectLayerFrame(try Self.frame(timeline, id, at: t), f, "\(id) at \(t)")
            }
            #expect(abs(try #require(timeline.properties(of: "eyes", at: t)).opacity) < 1e-9)
        }
        let pixels = try SeedScene.render(scene, at: 0.5, scale: 2)
        #expect(SeedScene.rgb(pixels, 321, 248) == Self.pupil)
        #expect(SeedScene.rgb(pixels, 429, 248) == Self.pupil)  // right pupil, image (85, 55)
        #expect(SeedScene.rgb(pixels, 353, 232) == [255, 255, 255])  // white of the left eye
    }

    /// Password focused (state Up), from 0.3 s after each tap: lowered hands shrunk to 0 at
    /// (faceX + 29, 148) and (maxX − 29, 148); raised hands (faceX − 6, 108, 51, 42) and
    /// (faceX + 60, 107, 51, 43); owlEyeImgView.alpha 1. In pixels the raised hands cover both
    /// pupils, and the white seen between them turns to the eye image's gray gradient.
    @Test func passwordFocusedArmsUpEyesCovered() throws {
        let scene = try SeedScene.load("owl-login")
        let timeline = Timeline(scene: scene)
        for t in [1.3, 2.0, 3.19, 4.9, 5.99] {
            for (id, f) in Self.upFrames {
                Self.expectLayerFrame(try Self.frame(timeline, id, at: t), f, "\(id) at \(t)")
            }
            #expect(abs(try #require(timeline.properties(of: "eyes", at: t)).opacity - 1) < 1e-9)
        }
        let pixels = try SeedScene.render(scene, at: 2.0, scale: 2)
        #expect(SeedScene.rgb(pixels, 321, 248) == Self.wing)
        #expect(SeedScene.rgb(pixels, 429, 248) == Self.wing)
        let shaded = SeedScene.rgb(pixels, 353, 232)
        #expect(
            shaded != [255, 255, 255] && shaded.allSatisfy { $0 > 180 && $0 < 250 },
            "eye image at (353, 232): \(shaded)")
    }

    /// The motion takes KOwlAnimationDuration = 0.3 s on UIView's default easeInEaseOut
    /// (0.42, 0, 0.58, 1): halfway (t = 0.15 s) the progress is exactly 0.5 (the curve is
    /// symmetric), so armUpLeft is at x = (114.5 + 123.5) / 2 = 119, 25.5 × 21 pt, and the eye
    /// image at alpha 0.5. A quarter in (0.075 s) the curve gives 0.129162 (solving
    /// x(s) = 0.25 on the Bézier), where linear timing would give 0.25.
    @Test func armsMoveInPointThreeSecondsEaseInEaseOut() throws {
        let timeline = Timeline(scene: try SeedScene.load("owl-login"))
        for tap in Self.passwordTaps {
            Self.expectLayerFrame(
                try Self.frame(timeline, "armUpLeft", at: tap + 0.15), [119, 129, 25.5, 21],
                "armUpLeft mid",
                tolerance: 1e-6)
            let half = try #require(timeline.properties(of: "eyes", at: tap + 0.15)).opacity
            #expect(abs(half - 0.5) < 1e-6)
            let quarter = try #require(timeline.properties(of: "eyes", at: tap + 0.075)).opacity
            #expect(abs(quarter - 0.129162) < 1e-4, "eye alpha a quarter in: \(quarter)")
            // Still moving just before 0.3 s, done at 0.3 s.
            let almost = try #require(timeline.properties(of: "armUpRight", at: tap + 0.29))
                .transform.scale.x
            #expect(almost > 0.99 && almost < 1)
            #expect(
                abs(
                    try #require(timeline.properties(of: "armUpRight", at: tap + Self.duration))
                        .transform.scale.x - 1) < 1e-9)
        }
        // The reverse (armDownImageAnimation) has the same timing: halfway, the lowered left hand
        // is between (faceX + 29, 148, 0, 0) and (faceX − 36, 134, 43, 25).
        for tap in Self.emailTaps {
            Self.expectLayerFrame(
                try Self.frame(timeline, "armDownLeft", at: tap + 0.15), [126, 141, 21.5, 12.5],
                "armDownLeft mid", tolerance: 1e-6)
            let quarter = try #require(timeline.properties(of: "eyes", at: tap + 0.075)).opacity
            #expect(abs(quarter - (1 - 0.129162)) < 1e-4)
        }
    }

    /// A consequence of the code's numbers: each raised hand's bottom edge stays on the card's
    /// top edge (y = 150) all the way: 150 + 0 = 108 + 42 = 107 + 43 = 150, and both ends move
    /// with the same progress. The lowered left hand's bottom goes from 134 + 25 = 159 to 148.
    @Test func raisedHandsRiseFromTheCardEdge() throws {
        let timeline = Timeline(scene: try SeedScene.load("owl-login"))
        for t in stride(from: 0.9, through: 1.4, by: 1.0 / 30) {
            for id in ["armUpLeft", "armUpRight"] {
                let f = try Self.frame(timeline, id, at: t)
                #expect(abs(f[1] + f[3] - 150) < 1e-9, "\(id) bottom at \(t): \(f[1] + f[3])")
            }
        }
        let start = try Self.frame(timeline, "armDownLeft", at: 1.0)
        let end = try Self.frame(timeline, "armDownLeft", at: 1.3)
        #expect(abs(start[1] + start[3] - 159) < 1e-9 && abs(end[1] + end[3] - 148) < 1e-9)
    }

    // MARK: - Goldens (recorded once text rendering lands)

    @Test
    func goldenEmailFocused() throws {
        try expectFrame(
            SeedScene.render(try SeedScene.load("owl-login"), at: 0.5),
            match: "Goldens", named: "owl-login-email", options: .seedGolden)
    }

    @Test
    func goldenArmsHalfway() throws {
        try expectFrame(
            SeedScene.render(try SeedScene.load("owl-login"), at: 1.15),
            match: "Goldens", named: "owl-login-halfway", options: .seedGolden)
    }

    @Test
    func goldenPasswordCovered() throws {
        try expectFrame(
            SeedScene.render(try SeedScene.load("owl-login"), at: 2.8),
            match: "Goldens", named: "owl-login-password", options: .seedGolden)
    }

    @Test
    func goldenPasswordCovered3x() throws {
        try expectFrame(
            SeedScene.render(try SeedScene.load("owl-login"), at: 2.8, scale: 3),
            match: "Goldens", named: "owl-login-password-3x", options: .seedGolden)
    }
}
