import FlipbookGeometry
import FlipbookRaster
import Testing
@testable import FlipbookCodecs

private typealias S = GIFTestSupport

/// `--quality` as a rate control: its mapping, and that a higher quality never gives a
/// worse GIF by docs/gif.md's metrics (mean SSIM of R, G, B; mean Oklab distance; MSE), on
/// a small synthetic scene with what the seed scenes have: a gradient backdrop that a
/// translucent panel dims more each frame, a flat card sliding, and a many-colored badge.
@Suite struct GIFRateControlTests {
    @Test func toleranceAndPaletteFollowQuality() {
        func o(_ q: Int, lossy: Int = 0) -> GIFEncodingOptions {
            GIFEncodingOptions(quality: q, lossy: lossy)
        }
        #expect(o(100).quantizedTolerance == 0 && o(100).exactTolerance == 0)
        #expect(
            o(GIFEncodingOptions.defaultQuality).quantizedTolerance == 2
                && o(85).quantizedTolerance == 3)
        #expect(o(95).exactTolerance == 0 && o(94).exactTolerance == 1)
        #expect(o(50).quantizedTolerance == 10 && o(50).maxColors == 256)
        #expect(o(25).maxColors == 66 && o(1).maxColors == 2)
        #expect(
            o(100, lossy: 20).quantizedTolerance == 20 && o(100, lossy: 20).exactTolerance == 20)
        for q in 2...100 {
            #expect(o(q).quantizedTolerance <= o(q - 1).quantizedTolerance)
            #expect(o(q).exactTolerance <= o(q - 1).exactTolerance)
            #expect(o(q).maxColors >= o(q - 1).maxColors)
            #expect(o(q).refinementPasses >= o(q - 1).refinementPasses)
        }
    }

    static func scene() -> [Pixmap] {
        (0..<6).map { i in
            var straight = S.gradient(width: 96, height: 64, phase: 0).straightRGBA()
            func blend(_ x: Int, _ y: Int, _ c: (Int, Int, Int), _ a: Int) {
                let o = (y * 96 + x) * 4
                for (k, v) in [c.0, c.1, c.2].enumerated() {
                    straight[o + k] = UInt8((Int(straight[o + k]) * (255 - a) + v * a + 127) / 255)
                }
            }
            for y in 0..<64 { for x in 0..<96 { blend(x, y, (245, 245, 245), 40 * i) } }
            for y in 20..<44 {
                for x in (10 + 9 * i)..<(40 + 9 * i) { blend(x, y, (255, 255, 255), 255) }
            }
            for y in 4..<16 {
                for x in 70..<92 { blend(x, y, ((x * 29 + i * 7) % 256, (y * 53) % 256, 128), 255) }
            }
            return Pixmap(width: 96, height: 64, straightRGBA: straight)
        }
    }

    struct Measure { var bytes: Int, ssim: Double, oklab: Double, mse: Double }

    static func measure(_ frames: [Pixmap], quality: Int) throws -> Measure {
        let bytes = try GIFEncodingOptionsTests.encode(
            frames, options: GIFEncodingOptions(quality: quality))
        let decoded = try GIFReader.decode(bytes).frames
        #expect(decoded.count == frames.count)
        var ssim = 0.0, oklab = 0.0, squares = 0.0, n = 0.0
        for (a, b) in zip(frames, decoded) {
            let x = a.straightRGBA(), y = b.straightRGBA()
            for i in 0..<(a.width * a.height) {
                let la = Oklab.fromSRGB(Int(x[4 * i]), Int(x[4 * i + 1]), Int(x[4 * i + 2]))
                let lb = Oklab.fromSRGB(Int(y[4 * i]), Int(y[4 * i + 1]), Int(y[4 * i + 2]))
                oklab += Double(la.distanceSquared(lb).squareRoot())
                for c in 0..<3 {
                    let d = Double(x[4 * i + c]) - Double(y[4 * i + c]); squares += d * d
                }
                n += 1
            }
            ssim +=
                (0..<3).map { boxSSIM(x, y, channel: $0, width: a.width, height: a.height) }.reduce(
                    0, +) / 3
        }
        return Measure(
            bytes: bytes.count, ssim: ssim / Double(frames.count), oklab: oklab / n,
            mse: squares / (3 * n))
    }

    /// Mean SSIM of one channel over 7×7 windows (uniform weights; the benchmark uses a
    /// Gaussian, the ordering is what matters here).
    static func boxSSIM(_ x: [UInt8], _ y: [UInt8], channel: Int, width: Int, height: Int) -> Double
    {
        let c1 = 6.5025, c2 = 58.5225
        var total = 0.0, count = 0.0
        for y0 in 0...(height - 7) {
            for x0 in 0...(width - 7) {
                var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                for dy in 0..<7 {
                    for dx in 0..<7 {
                        let o = ((y0 + dy) * width + x0 + dx) * 4 + channel
                        let a = Double(x[o]), b = Double(y[o])
                        sx += a; sy += b; sxx += a * a; syy += b * b; sxy += a * b
                    }
                }
                let mx = sx / 49, my = sy / 49
                let vx = sxx / 49 - mx * mx, vy = syy / 49 - my * my, cov = sxy / 49 - mx * my
                total +=
                    ((2 * mx * my + c1) * (2 * cov + c2))
                    / ((mx * mx + my * my + c1) * (vx + vy + c2))
                count += 1
            }
        }
        return total / count
    }

    /// Higher quality: never a measurably worse GIF on any of the three metrics (ties within
    /// 0.01 %: at 94 → 100 lossy LZW happens to pick a few colors nearer in RGB than the
    /// Oklab-nearest palette entry, MSE 11.41626 vs 11.41629), never a smaller file; and
    /// the range is used (the lowest quality is far smaller and far worse).
    @Test func higherQualityIsNeverWorse() throws {
        let frames = Self.scene()
        let qualities = [1, 10, 30, 50, 70, 85, 94, 100]
        let m = try qualities.map { try Self.measure(frames, quality: $0) }
        for k in 1..<m.count {
            let (lo, hi) = (m[k - 1], m[k])
            let label = "quality \(qualities[k - 1]) → \(qualities[k]): \(lo) → \(hi)"
            #expect(hi.ssim >= lo.ssim * (1 - 1e-4), "\(label)")
            #expect(hi.oklab <= lo.oklab * (1 + 1e-4), "\(label)")
            #expect(hi.mse <= lo.mse * (1 + 1e-4), "\(label)")
            #expect(hi.bytes >= lo.bytes, "\(label)")
        }
        #expect(m[0].bytes * 3 < m.last!.bytes && m[0].oklab > 10 * m.last!.oklab, "\(m)")
    }
}
