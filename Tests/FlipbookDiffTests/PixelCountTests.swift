import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookDiff

/// Known pixel counts on constructed images; thresholds worked out by hand from the YIQ
/// formula (see ``ColorDelta``).
@Suite struct PixelCountTests {
    @Test func recoloredSquareIsExactlyItsHundredPixels() {
        let a = solid(40, 30, (255, 255, 255))
        var b = a
        paint(&b, x: 10, y: 8, w: 10, h: 10, (0, 0, 255))
        let d = ImageComparator.compare(a, b)
        #expect(d.differingPixels == 100)
        #expect(d.antiAliasedPixels == 0)
        #expect(d.bounds == PixelBounds(x: 10, y: 8, width: 10, height: 10))
        #expect(d.ratio == 100.0 / 1200.0)
        #expect(!d.withinTolerance)
    }

    /// Gray steps: dr = dg = db = d gives Y = d (the Y weights sum to 1), I = Q = 0 (their
    /// weights sum to 0), so Δ = 0.5053·d². Threshold 0.1 allows 35215·0.01 = 352.15:
    /// d = 26 gives 341.58 (same), d = 27 gives 368.36 (different).
    @Test func grayStepJustUnderAndOverTheDefaultThreshold() {
        let base = solid(8, 8, (100, 100, 100))
        #expect(ImageComparator.compare(base, solid(8, 8, (126, 126, 126))).differingPixels == 0)
        #expect(ImageComparator.compare(base, solid(8, 8, (127, 127, 127))).differingPixels == 64)
        #expect(ImageComparator.compare(base, solid(8, 8, (73, 73, 73))).differingPixels == 64)
    }

