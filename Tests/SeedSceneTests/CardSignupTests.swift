import Foundation
import Testing
import FlipbookTesting
import Flipbook
import FlipbookScene
import FlipbookTimeline
import FlipbookGeometry

/// Facts of "The Card Interface For Signing Up" (DGPopUpViewController), checked on
/// scenes/card-signup.yaml from the tutorial's own numbers. Storyboard times are in the
/// scene's header: tap "GUA" at 0.5 s, focus the fields at 2.0, 3.3 and 4.45 s, tap NEXT
/// at 6.1 s.
@Suite struct CardSignupTests {
    static let name = "card-signup"

    // Storyboard instants (see the scene's header comment).
    static let showAt = 0.5  // showInView → showAnimation (0.25 s fade)
    static let popAt = 0.75  // showAnimation's completion → showPopUpView (0.8 s)
    static let focus1At = 2.0  // textFieldDidBeginEditing on "First name"
    static let nextAt = 6.1  // pressAnimation

    // Card frame for 375 × 667: 320 × 480 centered → x 27.5, y 93.5.
    static let cardX = (375.0 - 320) / 2
    static let cardY = (667.0 - 480) / 2

    static func easeOut(_ x: Double) -> Double { IndependentTiming.easeOut(x) }
    static func easeIn(_ x: Double) -> Double { IndependentTiming.easeIn(x) }
    static func easeInEaseOut(_ x: Double) -> Double { IndependentTiming.easeInEaseOut(x) }

    static let accent = [29, 170, 209]  // progressLine: rgb(0.1137, 0.6667, 0.8196) in the xib
    static let dim = 247  // 245 at alpha 0.8 over white: 245·0.8 + 255·0.2

    // MARK: - Fact tests

    /// showAnimation: the view's alpha 0 → 1 in 0.25 s (UIView's default easeInEaseOut).
    /// Halfway (0.125 s) that curve is exactly 0.5 by symmetry, so the background
    /// rgb(245,245,245)·alpha 0.8 shows at half strength: 255 − 10·0.8·0.5 = 251; at the
    /// end 255 − 10·0.8 = 247.
    @Test func dimmedBackgroundFadesInOverAQuarterSecond() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        #expect(timeline.properties(of: "popup", at: Self.showAt)?.opacity == 0)
        let half = try #require(timeline.properties(of: "popup", at: Self.showAt + 0.125)).opacity
        #expect(abs(half - Self.easeInEaseOut(0.5)) < 1e-6)
        #expect(abs(half - 0.5) < 1e-6)
        #expect(timeline.properties(of: "popup", at: Self.showAt + 0.25)?.opacity == 1)

