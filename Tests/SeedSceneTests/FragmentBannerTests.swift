import Foundation
import Testing
import FlipbookTesting
import Flipbook
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Fact tests for scenes/fragment-banner.yaml (seed 3-fragment-mask.md, 碎片动画).
///
/// The tutorial's numbers:
/// - horizontalCount = 15, verticalCount = 2: on the 375 × 180 banner at (0, 64) a tile is
///   375 / 15 = 25 pt wide and 180 / 2 = 90 pt high; tile `idx = line × verticalCount + row`
///   sits at (25·line, 64 + 90·row).
/// - fadeAnimationDuration = LXDMINDURATION = 0.2 s, intervalDuration = 0.2 × LXDMULTIPLED
///   = 0.05 s, curve linear: tile idx of a fade that begins at T has
///   alpha(t) = clamp(1 − (t − T − 0.05·idx) / 0.2, 0, 1).
/// - One image lasts (verticalCount × horizontalCount + 3) × intervalDuration = 33 × 0.05
///   = 1.65 s; the carousel starts at the tap, 0.5 s, so fades begin at 0.5, 2.15, 3.8.
/// - UIPageControl frame (0, 64 + 180 − 37, 375, 37); 3 dots 7 pt wide, 16 pt apart, centred:
///   centres x = 187.5 − 16 = 171.5, 187.5, 203.5 at y = 207 + 18.5 = 225.5.
@Suite struct FragmentBannerTests {
    static let tap = 0.5
    static let interval = 0.05
    static let fadeDuration = 0.2
    static let imageDuration = Double(2 * 15 + 3) * 0.05  // 1.65 s

    /// The linear fade of tile `idx` of a fade that begins at `begin`.
    static func alpha(tile idx: Int, at t: Double, fadeBegins begin: Double) -> Double {
        min(max(1 - (t - begin - interval * Double(idx)) / fadeDuration, 0), 1)
    }

    /// Begin of fade `n` (0, 1, 2): 0.5 + 1.65·n.
    static func fadeBegin(_ n: Int) -> Double { tap + imageDuration * Double(n) }

    /// Centre of tile idx in points (line = idx / 2, row = idx % 2).
    static func tileCentre(_ idx: Int) -> (x: Double, y: Double) {
        (25 * Double(idx / 2) + 12.5, 64 + 90 * Double(idx % 2) + 45)
    }

    static func px(_ pixmap: Pixmap, _ x: Double, _ y: Double, scale: Double) -> [Int] {
        SeedScene.rgb(pixmap, Int((x * scale).rounded(.down)), Int((y * scale).rounded(.down)))
    }

    /// The mask replicators carry the tutorial's grid: 15 columns 25 pt apart, delay 2 × 0.05
    /// (idx = line × 2 + row), holding 2 rows 90 pt apart, delay 0.05, holding one 25 × 90 tile;
    /// so tile idx sees the template's animation 0.1·line + 0.05·row = 0.05·idx later.
    @Test func maskIsAReplicatorGridWithTheTutorialsDelays() throws {
        let scene = try SeedScene.load("fragment-banner")
        for slide in ["slide0", "slide1", "slide2"] {
            let layer = try #require(scene.layers.first { $0.id == slide })
            #expect(layer.properties.bounds.width == 375 && layer.properties.bounds.height == 180)
            let columns = try #require(layer.mask)
            let columnReplicator = try #require(columns.replicator)
            #expect(columnReplicator.instanceCount == 15)
            #expect(abs(columnReplicator.instanceDelay - 2 * Self.interval) < 1e-12)
            #expect(columns.properties.instanceTransform.translation == Point(25, 0))
            let rows = try #require(columns.sublayers.first)
            let rowReplicator = try #require(rows.replicator)
            #expect(rowReplicator.instanceCount == 2)
            #expect(abs(rowReplicator.instanceDelay - Self.interval) < 1e-12)
            #expect(rows.properties.instanceTransform.translation == Point(0, 90))
            let tile = try #require(rows.sublayers.first)
            #expect(tile.properties.bounds.width == 25 && tile.properties.bounds.height == 90)
            for idx in 0..<30 {
                let delay =
                    Double(idx / 2) * columnReplicator.instanceDelay
                    + Double(idx % 2) * rowReplicator.instanceDelay
                #expect(abs(delay - Self.interval * Double(idx)) < 1e-9, "tile \(idx)")
            }
        }
    }

