import Foundation
import Testing
import FlipbookTesting
import Flipbook
import FlipbookScene
import FlipbookTimeline

/// Facts of seed 2 (login form, "layout animation in depth", LXDAutoLayoutAnimationDemo),
/// checked at key times of scenes/login-form.yaml from the tutorial's numbers.
///
/// Layout (storyboard constraints on a 375 × 667 screen): account field [25, 200, 325, 30],
/// record list under it (top 200, height 30, white), dropdown button [314, 197, 30, 36],
/// password [25, 260, 325, 30], SignIn button [25, 335, 325, 46] (centre 187.5, 358),
/// background rgb(0.482, 0.741, 0.820), button rgb(0.0599, 0.7711, 0.3891).
/// Storyboard: arrow tapped at 0.5 s and again at 2.0 s; SignIn tapped at 3.0 s and 6.3 s.
@Suite struct LoginFormTests {
    static let background = [123, 189, 209]  // 0.48235, 0.74118, 0.81961 × 255
    static let green = [15, 197, 99]  // 0.0599, 0.7711, 0.3891 × 255
    static let white = [255, 255, 255]
    static let chevronGray = [142, 142, 147]  // #8e8e93
    static let separator = [200, 199, 204]  // UITableView's default separator #c8c7cc

    let scene: Scene
    let timeline: Timeline

    init() throws {
        scene = try SeedScene.load("login-form")
        timeline = Timeline(scene: scene)
    }

    func props(_ id: String, _ t: Double) throws -> LayerProperties {
        try #require(timeline.properties(of: id, at: t), "no layer \(id)")
    }

