import Testing
import FlipbookTesting
import Flipbook
import FlipbookScene
import FlipbookTimeline

/// Facts of seed 5, "怎样做一个iOS App的启动分层引导动画?" (scenes/parallax-guide.yaml).
///
/// The tutorial's numbers, for a 375 × 667 pt screen (kScreenWidth W = 375):
/// - contentSize = W × 4; the scroll view is the layer `pager`, bounds.origin.x = contentOffset.x.
/// - girlImageView.frame = (100, kScreenHeight − 200 − 50, 100, 200) = (100, 417, 100, 200).
/// - entrance: translations −200 (girl), −100, +100, −120 (labels 1–3) → identity in 0.7 s
///   (UIView's default curve, easeInEaseOut).
/// - scrollViewDidScroll: girl translation.x = (W + 100)·x/W, label 2 translation.x = −200·x/W.
@Suite struct ParallaxGuideTests {
    static let W = 375.0
    static let pink = [255, 111, 145]  // the girl's dress, #ff6f91
    static let sunYellow = [255, 214, 90]  // #ffd65a

    let scene: Scene
    let timeline: Timeline

    init() throws {
        scene = try SeedScene.load("parallax-guide")
        timeline = Timeline(scene: scene)
    }

    func props(_ id: String, _ t: Double) throws -> LayerProperties {
        try #require(timeline.properties(of: id, at: t), "no layer \(id)")
    }

    func offset(_ t: Double) throws -> Double { try props("pager", t).bounds.x }

    func tx(_ id: String, _ t: Double) throws -> Double { try props(id, t).transform.translation.x }

    /// The time in [lo, hi] where the (rising) scroll offset reaches `x`.
    func time(whenOffsetIs x: Double, between lo: Double, and hi: Double) throws -> Double {
        var lo = lo, hi = hi
        #expect(
            try offset(lo) < x && offset(hi) > x, "offset \(x) is not crossed in [\(lo), \(hi)]")
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if try offset(mid) < x { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Columns of the dress at box row 110 of the girl (screen y = 417 + 110 = 527 pt).
    /// The dress's sides run from (36, 76) to (16, 142) and from (64, 76) to (84, 142) in
    /// the girl's 100 × 200 box, so at box y ≈ 110 it spans about 25.6 … 74.4.
    func dressColumns(_ t: Double, scale: Double) throws -> ClosedRange<Int> {
        let frame = try SeedScene.render(scene, at: t, scale: scale)
        let row = Int(527.25 * scale)
        return try #require(
            SeedScene.columns(frame, row: row, matching: Self.pink), "no dress at t = \(t)")
    }

    // MARK: - Entrance

    @Test func entranceStartsAtTutorialTranslationsAndLandsAfter07s() throws {
        // transform = CGAffineTransformMakeTranslation(−200 / −100 / +100 / −120, 0)
        let layers = ["girlBody": -200.0, "label1": -100, "label2Text": 100, "label3": -120]
        for (id, start) in layers {
            #expect(try tx(id, 0) == start, "\(id) at t = 0")
            // easeInEaseOut (0.42, 0, 0.58, 1) is point-symmetric: half-way in time is half-way.
            #expect(abs(try tx(id, 0.35) - start / 2) < 1e-6, "\(id) at t = 0.35")
            // animateWithDuration:0.7 → identity
            #expect(try tx(id, 0.7) == 0, "\(id) at t = 0.7")
            #expect(try tx(id, 1.5) == 0, "\(id) at t = 1.5")
        }
        // Pixels: at t = 0 the girl is at 100 − 200 = −100 … 0 pt, off screen, so her home
        // spot (the dress centre, box (50, 110) → screen (150, 527) pt) shows the page; at
        // 0.7 s the dress is there (2×: pixel (300, 1054)).
        let start = try SeedScene.render(scene, at: 0, scale: 2)
        let landed = try SeedScene.render(scene, at: 0.7, scale: 2)
        #expect(SeedScene.rgb(start, 300, 1054) != Self.pink)
        #expect(SeedScene.columns(start, row: 1054, matching: Self.pink) == nil)
        #expect(SeedScene.rgb(landed, 300, 1054) == Self.pink)
    }

    // MARK: - scrollViewDidScroll

