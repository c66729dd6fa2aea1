import FlipbookGeometry
import Testing
@testable import FlipbookText

/// CATextLayer layout rules. Word widths come from fontTools hmtx sums (DejaVu Sans,
/// 20 pt, units · 20 / 2048): The 37.197, quick 53.506, brown 62.188, fox 31.113,
/// jumps 60.830, over 44.600, the 32.822, lazy 40.146, dog 37.627, space 6.357, "…" 20.0.
/// Greedy filling of a 145 pt line then gives the lines below, each decision by a margin
/// of ≥ 6 pt (so GPOS kerning of a point or less cannot change it).
struct LayoutTests {
    static let sentence = "The quick brown fox jumps over the lazy dog"
    static let expectedLines = ["The quick", "brown fox", "jumps over", "the lazy dog"]
    /// (ascender − descender + lineGap) · 20 / 2048 with hhea 1901, −483, 0 (fontTools).
    static let lineHeight20 = 2384.0 * 20 / 2048
    static let ascent20 = 1901.0 * 20 / 2048

    @Test func firstBaselineAndLineHeightFollowFontMetrics() throws {
        let layout = try TextTest.layout("A\nB\n\nC", size: 20)
        #expect(layout.lines.map(\.text) == ["A", "B", "", "C"])
        for (i, line) in layout.lines.enumerated() {
            #expect(abs(line.baseline - (Self.ascent20 + Double(i) * Self.lineHeight20)) < 1e-9)
        }
    }

    @Test func wrapsAtWordBoundaries() throws {
        let layout = try TextTest.layout(
            Self.sentence, size: 20, box: Size(145, 500), wrapped: true)
        #expect(layout.lines.map(\.text) == Self.expectedLines)
        let expectedWidths = [97.061, 99.658, 111.787, 123.311]
        for (line, width) in zip(layout.lines, expectedWidths) {
            #expect(abs(line.width - width) < 1.5)  // hmtx sum ± kerning
            #expect(line.x == 0)
        }
    }

    @Test func unwrappedTextOverflowsTheBox() throws {
        let layout = try TextTest.layout(Self.sentence, size: 20, box: Size(145, 30))
        #expect(layout.lines.map(\.text) == [Self.sentence])
        #expect(layout.lines[0].width > 145)
        #expect((layout.path.controlBounds?.maxX ?? 0) > 145)
    }

    @Test func overlongWordBreaksByCharacters() throws {
        let layout = try TextTest.layout(
            "Supercalifragilistic", size: 20, box: Size(60, 500), wrapped: true)
        #expect(layout.lines.count > 2)
        #expect(layout.lines.map(\.text).joined() == "Supercalifragilistic")
        #expect(layout.lines.allSatisfy { $0.width <= 60 })
    }

    /// WenQuanYi ideographs are 1 em wide: 20 pt each, so 50 pt holds two per line.
    @Test func cjkBreaksBetweenIdeographs() throws {
        let layout = try TextTest.layout("你好世界你好", size: 20, box: Size(50, 500), wrapped: true)
        #expect(layout.lines.map(\.text) == ["你好", "世界", "你好"])
        #expect(layout.missingCharacters == 0)
    }

    @Test func centerAndRightAlignment() throws {
        let box = Size(300, 100)
        let center = try TextTest.layout("Hello", size: 20, box: box, alignment: .center).lines[0]
        let right = try TextTest.layout("Hello", size: 20, box: box, alignment: .right).lines[0]
        let hello = 5191.0 * 20 / 2048  // hmtx sum, no kerning pairs (fontTools)
        #expect(abs(center.x - (300 - hello) / 2) < 1e-9)
        #expect(abs(right.x - (300 - hello)) < 1e-9)
        let glyphs = try TextTest.layout("Hello", size: 20, box: box, alignment: .right).glyphs
        #expect(abs(glyphs[0].origin.x - (300 - hello)) < 1e-9)
    }

    @Test func justifiedStretchesAllButTheLastLine() throws {
        let layout = try TextTest.layout(
            Self.sentence, size: 20, box: Size(145, 500), alignment: .justified,
            wrapped: true)
        #expect(layout.lines.map(\.text) == Self.expectedLines)
        for line in layout.lines.dropLast() { #expect(abs(line.width - 145) < 1e-9) }
        #expect(layout.lines.last!.width < 140)
        // The last glyph of a justified line ends at the box's right edge.
        let first = layout.glyphs.filter { $0.line == 0 }.last!
        #expect(abs(first.origin.x + first.advance - 145) < 1e-9)
    }

    /// "Hello world" is 112.1 pt; in 100 pt: "Hello w…" is 93.4 pt and "Hello wo…"
    /// 105.6 pt (fontTools sums), so end truncation keeps "Hello w".
    @Test func endTruncationEndsWithEllipsisAndFits() throws {
        let layout = try TextTest.layout(
            "Hello world", size: 20, box: Size(100, 30), truncation: .end)
        #expect(layout.lines.map(\.text) == ["Hello w…"])
        #expect(layout.lines[0].width <= 100)
        #expect(layout.glyphs.last?.character == "…")
    }

    @Test func startAndMiddleTruncation() throws {
        let start = try TextTest.layout(
            "Hello world", size: 20, box: Size(100, 30), truncation: .start
        ).lines[0]
        #expect(start.text.hasPrefix("…") && "Hello world".hasSuffix(start.text.dropFirst()))
        #expect(start.width <= 100)
        let middle = try TextTest.layout(
            "Hello world", size: 20, box: Size(100, 30), truncation: .middle
        ).lines[0]
        let parts = middle.text.split(separator: "…", omittingEmptySubsequences: false)
        #expect(
            parts.count == 2 && "Hello world".hasPrefix(parts[0])
                && "Hello world".hasSuffix(parts[1]))
        #expect(!parts[0].isEmpty && !parts[1].isEmpty && middle.width <= 100)
    }

    @Test func fittingTextIsNotTruncated() throws {
        let layout = try TextTest.layout("Hello", size: 20, box: Size(100, 30), truncation: .end)
        #expect(layout.lines.map(\.text) == ["Hello"])
    }

    /// Two lines fit in 50 pt (line height 23.28 pt); the second takes the rest of the
    /// text and ends with the ellipsis.
    @Test func wrappedTruncationCutsTheLastVisibleLine() throws {
        let layout = try TextTest.layout(
            Self.sentence, size: 20, box: Size(145, 50), wrapped: true, truncation: .end)
        #expect(layout.lines.count == 2)
        #expect(layout.lines[0].text == "The quick")
        #expect(layout.lines[1].text.hasPrefix("brown fox") && layout.lines[1].text.hasSuffix("…"))
        #expect(layout.lines[1].width <= 145)
    }

    @Test func wrappedWithoutTruncationDrawsEveryLine() throws {
        let layout = try TextTest.layout(Self.sentence, size: 20, box: Size(145, 30), wrapped: true)
        #expect(layout.lines.count == 4)
    }
}
