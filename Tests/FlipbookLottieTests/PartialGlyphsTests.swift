import Foundation
import Testing
import Flipbook
@testable import FlipbookLottie
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene

/// A text whose characters `chars` covers only in part, under `--lottie-compat
/// core-animation`: covered characters drawn from their glyph shapes, the rest from the
/// Core Text font (Nimbus Sans standing in for Helvetica), on one line.
///
/// The fixture's font "Blocky" (family "Blocky", style "Regular") has a glyph for "H" only:
/// a 40 × 70 rectangle from x = 10 at size 100, `w` 60. Its "I" glyph is exported for the
/// Bold style, so it must not match. The text "HIH" at size 50 stands at (20, 120), so by
/// hand: the first H covers x 25…45, its pen advances 60 × 0.5 = 30 to x = 50, where the
/// Nimbus Sans I (AFM: `WX 278`, `B 100 0 194 729`) covers 55…59.7 and advances 13.9, so the
/// second H covers 68.9…88.9; both H's reach from the baseline 35 up.
@Suite struct PartialGlyphsTests {
    static let rectangle = """
        {"ty": "gr", "it": [
          {"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[10, -70], [50, -70], [50, 0], [10, 0]],
            "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}},
          {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]},
           "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}
        """

    static let json = """
        {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 200,
         "fonts": {"list": [{"fName": "Blocky-Regular", "fFamily": "Blocky", "fStyle": "Regular",
                             "ascent": 70}]},
         "chars": [
           {"ch": "H", "size": 100, "style": "Regular", "w": 60, "fFamily": "Blocky",
            "data": {"shapes": [\(rectangle)]}},
           {"ch": "I", "size": 100, "style": "Bold", "w": 90, "fFamily": "Blocky",
            "data": {"shapes": [\(rectangle)]}}],
         "layers": [
          {"ty": 5, "nm": "Text", "ind": 1, "ip": 0, "op": 10, "st": 0,
           "ks": {"p": {"a": 0, "k": [20, 120]}},
           "t": {"d": {"k": [{"t": 0, "s": {"t": "HIH", "f": "Blocky-Regular", "s": 50, "j": 0,
                                           "tr": 0, "fc": [0, 0, 0]}}]}, "a": []}}]}
        """

    /// Runs of columns holding a pixel at least half dark, as (first, last) pairs.
    static func inkColumns(_ image: Pixmap) -> [(Int, Int)] {
        var runs: [(Int, Int)] = []
        for x in 0..<image.width {
            let dark = (0..<image.height).contains { y in
                let p = image.pixel(x: x, y: y)
                return p.a > 128 && p.r < 128
            }
            if !dark { continue }
            if let last = runs.last, last.1 == x - 1 {
                runs[runs.count - 1].1 = x
            } else {
                runs.append((x, x))
            }
        }
        return runs
    }

    /// The glyph of the document's style is found, the other style's is not; advances are
    /// in ems (w / 100).
    @Test func onlyTheDocumentsFamilyAndStyleMatch() throws {
        let scene = try CoreTextLottieTests.load(Self.json, .coreAnimation)
        let (_, text) = try CoreTextLottieTests.textLayer(scene)
        #expect(Array(text.glyphs.keys) == ["H"])
        let h = try #require(text.glyphs["H"])
        let bounds = try #require(h.path.controlBounds)
        let want = [0.1, -0.7, 0.4, 0.7], got = [bounds.x, bounds.y, bounds.width, bounds.height]
        #expect(h.advance == 0.6 && zip(got, want).allSatisfy { abs($0 - $1) < 1e-12 }, "\(got)")
        #expect(text.font == .coreTextName("Blocky-Regular") && text.coreTextFrame)
    }

    /// The covered H's and the font's I share one line at the hand-computed places.
    @Test func coveredAndFallbackCharactersShareTheLine() throws {
        let scene = try CoreTextLottieTests.load(Self.json, .coreAnimation)
        let image = try StillFrame.render(scene, at: 0, size: (200, 200))
        let first = CoreTextLottieTests.firstRow, last = CoreTextLottieTests.lastRow
        let iAdvance = 0.278 * 50
        let expected = [
            (first(25), last(45)), (first(50 + 0.100 * 50), last(50 + 0.194 * 50)),
            (first(50 + iAdvance + 5), last(50 + iAdvance + 25)),
        ]
        let runs = Self.inkColumns(image)
        #expect(runs.count == 3, "\(runs)")
        for (run, want) in zip(runs, expected) {
            #expect(run == want, "\(runs) against \(expected)")
        }
        let (top, bottom) = try #require(try CoreTextLottieTests.darkRows(scene, columns: 25..<45))
        #expect(top == first(120 - 35) && bottom == last(120))
    }

    /// The default profile is unchanged: without glyphs for every character the text is
    /// drawn from the font alone, as fontconfig finds the family and style.
    @Test func defaultProfileDrawsTheFontAlone() throws {
        let (_, text) = try CoreTextLottieTests.textLayer(
            CoreTextLottieTests.load(Self.json, .lottieWeb))
        #expect(text.glyphs.isEmpty && text.font == .family("Blocky:style=Regular"))
    }
}