    /// Red only: Y = 0.29889531·d, I = 0.59597799·d, Q = 0.21147017·d, so
    /// Δ = d²·(0.5053·0.0893384 + 0.299·0.3551898 + 0.1957·0.0447196) = 0.1600966·d².
    /// Limit 352.15 → d ≤ 46 is the same (338.7), d = 47 differs (353.6).
    @Test func redStepJustUnderAndOverTheDefaultThreshold() {
        let base = solid(8, 8, (100, 50, 50))
        #expect(ImageComparator.compare(base, solid(8, 8, (146, 50, 50))).differingPixels == 0)
        #expect(ImageComparator.compare(base, solid(8, 8, (147, 50, 50))).differingPixels == 64)
        // Threshold 0.05: limit 88.04 → d = 23 (84.7) same, d = 24 (92.2) differs.
        let fine = DiffOptions(threshold: 0.05)
        #expect(
            ImageComparator.compare(base, solid(8, 8, (123, 50, 50)), options: fine).differingPixels
                == 0)
        #expect(
            ImageComparator.compare(base, solid(8, 8, (124, 50, 50)), options: fine).differingPixels
                == 64)
    }

    @Test func thresholdZeroCountsAnyChangeAndOneCountsNone() {
        let a = solid(6, 6, (10, 20, 30))
        var b = a
        paint(&b, x: 2, y: 2, w: 1, h: 1, (10, 21, 30))
        #expect(
            ImageComparator.compare(a, b, options: DiffOptions(threshold: 0)).differingPixels == 1)
        #expect(
            ImageComparator.compare(
                a, solid(6, 6, (255, 255, 255)), options: DiffOptions(threshold: 1)
            )
            .differingPixels == 0)
    }

    @Test func transparentAndOpaqueWhiteDiffer() {
        let clear = Pixmap(width: 4, height: 4)
        #expect(ImageComparator.compare(clear, solid(4, 4, (255, 255, 255))).differingPixels == 16)
        #expect(ImageComparator.compare(clear, solid(4, 4, (0, 0, 0))).differingPixels == 16)
    }

    /// One channel of one pixel off by d in an N-pixel frame: MSE = d² / (4N).
    @Test func psnrFollowsItsDefinition() {
        let a = solid(10, 10, (50, 50, 50))
        var b = a
        paint(&b, x: 3, y: 4, w: 1, h: 1, (90, 50, 50))
        let d = ImageComparator.compare(a, b)
        let expected = 10 * log10(255.0 * 255.0 * 400.0 / 1600.0)
        #expect(abs(d.psnr - expected) < 1e-9)
        #expect(ImageComparator.compare(a, a).psnr == .infinity)
    }

    @Test func ignoreRegionsLeavePixelsOut() {
        let a = solid(40, 30, (255, 255, 255))
        var b = a
        paint(&b, x: 10, y: 8, w: 10, h: 10, (0, 0, 255))
        let all = DiffOptions(ignoreRegions: [PixelBounds(x: 5, y: 5, width: 20, height: 20)])
        #expect(ImageComparator.compare(a, b, options: all).differingPixels == 0)
        // Columns 10…14 ignored: the other half, 50 px, still counts.
        let half = DiffOptions(ignoreRegions: [PixelBounds(x: 0, y: 0, width: 15, height: 30)])
        let d = ImageComparator.compare(a, b, options: half)
        #expect(d.differingPixels == 50)
        #expect(d.bounds == PixelBounds(x: 15, y: 8, width: 5, height: 10))
        // Overlapping regions count once: 15×30 ∪ 10×30 shifted by 10 = 25×30.
        #expect(
            ImageComparator.ignoredArea(
                [
                    PixelBounds(x: 0, y: 0, width: 15, height: 30),
                    PixelBounds(x: 10, y: 0, width: 15, height: 30),
                ],
                width: 40, height: 30) == 750)
    }

    @Test func toleranceLimits() {
        let a = solid(40, 30, (255, 255, 255))
        var b = a
        paint(&b, x: 10, y: 8, w: 10, h: 10, (0, 0, 255))
        #expect(
            ImageComparator.compare(a, b, options: DiffOptions(maxDiffPixels: 100)).withinTolerance)
        #expect(
            !ImageComparator.compare(a, b, options: DiffOptions(maxDiffPixels: 99)).withinTolerance)
        #expect(
            ImageComparator.compare(a, b, options: DiffOptions(maxDiffRatio: 0.09)).withinTolerance)
        #expect(
            !ImageComparator.compare(a, b, options: DiffOptions(maxDiffRatio: 0.08)).withinTolerance
        )
        #expect(
            !ImageComparator.compare(
                a, b, options: DiffOptions(maxDiffPixels: 200, maxDiffRatio: 0.08)
            )
            .withinTolerance)
    }

    /// Frames of 64+ rows are scanned in parallel bands: counts and bounds stay exact.
    @Test func bandedScanCountsExactly() {
        let a = solid(300, 260, (255, 255, 255))
        var b = a
        paint(&b, x: 5, y: 3, w: 10, h: 10, (0, 0, 0))  // first band
        paint(&b, x: 100, y: 60, w: 20, h: 10, (0, 0, 0))  // across a band edge
        paint(&b, x: 280, y: 250, w: 20, h: 10, (0, 0, 0))  // last rows
        let d = ImageComparator.compare(a, b, keepClasses: true)
        #expect(d.differingPixels == 100 + 200 + 200)
        #expect(d.bounds == PixelBounds(x: 5, y: 3, width: 295, height: 257))
        #expect(d.classes.filter { $0 == PixelClass.differing.rawValue }.count == 500)
    }

    @Test func ignoreRegionParsing() {
        #expect(PixelBounds(parsing: "1,2,3,4") == PixelBounds(x: 1, y: 2, width: 3, height: 4))
        #expect(PixelBounds(parsing: "1, 2, 3, 4") == PixelBounds(x: 1, y: 2, width: 3, height: 4))
        #expect(PixelBounds(parsing: "1,2,0,4") == nil)
        #expect(PixelBounds(parsing: "1,2,3") == nil)
        #expect(PixelBounds(parsing: "-1,2,3,4") == nil)
    }
}

/// An opaque pixmap of one color.
func solid(_ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8)) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    paint(&p, x: 0, y: 0, w: w, h: h, c)
    return p
}

/// Sets a rectangle of pixels to an opaque color (no anti-aliasing).
func paint(_ p: inout Pixmap, x: Int, y: Int, w: Int, h: Int, _ c: (UInt8, UInt8, UInt8)) {
    for row in y..<(y + h) {
        for col in x..<(x + w) {
            let i = (row * p.width + col) * 4
            p.data[i] = c.0; p.data[i + 1] = c.1; p.data[i + 2] = c.2; p.data[i + 3] = 255
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
