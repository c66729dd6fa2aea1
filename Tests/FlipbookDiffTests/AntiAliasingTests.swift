import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookDiff

/// Anti-aliased edges moved by a fraction of a pixel, drawn by the project's rasterizer.
@Suite struct AntiAliasingTests {
    /// A black rectangle 10 px wide, rows 5…14, on white, its left edge at `x`.
    static func rectangle(at x: Double, width: Int = 40, height: Int = 20) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        p.fill(.white)
        p.fill(
            .rect(Rect(x: x, y: 5, width: 10, height: 10)), transform: .identity, rule: .nonZero,
            paint: .solid(.black))
        return p
    }

    /// Moving the edges from x = 10 to 10.3 changes exactly two columns (10: coverage
    /// 1 → 0.7, gray 0 → 77; 20: 0 → 0.3, gray 255 → 178), 10 rows each; both steps
    /// exceed the threshold (|Δgray| ≈ 77 > 26.4), and every one is anti-aliasing.
    @Test func subpixelShiftIsAllAntiAliasing() {
        let a = Self.rectangle(at: 10), b = Self.rectangle(at: 10.3)
        let changed = changedPixels(a, b)
        #expect(changed.count == 20)
        #expect(Set(changed.map(\.x)) == [10, 20])
        let d = ImageComparator.compare(a, b)
        #expect(d.differingPixels == 0)
        #expect(d.antiAliasedPixels == 20)
        #expect(d.bounds == nil)
        #expect(d.withinTolerance)
        // Counted when asked: the same 20 pixels, bounded by the two columns.
        let counted = ImageComparator.compare(a, b, options: DiffOptions(includeAntiAliased: true))
        #expect(counted.differingPixels == 20)
        #expect(counted.antiAliasedPixels == 0)
        #expect(counted.bounds == PixelBounds(x: 10, y: 5, width: 11, height: 10))
    }

    @Test func shiftInBothAxesIsStillAntiAliasing() {
        var a = Pixmap(width: 40, height: 40), b = a
        a.fill(.white); b.fill(.white)
        a.fill(
            .rect(Rect(x: 10, y: 10, width: 15, height: 12)), transform: .identity, rule: .nonZero,
            paint: .solid(.black))
        b.fill(
            .rect(Rect(x: 10.25, y: 10.4, width: 15, height: 12)), transform: .identity,
            rule: .nonZero,
            paint: .solid(.black))
        let d = ImageComparator.compare(a, b)
        #expect(d.differingPixels == 0)
        #expect(d.antiAliasedPixels > 0)
    }

    /// A real change beside a moved edge: the 3×3 block counts, the edge does not.
    @Test func realChangeNextToAMovedEdgeStillCounts() {
        let a = Self.rectangle(at: 10)
        var b = Self.rectangle(at: 10.3)
        paint(&b, x: 30, y: 2, w: 3, h: 3, (255, 0, 0))
        let d = ImageComparator.compare(a, b)
        #expect(d.differingPixels == 9)
        #expect(d.antiAliasedPixels == 20)
        #expect(d.bounds == PixelBounds(x: 30, y: 2, width: 3, height: 3))
    }

    /// A hard-edged 1-px line appearing is not anti-aliasing: its pixels have no darker
    /// and brighter neighbours on both sides in a slope.
    @Test func newHardLineIsNotAntiAliasing() {
        let a = solid(20, 20, (255, 255, 255))
        var b = a
        paint(&b, x: 4, y: 10, w: 12, h: 1, (0, 0, 0))
        #expect(ImageComparator.compare(a, b).differingPixels == 12)
    }

    @Test func manySiblingsCountsBordersAsOne() {
        let p = solid(5, 5, (9, 9, 9))
        p.data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt32.self) { words in
                let detector = AntiAliasDetector(width: 5, height: 5)
                #expect(detector.hasManySiblings(x: 0, y: 0, in: words))
                #expect(detector.hasManySiblings(x: 2, y: 2, in: words))
            }
        }
    }

    private func changedPixels(_ a: Pixmap, _ b: Pixmap) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                out.append((x, y))
            }
        }
        return out
    }
}