        // (10, 10) pt is far from the card and the "GUA" button: 20, 20 px at 2×.
        #expect(
            SeedScene.rgb(try SeedScene.render(scene, at: Self.showAt), 20, 20) == [255, 255, 255])
        let mid = SeedScene.rgb(try SeedScene.render(scene, at: Self.showAt + 0.125), 20, 20)
        #expect(mid.allSatisfy { abs($0 - 251) <= 1 }, "got \(mid)")
        #expect(
            SeedScene.rgb(try SeedScene.render(scene, at: 1.0), 20, 20) == [
                Self.dim, Self.dim, Self.dim,
            ])
    }

    /// showPopUpView: scale 0 → 1 and alpha 0.5 → 1 in 0.8 s, CurveEaseOut (0, 0, 0.58, 1),
    /// starting when the 0.25-s fade ends. 0.4 s in (half the duration) the scale is
    /// easeOut(0.5) ≈ 0.7915 and the alpha 0.5 + 0.5·that. In pixels, the NEXT button (the
    /// card's full width, 320 pt, card rows 420…480) spans 187.5 ± 160·s pt.
    @Test func cardPopsWithTheEaseOutCurve() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        let t = Self.popAt + 0.4
        let s = Self.easeOut(0.5)
        let card = try #require(timeline.properties(of: "card", at: t))
        #expect(abs(card.transform.scale.x - s) < 1e-6)
        #expect(abs(card.transform.scale.y - s) < 1e-6)
        #expect(abs(card.opacity - (0.5 + 0.5 * s)) < 1e-6)
        // Before the pop the card is at scale 0; at its end, exactly 1.
        #expect(timeline.properties(of: "card", at: Self.popAt)?.transform.scale.x == 0)
        #expect(timeline.properties(of: "card", at: Self.popAt + 0.8)?.transform.scale.x == 1)

        // Row through card y = 425 (button row above the NEXT title): the card turns about
        // its center (187.5, 333.5), so y = 333.5 + (425 − 240)·s.
        let pixmap = try SeedScene.render(scene, at: t)
        let row = Int(((333.5 + 185 * s) * 2).rounded(.down))
        let blue = (0..<pixmap.width).filter { SeedScene.rgb(pixmap, $0, row)[0] < 150 }
        let left = (187.5 - 160 * s) * 2, right = (187.5 + 160 * s) * 2
        let first = try #require(blue.first), last = try #require(blue.last)
        #expect(abs(Double(first) - left) <= 1, "left edge \(first) px, expected \(left)")
        #expect(abs(Double(last + 1) - right) <= 1, "right edge \(last + 1) px, expected \(right)")
    }

    /// textFieldDidBeginEditing: anchorPoint (0, 0.5), transform.scale.x 1 → 280, 0.3 s,
    /// kCAMediaTimingFunctionEaseIn. The xib's line (20, 48, 1, 3) has position
    /// (20.5, 49.5); the anchor change keeps the position, so the left edge is at
    /// 27.5 + 20.5 = 48 pt from then on (96 px at 2×) and never moves while growing; the
    /// width is 1·scale.x pt.
    @Test func progressLineGrowsFromItsLeftEdge() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        let t = Self.focus1At + 0.15
        let line = try #require(timeline.properties(of: "progress1", at: t))
        #expect(line.anchorPoint.x == 0 && line.anchorPoint.y == 0.5)
        #expect(line.position.x == 20.5 && line.position.y == 49.5)
        let scaleX = 1 + 279 * Self.easeIn(0.5)
        #expect(abs(line.transform.scale.x - scaleX) < 1e-6)
        #expect(line.transform.scale.y == 1)

        // Row 446 px = (93.5 + 80 + 49.5)·2 − 0: the middle of the 3-pt line (221.5…224.5 pt).
        let row = 446
        // Before focus: the xib's 1-pt line at 20…21 → screen 47.5…48.5 pt → px 95…96.
        let before = try SeedScene.render(scene, at: Self.focus1At - 0.1)
        #expect(SeedScene.columns(before, row: row, matching: Self.accent) == 95...96)
        // While growing: left edge 96 px, right edge 96 + 2·scaleX.
        let growing = try SeedScene.render(scene, at: t)
        let mid = try #require(SeedScene.columns(growing, row: row, matching: Self.accent))
        #expect(mid.lowerBound == 96)
        #expect(
            abs(Double(mid.upperBound + 1) - (96 + 2 * scaleX)) <= 1,
            "right edge \(mid.upperBound + 1)")
        // Done (kept, fillMode forwards): 280 pt = 560 px from 96.
        let done = try SeedScene.render(scene, at: Self.focus1At + 0.5)
        #expect(SeedScene.columns(done, row: row, matching: Self.accent) == 96...655)
        // At 3×: the card's left edge 27.5·3 = 82.5 px rounds (halves away from zero) to 83;
        // the line (unsnapped, see the scene) starts 20.5·3 = 61.5 px further, at 144.5 px,
        // and is 280·3 = 840 px long, to 984.5 px: whole pixels 145…983, and pixels 144 and
        // 984 half covered. Row: (93.5 + 80 + 49.5)·3 = 669 px is the line's middle; there
        // the card is white at 144 (half: (29 + 255)/2 …) and the grey line at 984.
        let done3 = try SeedScene.render(scene, at: Self.focus1At + 0.5, scale: 3)
        #expect(SeedScene.columns(done3, row: 669, matching: Self.accent) == 145...983)
        let halfLeft = SeedScene.rgb(done3, 144, 669)
        #expect(
            zip(halfLeft, [142, 212, 232]).allSatisfy { abs($0 - $1) <= 2 },
            "pixel 144: \(halfLeft)")
    }

    /// Each focused field keeps its line (removedOnCompletion NO, fillMode forwards, and the
    /// shrink 280 → 1 in textFieldDidEndEditing only runs for an empty field; every field
    /// has text). Just before NEXT all three lines are 280 pt at rows 80 pt apart.
    @Test func filledFieldsKeepTheirLines() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        let t = Self.nextAt - 0.2
        for id in ["progress1", "progress2", "progress3"] {
            #expect(timeline.properties(of: id, at: t)?.transform.scale.x == 280, "\(id)")
        }
        let pixmap = try SeedScene.render(scene, at: t)
        for row in [446, 606, 766] {  // (93.5 + 80·k + 49.5)·2 for k = 1, 2, 3
            #expect(
                SeedScene.columns(pixmap, row: row, matching: Self.accent) == 96...655, "row \(row)"
            )
        }
    }

    /// CAGradientLayer over the 320-pt button: colors rgb(56,195,227) → rgb(16,156,197),
    /// locations 0.3 and 0.8, startPoint (0, 0) → endPoint (1, 0). Up to 30 % of the width
    /// the first color, from 80 % the second, exactly; between, linear in x. Row 1047 px =
    /// (93.5 + 420 + 10)·2 is above the NEXT title.
    @Test func nextButtonGradientStops() throws {
        let scene = try SeedScene.load(Self.name)
        let pixmap = try SeedScene.render(scene, at: Self.nextAt - 0.2)
        let row = 1047
        let c0 = [56, 195, 227], c1 = [16, 156, 197]
        // Pixel x covers [x, x + 1) px; its center (x + 0.5)/2 pt, as a fraction of the width.
        func fraction(_ x: Int) -> Double { ((Double(x) + 0.5) / 2 - Self.cardX) / 320 }
        // 30 %: 27.5 + 96 = 123.5 pt = 247 px; pixel 246 (center 0.2992) is the first stop.
        #expect(fraction(246) < 0.3)
        #expect(SeedScene.rgb(pixmap, 246, row) == c0)
        #expect(SeedScene.rgb(pixmap, 56, row) == c0)  // left end
        // 80 %: 27.5 + 256 = 283.5 pt = 567 px; pixel 567 (center 0.8008) is the second.
        #expect(fraction(567) > 0.8)
        #expect(SeedScene.rgb(pixmap, 567, row) == c1)
        #expect(SeedScene.rgb(pixmap, 694, row) == c1)  // right end
        // Between: interpolated per channel at u = (f − 0.3)/0.5.
        for x in [300, 407, 500] {
            let u = (fraction(x) - 0.3) / 0.5
            let expected = zip(c0, c1).map { Double($0) + (Double($1) - Double($0)) * u }
            let got = SeedScene.rgb(pixmap, x, row)
            #expect(
                zip(got, expected).allSatisfy { abs(Double($0) - $1) <= 1 },
                "x \(x): \(got) vs \(expected)")
        }
        // 55 % (x = 407): about halfway, (36, 175.5, 212).
        #expect(
            zip(SeedScene.rgb(pixmap, 407, row), [36, 175, 212]).allSatisfy { abs($0 - $1) <= 1 })
    }

    /// NEXT: the button shrinks to 0.01 in 0.6 s (CurveEaseInOut), the card after a 0.3-s
    /// delay in 0.6 s; each is removed from its superview when done. easeInEaseOut is
    /// symmetric, so halfway the scale is 1 + (0.01 − 1)·0.5 = 0.505.
    @Test func nextShrinksTheButtonThenTheCard() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        let halfway = 1 + (0.01 - 1) * Self.easeInEaseOut(0.5)
        #expect(abs(halfway - 0.505) < 1e-9)
        let t1 = Self.nextAt + 0.3
        #expect(
            abs((timeline.properties(of: "button", at: t1)?.transform.scale.x ?? 0) - halfway)
                < 1e-6)
        // still in its delay
        #expect(timeline.properties(of: "card", at: t1)?.transform.scale.x == 1)
        let t2 = Self.nextAt + 0.6
        // (+1e-9: 6.1 + 0.6 is 6.6999… in binary floating point; removal happens at 6.7.)
        #expect(timeline.properties(of: "button", at: t2 - 0.001)?.hidden == false)
        #expect(timeline.properties(of: "button", at: t2 + 1e-9)?.hidden == true)
        #expect(
            abs((timeline.properties(of: "card", at: t2)?.transform.scale.x ?? 0) - halfway) < 1e-6)
        #expect(timeline.properties(of: "card", at: Self.nextAt + 0.9 - 0.001)?.hidden == false)
        #expect(timeline.properties(of: "card", at: Self.nextAt + 0.9 + 1e-9)?.hidden == true)

        // Pixels at t1: the button (center (187.5, 543.5)) is 320·0.505 = 161.6 pt wide:
        // 106.7…268.3 pt = 213.4…536.6 px. Row: button y 5 → 543.5 − 25·0.505 = 530.9 pt.
        let pixmap = try SeedScene.render(scene, at: t1)
        let row = Int((530.9 * 2).rounded(.down))
        let blue = (0..<pixmap.width).filter { SeedScene.rgb(pixmap, $0, row)[0] < 150 }
        let first = try #require(blue.first), last = try #require(blue.last)
        #expect(abs(Double(first) - 213.4) <= 1, "left \(first)")
        #expect(abs(Double(last + 1) - 536.6) <= 1, "right \(last + 1)")

        // At t2 the card is at 0.505 about its center (187.5, 333.5) and the kept line
        // (card x 20.5…300.5, i.e. −139.5…+140.5 from the card's center x 160) shrinks with
        // it: 187.5 − 139.5·0.505 = 117.05 pt … 187.5 + 140.5·0.505 = 258.45 pt, i.e.
        // 234.1…516.9 px. Its middle, card y 129.5 (−110.5 from 240), is at
        // 333.5 − 110.5·0.505 = 277.7975 pt → row 555 px.
        let shrinking = try SeedScene.render(scene, at: t2)
        let line = try #require(SeedScene.columns(shrinking, row: 555, matching: Self.accent))
        #expect(abs(Double(line.lowerBound) - 234.1) <= 1.5, "line left \(line.lowerBound)")
        #expect(
            abs(Double(line.upperBound + 1) - 516.9) <= 1.5, "line right \(line.upperBound + 1)")
    }

    /// endAnimation: the logo, centered on the view (187.5, 333.5), goes from scale 0 to
    /// 0.6 in 1.4 s (CurveEaseInOut) once the card's close animation completes (NEXT +
    /// 0.3 + 0.6 s). Halfway 0.3; at and after the end 0.6, so the 200-pt disc is 120 pt
    /// wide: 127.5…247.5 pt = 255…494 px on the center row (667 px).
    @Test func endLogoGrowsToSixTenths() throws {
        let scene = try SeedScene.load(Self.name)
        let timeline = Timeline(scene: scene)
        let start = Self.nextAt + 0.9
        #expect(timeline.properties(of: "logo", at: start)?.transform.scale.x == 0)
        let half = try #require(timeline.properties(of: "logo", at: start + 0.7)).transform.scale.x
        #expect(abs(half - 0.6 * Self.easeInEaseOut(0.5)) < 1e-6)
        for t in [start + 1.4, scene.canvas.duration - 1.0 / 30] {
            let logo = try #require(timeline.properties(of: "logo", at: t))
            #expect(logo.transform.scale == Point(0.6, 0.6), "at \(t)")
            #expect(logo.position == Point(187.5, 333.5))
        }
        let pixmap = try SeedScene.render(scene, at: scene.canvas.duration - 1.0 / 30)
        #expect(SeedScene.columns(pixmap, row: 667, matching: Self.accent) == 255...494)
        // Card and button are gone: the row through the old button shows only the dim background.
        #expect(
            SeedScene.columns(
                pixmap, row: 1047, matching: [Self.dim, Self.dim, Self.dim], tolerance: 0)
                == 0...749)
    }

    // MARK: - Goldens (recorded once text rendering lands)

    @Test(
        arguments: [
            ("pop", 1.15), ("focus1", 2.15), ("filled", 5.9), ("shrink", 6.55), ("logo", 8.9),
        ])
    func golden(_ label: String, _ seconds: Double) throws {
        let scene = try SeedScene.load(Self.name)
        try expectFrame(
            SeedScene.render(scene, at: seconds),
            match: "Goldens", named: "\(Self.name)-\(label)", options: .seedGolden)
    }

    @Test
    func golden3x() throws {
        let scene = try SeedScene.load(Self.name)
        try expectFrame(
            SeedScene.render(scene, at: 5.9, scale: 3),
            match: "Goldens", named: "\(Self.name)-filled-3x", options: .seedGolden)
    }

    @Test
    func golden1x() throws {
        let scene = try SeedScene.load(Self.name)
        try expectFrame(
            SeedScene.render(scene, at: 5.9, scale: 1),
            match: "Goldens", named: "\(Self.name)-filled-1x", options: .seedGolden)
    }
}