    /// Model values: the one template tile's opacity, seen idx × 0.05 s late, is the linear
    /// fade. At t = 1.0 (0.5 s into fade 1): idx ≤ 6 are gone (0.05·6 + 0.2 = 0.5),
    /// idx 7 → 1 − (0.5 − 0.35)/0.2 = 0.25, idx 8 → 0.5, idx 9 → 0.75, idx ≥ 10 still 1.
    @Test func templateTileOpacityIsTheLinearFadeDelayedPerTile() throws {
        let timeline = Timeline(scene: try SeedScene.load("fragment-banner"))
        let expected: [Int: Double] = [0: 0, 6: 0, 7: 0.25, 8: 0.5, 9: 0.75, 10: 1, 29: 1]
        for (idx, value) in expected {
            let seen = try #require(
                timeline.properties(of: "slide0Tile", at: 1.0 - Self.interval * Double(idx)))
            #expect(abs(seen.opacity - value) < 1e-9, "tile \(idx)")
            #expect(
                abs(Self.alpha(tile: idx, at: 1.0, fadeBegins: Self.fadeBegin(0)) - value) < 1e-9)
        }
        // The last tile, idx 29, ends at 0.5 + 29 × 0.05 + 0.2 = 2.15 = 0.5 + 1.65.
        let last = try #require(
            timeline.properties(of: "slide0Tile", at: 2.15 - Self.interval * 29))
        #expect(abs(last.opacity) < 1e-9)
        let justBefore = try #require(
            timeline.properties(of: "slide0Tile", at: 2.1 - Self.interval * 29))
        #expect(abs(justBefore.opacity - 0.25) < 1e-9)
    }

    /// Pixels, all three fades: half a second into fade n, every tile's centre shows
    /// alpha · current + (1 − alpha) · next, with the current and next images read from the
    /// frames where each is whole (the fade's begin and the next fade's begin).
    @Test(arguments: [0, 1, 2])
    func everyTileShowsTheStaggeredMixOfCurrentAndNextImage(fade n: Int) throws {
        let scene = try SeedScene.load("fragment-banner")
        let begin = Self.fadeBegin(n)
        let current = try SeedScene.render(scene, at: begin, scale: 2)
        let next = try SeedScene.render(scene, at: Self.fadeBegin(n + 1), scale: 2)
        let t = begin + 0.5
        let frame = try SeedScene.render(scene, at: t, scale: 2)
        for idx in 0..<30 {
            let (x, y) = Self.tileCentre(idx)
            let a = Self.alpha(tile: idx, at: t, fadeBegins: begin)
            let c = Self.px(current, x, y, scale: 2), b = Self.px(next, x, y, scale: 2)
            let seen = Self.px(frame, x, y, scale: 2)
            let want = (0..<3).map { Double(c[$0]) * a + Double(b[$0]) * (1 - a) }
            for ch in 0..<3 {
                #expect(
                    abs(Double(seen[ch]) - want[ch]) <= 3,
                    "fade \(n + 1) tile \(idx) alpha \(a): \(seen) vs \(want)")
            }
            if (7...9).contains(idx) {
                // The half-faded tiles must be able to tell the two images apart: a channel
                // differs by 10× the tolerance of the mix check above.
                #expect(
                    (0..<3).map { abs(c[$0] - b[$0]) }.max()! >= 30, "fade \(n + 1) tile \(idx)")
            }
        }
    }

    /// Tile edges land on 25-pt columns at every scale: at t = 1.0 row 0 is revealed up to
    /// line 3 (idx 6 done) and line 4 (idx 8) is at alpha 0.5, so the column x = 100 pt
    /// (100, 200, 300 px at 1×, 2×, 3×) is the first half-mixed one, and the one before it is
    /// the next image unmixed.
    @Test(arguments: [1.0, 2.0, 3.0])
    func tileEdgesSitOnTheGridAtEveryScale(scale: Double) throws {
        let scene = try SeedScene.load("fragment-banner")
        let current = try SeedScene.render(scene, at: 0.5, scale: scale)
        let next = try SeedScene.render(scene, at: 2.15, scale: scale)
        let frame = try SeedScene.render(scene, at: 1.0, scale: scale)
        let y = Int((64 + 20) * scale)
        let edge = Int(100 * scale)
        #expect(SeedScene.rgb(frame, edge - 1, y) == SeedScene.rgb(next, edge - 1, y))
        let c = SeedScene.rgb(current, edge, y), b = SeedScene.rgb(next, edge, y)
        let seen = SeedScene.rgb(frame, edge, y)
        for ch in 0..<3 {
            #expect(abs(Double(seen[ch]) - Double(c[ch] + b[ch]) / 2) <= 3, "\(seen) \(c) \(b)")
        }
        #expect(abs(c[0] - b[0]) + abs(c[1] - b[1]) + abs(c[2] - b[2]) >= 60)
        // Line 5 (idx 10) has not started: the current image, unmixed.
        let after = Int(125 * scale)
        #expect(SeedScene.rgb(frame, after, y) == SeedScene.rgb(current, after, y))
    }

    /// currentPage follows the completed fades: 0 until 2.15, 1 until 3.8, 2 until 5.45, then
    /// the carousel wraps to 0. The current dot is opaque white, the others white at 50 %.
    @Test(arguments: [(1.0, 0), (2.5, 1), (4.0, 2), (5.7, 0)])
    func pageControlHighlightsTheCurrentPage(at t: Double, page: Int) throws {
        let scene = try SeedScene.load("fragment-banner")
        let timeline = Timeline(scene: scene)
        let dot = try #require(timeline.properties(of: "currentDot", at: t))
        #expect(dot.position.x == 171.5 + 16 * Double(page))
        #expect(dot.position.y == 18.5)  // in the page control: 207 + 18.5 = 225.5 on screen
        let frame = try SeedScene.render(scene, at: t, scale: 2)
        for k in 0..<3 {
            let centre = Self.px(frame, 171.5 + 16 * Double(k), 225.5, scale: 2)
            if k == page {
                #expect(centre == [255, 255, 255], "dot \(k) at \(t)")
            } else {
                #expect(centre.min()! < 235, "dot \(k) at \(t): \(centre)")
            }
        }
    }

    /// The page control is the superview's, above the image view, so it does not fade with
    /// the tiles (the tutorial's reason for moving it). At t = 1.25 tile idx 12 (line 6,
    /// row 0) and the tile under dot 0 (line 6, row 1: idx 13, x 150…175, y 154…244) is at
    /// 1 − (0.75 − 0.65)/0.2 = 0.5, yet the current dot's centre is still pure white.
    @Test func pageDotsStayAboveTheFadingTiles() throws {
        let scene = try SeedScene.load("fragment-banner")
        #expect(abs(Self.alpha(tile: 13, at: 1.25, fadeBegins: 0.5) - 0.5) < 1e-9)
        let frame = try SeedScene.render(scene, at: 1.25, scale: 2)
        let current = try SeedScene.render(scene, at: 0.5, scale: 2)
        let next = try SeedScene.render(scene, at: 2.15, scale: 2)
        #expect(Self.px(frame, 171.5, 225.5, scale: 2) == [255, 255, 255])
        // Next to the dot, in the same tile, the image is half faded.
        let c = Self.px(current, 160, 225.5, scale: 2), b = Self.px(next, 160, 225.5, scale: 2)
        let seen = Self.px(frame, 160, 225.5, scale: 2)
        for ch in 0..<3 {
            #expect(abs(Double(seen[ch]) - Double(c[ch] + b[ch]) / 2) <= 3, "\(seen) \(c) \(b)")
        }
        #expect(seen != [255, 255, 255])
    }

    @Test
    func goldenFrames() throws {
        let scene = try SeedScene.load("fragment-banner")
        for (t, name) in [
            (0.0, "idle"), (1.0, "fade1"), (2.65, "fade2"), (4.3, "fade3"), (5.7, "wrapped"),
        ] {
            try expectFrame(
                SeedScene.render(scene, at: t),
                match: "Goldens", named: "fragment-banner-\(name)", options: .seedGolden)
        }
    }
}
