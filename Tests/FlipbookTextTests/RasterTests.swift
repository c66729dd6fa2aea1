import FlipbookGeometry
import FlipbookRaster
import Testing
@testable import FlipbookText

/// Text through the project's exact-area rasterizer: ink stays in the line's box and
/// unhinted outlines are still crisp where stems cover whole pixels.
struct RasterTests {
    /// "Hello" at 17 pt, baseline moved to y = 20 exactly, pen at x = 2.
    @Test func helloRendersInsideItsBoxWithCrispStems() throws {
        let layout = try TextTest.layout("Hello", size: 17, box: Size(100, 30))
        let line = layout.lines[0]
        let dy = 20 - line.baseline
        var pixmap = Pixmap(width: 64, height: 32)
        pixmap.fill(
            layout.path, transform: .translation(2, dy), rule: .nonZero, paint: .solid(.black))

        // Expected ink box: pen advance horizontally, ascender..descender vertically
        // (DejaVu hhea 1901 / −483 units, fontTools), ±1 px for anti-aliasing.
        let top = 20 - 1901.0 * 17 / 2048, bottom = 20 + 483.0 * 17 / 2048
        var inked = 0
        for y in 0..<pixmap.height {
            for x in 0..<pixmap.width where pixmap.pixel(x: x, y: y).a > 0 {
                inked += 1
                #expect(Double(x) >= 2 - 1 && Double(x) <= 2 + line.width + 1)
                #expect(Double(y) >= top - 1 && Double(y) <= bottom + 1)
            }
        }
        #expect(inked > 100)

        // The "l" stems (glyf x 193…377 units = 1.53 px wide, fontTools): each has a
        // column at ≥ 0.9 coverage over the x-height rows (y 12…19).
        for glyph in layout.glyphs where glyph.character == "l" {
            let stem0 = 2 + glyph.origin.x + 193.0 * 17 / 2048,
                stem1 = 2 + glyph.origin.x + 377.0 * 17 / 2048
            let columns = Int(stem0.rounded(.down))...Int(stem1.rounded(.down))
            let crisp = columns.contains { x in
                (12...19).allSatisfy { y in pixmap.pixel(x: x, y: y).a >= 230 }
            }
            #expect(crisp)
        }
        // The tallest glyph is "l" (glyf yMax 1556 units, fontTools): its top is at
        // y = 20 − 12.92 = 7.08, so the row above (6) is empty.
        for x in 0..<pixmap.width { #expect(pixmap.pixel(x: x, y: 6).a == 0) }
        #expect((0..<pixmap.width).contains { pixmap.pixel(x: $0, y: 7).a > 0 })
    }
}