    func near(_ pixel: [Int], _ color: [Int], tolerance: Int = 8) -> Bool {
        zip(pixel, color).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// UIKit's spring progress for `animateWithDuration: 0.25 … usingSpringWithDamping: 0.4
    /// initialSpringVelocity: 5`: mass 1, ω0 chosen so that the envelope is 0.001 of the
    /// distance at t = duration: ω0 = −ln(0.001·√(1 − ζ²)/ζ) / (ζ·duration) ≈ 60.786 /s.
    static func uikitSpring(
        _ t: Double, damping z: Double = 0.4, velocity v0: Double = 5,
        duration: Double = 0.25
    ) -> Double {
        let w0 = -log(0.001 * (1 - z * z).squareRoot() / z) / (z * duration)
        let wd = w0 * (1 - z * z).squareRoot()
        return 1 - exp(-z * w0 * t) * (cos(wd * t) + ((z * w0 - v0) / wd) * sin(wd * t))
    }

    // MARK: - Record list

    /// showRecordList: `_listTopConstraint.constant = _accountHeightConstraint.constant` (30)
    /// and `_listHeightConstraint.constant = _accountHeightConstraint.constant * 5` (150): the
    /// list's top is 200 + 30 = 230 and its bottom 230 + 150 = 380 once the 0.25-s spring that
    /// starts at 0.5 s has ended (0.75 s), i.e. five 30-pt rows. At 2× the bottom edge is row
    /// 760: row 759 is the fifth row's 0.5-pt separator (149.5…150 in the list) and row 761 is the SignIn button (335…381) under it.
    @Test func listDropsOpenToFiveAccountHeights() throws {
        let accountHeight = try props("account", 0).bounds.height
        #expect(accountHeight == 30)
        for t in [0.75, 1.5] {
            let list = try props("recordList", t)
            #expect(list.bounds.height == 5 * accountHeight)
            #expect(list.position.y == 200 + accountHeight)
        }
        // Closed at first: hidden behind the account field (top 200, storyboard height 30).
        let closed = try props("recordList", 0.4)
        #expect(closed.position.y == 200 && closed.bounds.height == 30)

        let before = try SeedScene.render(scene, at: 0.0)
        let open = try SeedScene.render(scene, at: 1.5)
        // x = 300 pt (right of the row labels), y = 245 pt: between account (…230) and
        // password (260…) the background shows before the tap; the list's first row covers
        // it when open.
        #expect(near(SeedScene.rgb(before, 600, 490), Self.background))
        #expect(near(SeedScene.rgb(open, 600, 490), Self.white))
        #expect(near(SeedScene.rgb(open, 200, 757), Self.white))
        // 5th row's separator, 149.5…150
        #expect(near(SeedScene.rgb(open, 200, 759), Self.separator))
        #expect(near(SeedScene.rgb(open, 200, 761), Self.green))

        // hideRecordList (2.0 s, 0.25 s): top 0 and height 0 again.
        let hidden = try props("recordList", 2.25)
        #expect(hidden.position.y == 200 && hidden.bounds.height == 0)
    }

    /// The spring has damping 0.4 and initial velocity 5 (in whole distances per second), so
    /// it overshoots: p(t) peaks at ≈ 1.2547 at t ≈ 0.055 s after the tap, a list 30 + 120 ×
    /// 1.2547 ≈ 180.6 pt high, then settles to exactly 150 at 0.25 s. Every sampled value
    /// must match the UIKit formula; at frame 17 (t = 17/30, 0.0667 s in) p = 1.2033, so the
    /// bottom edge is at 200 + 30p + 30 + 120p = 410.50 pt = 820.99 px at 2× → row 821.
    @Test func springOvershootsWithDamping04() throws {
        var peak = 0.0, worstHeight = 0.0, worstTop = 0.0
        for k in 0..<250 {
            let dt = Double(k) / 1000
            let list = try props("recordList", 0.5 + dt)
            let p = Self.uikitSpring(dt)
            worstHeight = max(worstHeight, abs(list.bounds.height - (30 + 120 * p)))
            worstTop = max(worstTop, abs(list.position.y - (200 + 30 * p)))
            peak = max(peak, list.bounds.height)
        }
        #expect(worstHeight < 1e-6)
        #expect(worstTop < 1e-6)
        #expect(peak > 180 && peak < 181)  // ≈ 25 % overshoot of the 120-pt growth
        // At 0.25 s the envelope is 0.001 of the distance; the animation then lands on the target.
        #expect(try props("recordList", 0.75).bounds.height == 150)

        let frame17 = try SeedScene.render(scene, at: 17.0 / 30)
        #expect(near(SeedScene.rgb(frame17, 200, 819), Self.white))
        #expect(near(SeedScene.rgb(frame17, 200, 823), Self.background))
    }

    // MARK: - Dropdown arrow

    /// animateToRotateArrow: `CATransform3DMakeRotation(M_PI, 0, 0, 1)` in
    /// `animateWithDuration: 0.25` (UIView's default easeInEaseOut, symmetric, so 90° halfway);
    /// tapped again at 2.0 s it returns to identity. Pixels at 2×: the chevron's tip
    /// (15, 21) in the 30 × 36 button at (314, 197) sits at y = 218 → rows 432…437 at
    /// x = 329 pt (col 658); turned 180° about the centre y = 215 it sits at y = 212 → rows 422…427.
    @Test func arrowTurns180DegreesIn025Seconds() throws {
        #expect(try props("dropdown", 0.5).transform.rotation == 0)
        #expect(abs(try props("dropdown", 0.625).transform.rotation - 90) < 1e-9)
        #expect(try props("dropdown", 0.75).transform.rotation == 180)
        #expect(try props("dropdown", 1.9).transform.rotation == 180)
        #expect(try props("dropdown", 2.25).transform.rotation == 0)

        let down = try SeedScene.render(scene, at: 0)
        let up = try SeedScene.render(scene, at: 1.5)
        #expect(near(SeedScene.rgb(down, 658, 435), Self.chevronGray))
        #expect(near(SeedScene.rgb(down, 658, 424), Self.white))
        #expect(near(SeedScene.rgb(up, 658, 424), Self.chevronGray))
        #expect(near(SeedScene.rgb(up, 658, 435), Self.white))
    }

    // MARK: - SignIn button

    /// animateToMakeButtonSmall: leading/trailing (25) off, width = height (46) and centerX =
    /// superview's, `animateWithDuration: 0.15 … CurveEaseIn` from 3.0 s. The centre stays at
    /// 375 / 2 = 187.5; halfway (3.075 s) easeIn (0.42, 0, 1, 1) gives p(0.5) = 0.31536, so the
    /// width is 325 − 279 × 0.31536 = 237.02 (slower than linear's 185.5).
    /// Pixels, row through the centre y = 358: the circle spans x 164.5…210.5 pt:
    ///   1×: 164.5 → 165, 210.5 → 211 (round, halves away from zero) → columns 165…210
    ///   2×: 329…421 → columns 329…420        3×: 493.5 → 494, 631.5 → 632 → columns 494…631
    /// Before the tap the full-width button spans 25…350 pt → columns 50…699 at 2×.
    @Test func buttonShrinksToCenteredCircle() throws {
        let full = try props("signIn", 2.9)
        #expect(full.bounds.width == 325 && full.bounds.height == 46 && full.position.x == 187.5)

        let half = try props("signIn", 3.075)
        let expectedHalf = 325 - 279 * IndependentTiming.bezier(0.42, 0, 1, 1, at: 0.5)
        #expect(abs(half.bounds.width - expectedHalf) < 1e-6)
        #expect(half.bounds.width > 237 && half.bounds.width < 237.1)

        for t in [3.15, 4.0, 6.29] {
            let small = try props("signIn", t)
            #expect(abs(small.bounds.width - small.bounds.height) < 1e-9)  // ratio constraint 1:1
            #expect(abs(small.bounds.width - 46) < 1e-9)
            #expect(small.position.x == 187.5)  // centerX constraint
            #expect(small.cornerRadius * 2 == small.bounds.height)  // so it is a circle
        }
        // The spinner (ovalInRect(w/2 − r/2, h/2 − r/2, r, r)) is recentred by layoutSubviews.
        #expect(try props("spinner", 4.0).position.x == 23)

        #expect(
            SeedScene.columns(try SeedScene.render(scene, at: 2.9), row: 716, matching: Self.green)
                == 50...699)
        #expect(
            SeedScene.columns(
                try SeedScene.render(scene, at: 4.0, scale: 1), row: 358, matching: Self.green)
                == 165...210)
        #expect(
            SeedScene.columns(try SeedScene.render(scene, at: 4.0), row: 716, matching: Self.green)
                == 329...420)
        #expect(
            SeedScene.columns(
                try SeedScene.render(scene, at: 4.0, scale: 3), row: 1074, matching: Self.green)
                == 494...631)
    }

    /// LXDAnimateButton: `const NSTimeInterval duration = 1.2`; every tick strokeEnd 0 → 1 over
    /// 1.2 s and strokeStart 0 → 1 over duration / 2 beginning duration / 2 later (linear).
    /// 0.3 s in: end 0.25, start 0; 0.9 s in: end 0.75, start 0.5; the next tick repeats it.
    /// start's `animateWithDuration: 0.5` brings the circle to opacity 1 and the title to alpha 0.
    /// Pixels at 3.9 s (2×): the arc covers 180°…270° of the r = 10 circle about (187.5, 358),
    /// so its 225° point (180.43, 350.93) pt → px (360, 701) is white, 45° (389, 730) is green.
    @Test func spinnerTurnsWithPeriod12Seconds() throws {
        func stroke(_ t: Double) throws -> (Double, Double) {
            let s = try props("spinner", t)
            return (s.strokeStart, s.strokeEnd)
        }
        let a = try stroke(3.3), b = try stroke(3.9), c = try stroke(4.5), d = try stroke(5.1)
        #expect(abs(a.0 - 0) < 1e-9 && abs(a.1 - 0.25) < 1e-9)
        #expect(abs(b.0 - 0.5) < 1e-9 && abs(b.1 - 0.75) < 1e-9)
        #expect(abs(c.0 - a.0) < 1e-9 && abs(c.1 - a.1) < 1e-9)  // period 1.2 s
        #expect(abs(d.0 - b.0) < 1e-9 && abs(d.1 - b.1) < 1e-9)
        #expect(try props("spinner", 3.5).opacity == 1)
        #expect(try props("signInTitle", 3.5).textColor.alpha == 0)
        #expect(
            abs(
                try props("signInTitle", 3.25).textColor.alpha
                    - (1 - IndependentTiming.bezier(0.42, 0, 0.58, 1, at: 0.5))) < 1e-6)

        let frame = try SeedScene.render(scene, at: 3.9)
        #expect(SeedScene.rgb(frame, 360, 701)[0] > 200)
        #expect(near(SeedScene.rgb(frame, 389, 730), Self.green))
    }

    /// stop: `[self.circle removeAllAnimations]` (strokes back to the model 0), circle opacity 0
    /// and title alpha 1 in 0.5 s; animateToMakeButtonBig: leading 25 / trailing −25 again in
    /// `animateWithDuration: 0.15 … CurveEaseOut` from 6.3 s. Halfway easeOut (0, 0, 0.58, 1)
    /// gives p(0.5) = 0.68464: width 46 + 279 × 0.68464 = 237.02, faster than linear.
    @Test func stopReversesWithEaseOut() throws {
        let s = try props("spinner", 6.31)
        #expect(s.strokeStart == 0 && s.strokeEnd == 0)
        let half = try props("signIn", 6.375)
        #expect(
            abs(half.bounds.width - (46 + 279 * IndependentTiming.bezier(0, 0, 0.58, 1, at: 0.5)))
                < 1e-6)
        #expect(half.position.x == 187.5)
        let back = try props("signIn", 6.45)
        #expect(abs(back.bounds.width - 325) < 1e-9 && back.position.x == 187.5)
        #expect(try props("signInTitle", 6.8).textColor.alpha == 1)
        #expect(try props("spinner", 6.8).opacity == 0)

        let end = try SeedScene.render(scene, at: 7.0)
        #expect(SeedScene.columns(end, row: 716, matching: Self.green) == 50...699)
    }

    // MARK: - Goldens

    @Test
    func goldenIdle() throws {
        try expectFrame(
            SeedScene.render(scene, at: 0),
            match: "Goldens", named: "login-form-idle", options: .seedGolden)
    }

    @Test
    func goldenListOvershoot() throws {
        try expectFrame(
            SeedScene.render(scene, at: 17.0 / 30),
            match: "Goldens", named: "login-form-overshoot", options: .seedGolden)
    }

    @Test
    func goldenListOpen() throws {
        try expectFrame(
            SeedScene.render(scene, at: 1.5),
            match: "Goldens", named: "login-form-open", options: .seedGolden)
    }

    @Test
    func goldenSpinner() throws {
        try expectFrame(
            SeedScene.render(scene, at: 3.9),
            match: "Goldens", named: "login-form-spinner", options: .seedGolden)
        try expectFrame(
            SeedScene.render(scene, at: 3.9, scale: 3),
            match: "Goldens", named: "login-form-spinner-3x", options: .seedGolden)
    }
}