    @Test func girlAndSecondLabelFollowTheOffsetWithTheTutorialFormulas() throws {
        // Every frame of the first swipe (1.6 … 2.4 s) and the rest on page 2.
        var seen: Set<Int> = []
        for frame in 45...100 {
            let t = Double(frame) / 30
            let x = try offset(t)
            let expectedX = min(max(x, 0), Self.W)  // the handler only runs while x ≤ W
            seen.insert(Int(x / 25))
            // (kScreenWidth + 100.0f) * currentX / kScreenWidth
            #expect(
                abs(try tx("girl", t) - (Self.W + 100) * expectedX / Self.W) < 1e-9,
                "girl at t = \(t)")
            // - 200 * currentX / kScreenWidth
            #expect(
                abs(try tx("label2", t) - (-200 * expectedX / Self.W)) < 1e-9, "label 2 at t = \(t)"
            )
            // Labels 1 and 3 have no handler: they stay at identity and scroll with the content.
            #expect(try tx("label1", t) == 0)
            #expect(try tx("label3", t) == 0)
        }
        #expect(seen.count >= 12, "the swipe should pass through the whole page")
        // After the page: the girl ends W + 100 = 475 further on, label 2 at −200.
        #expect(try tx("girl", 3.0) == 475)
        #expect(try tx("label2", 3.0) == -200)
    }

    @Test func girlAtHalfOffsetIsAtBaseMinusHalfWPlusHalfOfWPlus100() throws {
        // On screen: x_girl = 100 − offset + (W + 100)·offset/W; at offset W/2 this is
        // 100 − 187.5 + 237.5 = 150 pt (she has moved 50 pt to the RIGHT while the page
        // moved 187.5 pt to the left).
        let t = try time(whenOffsetIs: Self.W / 2, between: 1.9, and: 2.35)
        let girl = try props("girl", t)
        let left =
            girl.position.x - girl.anchorPoint.x * girl.bounds.width + girl.transform.translation.x
            + (try tx("girlBody", t)) - (try offset(t))
        #expect(abs(left - (100 - Self.W / 2 + (Self.W + 100) / 2)) < 1e-6)
        #expect(abs(left - 150) < 1e-6)
        // Pixels at 2×: the dress row spans (150 + 25.6 … 150 + 74.4) pt = 351.2 … 448.8 px,
        // so fully pink columns 352 … 448 (±1 for anti-aliasing).
        let dress = try dressColumns(t, scale: 2)
        #expect(abs(dress.lowerBound - 352) <= 1, "dress \(dress)")
        #expect(abs(dress.upperBound - 448) <= 1, "dress \(dress)")
        // A plain content layer (label 1) has moved the full 187.5 pt to the left.
        #expect(try tx("label1", t) == 0)
    }

    @Test func onPageTwoTheGirlStands100ptFurtherRight() throws {
        // Page 1 at rest (t = 1.0): girl at 100 pt. Page 2 at rest (t = 3.0): offset W, girl
        // at 100 − 375 + 475 = 200 pt: the same on-screen spot + 100 pt (公式 4.3.2).
        #expect(try offset(1.0) == 0)
        #expect(try offset(3.0) == Self.W)
        for scale in [2.0, 3.0] {
            let page1 = try dressColumns(1.0, scale: scale)
            let page2 = try dressColumns(3.0, scale: scale)
            let shift = Int(100 * scale)
            #expect(
                page2.lowerBound - page1.lowerBound == shift, "scale \(scale): \(page1) → \(page2)")
            #expect(
                page2.upperBound - page1.upperBound == shift, "scale \(scale): \(page1) → \(page2)")
            // Page 1: the dress row spans 100 + 25.6 … 100 + 74.4 = 125.6 … 174.4 pt.
            #expect(abs(Double(page1.lowerBound) / scale - 125.6) < 1, "scale \(scale): \(page1)")
            #expect(abs(Double(page1.upperBound) / scale - 174.4) < 1, "scale \(scale): \(page1)")
        }
    }

    // MARK: - Paging

    @Test func pagerPagesThroughFourScreensAndBounces() throws {
        // contentSize = CGSizeMake(screenSize.width * 4, …): page 4 ends at 4 × 375 = 1500.
        let page4 = try props("page4", 0)
        #expect(page4.position.x + page4.bounds.width / 2 == 4 * Self.W)
        // pagingEnabled: at rest the offset is a whole page.
        let rests: [(Double, Double)] = [
            (1.5, 0), (2.4, 375), (3.35, 375), (4.2, 750), (5.1, 750),
            (6.0, 1125), (7.5, 1125), (7.95, 1125),
        ]
        for (t, x) in rests { #expect(abs(try offset(t) - x) < 1e-6, "offset at t = \(t)") }
        // alwaysBounceHorizontal: pulled 45 pt past the end at 6.9 s.
        #expect(abs(try offset(6.9) - 1170) < 1e-6)
        // The paging snap continues the finger's speed: the drag (easeIn, 112.5 pt in 0.3 s)
        // leaves at 112.5/0.3/(1 − 0.42) ≈ 646.6 pt/s; the spring starts with 2.46 × 262.5 ≈ 645.8.
        let h = 1e-4
        let before = (try offset(1.9) - offset(1.9 - h)) / h
        let after = (try offset(1.9 + h) - offset(1.9)) / h
        #expect(abs(before - 646.6) < 5, "drag end speed \(before)")
        #expect(abs(after - before) / before < 0.02, "release speed \(after) vs drag \(before)")
        // The critically damped snap does not overshoot the page.
        for frame in 57...75 { #expect(try offset(Double(frame) / 30) <= Self.W + 1e-9) }
    }

    @Test func pageIndicatorTracksTheOffset() throws {
        // 4 dots, 7 pt, 16 pt apart, centred: centres 163.5, 179.5, 195.5, 211.5;
        // the current dot's centre = 163.5 + 16·offset/W.
        for frame in stride(from: 0, through: 239, by: 7) {
            let t = Double(frame) / 30
            let expected = 163.5 + 16 * min(try offset(t), 3 * Self.W) / Self.W
            #expect(abs(try props("pageDotCurrent", t).position.x - expected) < 1e-9, "t = \(t)")
        }
        // Pixels on page 3 (t = 4.5) at 2×: the current dot at (195.5, 640) pt → (391, 1280)
        // is pink, the first dot at (163.5, 640) → (327, 1280) is grey #c8c8c8.
        let page3 = try SeedScene.render(scene, at: 4.5, scale: 2)
        #expect(SeedScene.rgb(page3, 391, 1280) == Self.pink)
        #expect(SeedScene.rgb(page3, 327, 1280) == [200, 200, 200])
    }

    @Test func pageFourLayersMoveAtTheirOwnSpeeds() throws {
        // Maps on the offset x (page 4 is home at x = 3W = 1125):
        //   sun: −280·(1125 − x)/W, far mountains: −200·(1125 − x)/W, clouds: +220·(1125 − x)/W.
        for frame in 156...180 {
            let t = Double(frame) / 30
            let d = 1125 - min(max(try offset(t), 750), 1125)
            #expect(abs(try tx("sun", t) - (-280 * d / Self.W)) < 1e-9)
            #expect(abs(try tx("farMountains", t) - (-200 * d / Self.W)) < 1e-9)
            #expect(abs(try tx("clouds", t) - (220 * d / Self.W)) < 1e-9)
        }
        // Over-scrolled to 1170 the far layers keep their speeds: mountains +200·45/375 = 24.
        #expect(abs(try tx("farMountains", 6.9) - 24) < 1e-9)
        // Pixels at 2×: the sun's centre is (268 + 28, 168 + 28) = (296, 196) pt in page 4.
        // At rest it is on screen at (592, 392) px. Mid-swipe at offset 937.5 the content has
        // moved 187.5 pt less, but the sun is held back by 280·187.5/375 = 140 pt:
        // 1125 + 296 − 937.5 − 140 = 343.5 pt → 687 px (without parallax it would be at
        // 483.5 pt, off screen).
        let rest = try SeedScene.render(scene, at: 6.3, scale: 2)
        #expect(SeedScene.rgb(rest, 592, 392) == Self.sunYellow)
        let t = try time(whenOffsetIs: 937.5, between: 5.5, and: 5.95)
        let mid = try SeedScene.render(scene, at: t, scale: 2)
        #expect(SeedScene.rgb(mid, 687, 392) == Self.sunYellow)
        // 30 pt left: outside the 28-pt radius
        #expect(SeedScene.rgb(mid, 687 - 60, 392) != Self.sunYellow)
    }

    // MARK: - Goldens

    @Test
    func goldenFrames() throws {
        for (t, name) in [
            (0.35, "entrance"), (2.0, "swipe1"), (3.0, "page2"), (4.8, "page3"), (6.3, "page4"),
        ] {
            try expectFrame(
                SeedScene.render(scene, at: t, scale: 2),
                match: "Goldens", named: "parallax-guide-\(name)", options: .seedGolden)
        }
    }
}
