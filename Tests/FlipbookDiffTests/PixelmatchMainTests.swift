import Testing
@testable import FlipbookDiff

/// pixelmatch's main branch (OKLab HyAB with the Lr toe, checkerboard backdrop, anti-aliasing
/// brightness over white, `windowSize`): every count its test/test.js expects, then counts of
/// further option combinations that its index.js returns on the same fixtures, run by node
/// (`scripts/pixelmatch-main-counts`; the source is ../shared/pixelmatch/main). None is
/// recorded from this code.
///
/// pixelmatch's options map to ``DiffOptions`` as: threshold → `threshold`, includeAA →
/// `includeAntiAliased`, checkerboard (default true) → `backdrop: .checkerboard`, false →
/// `.white`, windowSize → `window`; main has only the OKLab metric, so `metric: .oklab`.
/// alpha, aaColor, diffColor, diffColorAlt and diffMask only change the drawn image.
@Suite struct PixelmatchMainTests {
    static func main(
        threshold: Double = 0.1, includeAA: Bool = false, checkerboard: Bool = true,
        window: Int? = nil
    ) -> DiffOptions {
        DiffOptions(
            threshold: threshold, includeAntiAliased: includeAA, metric: .oklab,
            backdrop: checkerboard ? .checkerboard : .white, window: window)
    }

    /// test.js's twelve `diffTest` calls, in its order (the drawing-only options left out):
    /// 1diff, 1diffdefaultthreshold, 1diffmask (diffMask, includeAA false), 1emptydiffmask,
    /// 2diff (alpha 0.5, aaColor, diffColor), 3diff … 6empty, 7diff (diffColorAlt), 8diff.
    static let testJS: [(String, String, Double, Int)] = [
        ("1a", "1b", 0.05, 154), ("1a", "1b", 0.1, 120), ("1a", "1b", 0.05, 154),
        ("1a", "1a", 0, 0),
        ("2a", "2b", 0.05, 12821), ("3a", "3b", 0.05, 220), ("4a", "4b", 0.05, 36563),
        ("5a", "5b", 0.05, 0),
        ("6a", "6b", 0.05, 51), ("6a", "6a", 0, 0), ("7a", "7b", 0.1, 2440),
        ("8a", "5b", 0.05, 32896),
    ]

    @Test(arguments: testJS.indices) func diffTestCounts(_ i: Int) throws {
        let (a, b, t, expected) = Self.testJS[i]
        let d = try PixelmatchFixtureTests.count(a, b, Self.main(threshold: t))
        #expect(d.differingPixels == expected, "\(a) vs \(b) at \(t)")
    }

    /// test.js, "windowSize on a real fixture": 6a/6b at 0.05 has 51 differing pixels;
    /// window 32 → 29, 8 → 6, as large as the image or larger → 51.
    @Test func windowSizeOnAFixture() throws {
        for (n, expected) in [(32, 29), (8, 6), (256, 51), (100_000, 51)] {
            let d = try PixelmatchFixtureTests.count(
                "6a", "6b", Self.main(threshold: 0.05, window: n))
            #expect(d.windowDifferingPixels == expected, "window \(n)")
            #expect(d.differingPixels == 51)
        }
    }

    /// test.js, "windowSize returns the max diff-pixel count": a black 3×3 block at (2,2)
    /// on a white 10×10 image, anti-aliased pixels included.
    @Test func windowSizeOnABlock() {
        let white = [UInt8](repeating: 255, count: 10 * 10 * 4)
        var block = white
        for y in 2..<5 { for x in 2..<5 { for c in 0..<3 { block[(y * 10 + x) * 4 + c] = 0 } } }
        func count(_ a: [UInt8], _ b: [UInt8], window: Int?, includeAA: Bool = true) -> FrameDiff {
            ImageComparator.compare(
                straightRGBA: a, b, width: 10, height: 10,
                options: Self.main(includeAA: includeAA, window: window))
        }
        #expect(count(white, block, window: nil).differingPixels == 9)
        #expect(count(white, block, window: 3).windowDifferingPixels == 9)
        #expect(count(white, block, window: 2).windowDifferingPixels == 4)
        #expect(count(white, block, window: 100).windowDifferingPixels == 9)
        #expect(count(white, white, window: 3, includeAA: false).windowDifferingPixels == 0)
    }

    /// test.js, "checkerboard: false blends semi-transparent pixels against white":
    /// 50 %-transparent black against opaque (127,127,127).
    @Test func checkerboardOffBlendsOverWhite() {
        let half: [UInt8] = [0, 0, 0, 128], gray: [UInt8] = [127, 127, 127, 255]
        func count(_ checkerboard: Bool) -> Int {
            ImageComparator.compare(
                straightRGBA: half, gray, width: 1, height: 1,
                options: Self.main(checkerboard: checkerboard)
            ).differingPixels
        }
        #expect(count(false) == 0)
        #expect(count(true) == 1)
    }

    /// test.js, "OKLab metric uses Lr toe correction for near-black differences" and
    /// "separates the #127 color pairs at the default threshold".
    @Test(
        arguments: [
            ([0, 0, 0, 255], [13, 13, 13, 255], 0), ([0, 0, 0, 255], [23, 23, 23, 255], 1),
            ([41, 56, 157, 255], [41, 56, 0, 255], 1), ([39, 44, 92, 255], [39, 44, 14, 255], 1),
            ([0, 254, 252, 255], [94, 254, 252, 255], 0),
            ([0, 254, 252, 255], [47, 254, 252, 255], 0),
        ] as [([UInt8], [UInt8], Int)])
    func singlePixels(_ a: [UInt8], _ b: [UInt8], _ expected: Int) {
        let d = ImageComparator.compare(
            straightRGBA: a, b, width: 1, height: 1, options: Self.main())
        #expect(d.differingPixels == expected)
    }

    /// Counts index.js returns for option combinations test.js does not run (the tail of
    /// scripts/pixelmatch-main-counts): includeAA, checkerboard off, threshold 0 (any two
    /// different words differ), and windows on the non-square 512×256 1a/1b, where a window
    /// of 300 is clamped to 256×256 (154 pixels in all, 147 in the densest such square).
    static let indexJS: [(String, String, DiffOptions, Int)] = [
        ("1a", "1b", main(threshold: 0.05, includeAA: true), 273),
        ("3a", "3b", main(threshold: 0.05, includeAA: true), 417),
        ("7a", "7b", main(includeAA: true), 2728),
        ("1a", "1b", main(threshold: 0.05, checkerboard: false), 154),
        ("3a", "3b", main(threshold: 0.05, checkerboard: false), 220),
        ("5a", "5b", main(threshold: 0.05, checkerboard: false), 0),
        ("8a", "5b", main(threshold: 0.05, checkerboard: false), 0),
        ("4a", "4b", main(checkerboard: false), 7616),
        ("2a", "2b", main(threshold: 0), 26939),
        ("6a", "6b", main(threshold: 0), 51),
        ("1a", "1b", main(threshold: 0.2), 94),
        ("1a", "1b", main(threshold: 0.05, window: 300), 147),
        ("1a", "1b", main(threshold: 0.05, window: 16), 129),
        ("3a", "3b", main(threshold: 0.05, window: 64), 110),
    ]

    @Test(arguments: indexJS.indices) func indexJSCounts(_ i: Int) throws {
        let (a, b, options, expected) = Self.indexJS[i]
        let d = try PixelmatchFixtureTests.count(a, b, options)
        #expect(
            (d.windowDifferingPixels ?? d.differingPixels) == expected, "\(a) vs \(b), \(options)")
    }
}
