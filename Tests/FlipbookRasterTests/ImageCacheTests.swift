import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// Image fills from the per-thread ``ImageCache`` paint the bytes shading the spans
/// paints, which needs a pixel's shaded value to depend on its position only; and the
/// vectorised blends equal the scalar formulas of ``Compositing``.
struct ImageCacheTests {
    /// A 13×11 premultiplied image with transparent, opaque and partial pixels (an LCG,
    /// so failures reproduce).
    static let image: Pixmap = {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var bytes: [UInt8] = []
        for i in 0..<(13 * 11) {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let a: UInt8 = i % 5 == 0 ? 0 : i % 5 == 1 ? 255 : UInt8(truncatingIfNeeded: seed >> 56)
            let channel = { (shift: UInt64) in UInt8(UInt64(a) * ((seed >> shift) & 0xFF) / 255) }
            bytes += [channel(8), channel(16), channel(24), a]
        }
        return Pixmap(width: 13, height: 11, premultipliedRGBA: bytes)
    }()

    /// Device → image transforms covering each path of ``ImagePattern/shade``: unit scale
    /// with fractional offsets, enlarging, shrinking more than twofold, rotated, and an
    /// integer translation.
    static let transforms: [AffineTransform] = [
        .translation(-2.37, -1.61),
        AffineTransform(a: 0.31, b: 0, c: 0, d: 0.42, tx: -1.3, ty: 0.7),
        AffineTransform(a: 2.7, b: 0, c: 0, d: 1.9, tx: -5.2, ty: -3.3),
        AffineTransform(a: 0.35, b: 0.2, c: -0.18, d: 0.33, tx: 1.1, ty: -0.6),
        .translation(-3, 2),
    ]

    /// Shading a row in one go equals shading it in pieces that start anywhere, down to
    /// single pixels: a pixel's value depends on (x, y), not on its span.
    @Test(arguments: 0..<5)
    func shadedPixelDoesNotDependOnSpanStart(_ index: Int) {
        let pattern = ImagePattern(image: Self.image, transform: Self.transforms[index])
        let x0 = -7, width = 61
        var whole = [UInt32](repeating: 0, count: width),
            pieces = [UInt32](repeating: 0, count: width)
        for y in -3..<40 {
            whole.withUnsafeMutableBufferPointer {
                pattern.shade(x: x0, y: y, count: width, into: $0.baseAddress!)
            }
            for cuts in [[1], [3, 1, 1, 7, 2], [5, 11, 1, 17], [29, 2]] {
                pieces.withUnsafeMutableBufferPointer { out in
                    var i = 0, k = 0
                    while i < width {
                        let n = min(cuts[k % cuts.count], width - i)
                        pattern.shade(x: x0 + i, y: y, count: n, into: out.baseAddress! + i)
                        i += n; k += 1
                    }
                }
                #expect(pieces == whole, "transform \(index), row \(y), pieces \(cuts)")
            }
        }
    }

    /// A rotated image in a clipped, faded fill: the fourth identical fill on this thread
    /// (from the cache, which the third stored) paints the bytes of the first (shaded),
    /// with and without a row window.
    @Test(arguments: [false, true])
    func cachedFillPaintsTheShadedBytes(window: Bool) throws {
        let transform = AffineTransform(
            a: 0.24, b: 0.07, c: -0.05, d: 0.26, tx: window ? 0.31 : 0.37, ty: -0.8)
        let pattern = ImagePattern(image: Self.image, transform: transform)
        let clip = Mask.path(
            .ellipse(in: Rect(2.5, 3.25, 40, 30)), transform: .identity, rule: .nonZero,
            width: 48, height: 40)
        var results: [Pixmap] = []
        for _ in 0..<4 {
            var p = Pixmap(width: 48, height: 40)
            p.fill(Color(red: 0.2, green: 0.3, blue: 0.4, alpha: 0.5))
            p.writableRows = window ? 5..<29 : nil
            p.fill(
                .rect(Rect(1.5, 2.25, 44, 35.5)), transform: .identity, rule: .nonZero,
                paint: .image(pattern), opacity: 0.8, clip: clip)
            p.fill(
                .rect(Rect(0.7, 0.4, 47, 39)), transform: .identity, rule: .nonZero,
                paint: .image(pattern))
            results.append(p)
        }
        guard GeometryCaches.isEnabled else { return }
        let area = try #require(
            Rasterizer.deviceBounds(
                of: .rect(Rect(1.5, 2.25, 44, 35.5)), transform: .identity,
                within: clip.bounds))
        #expect(
            ImageCache.current.entry(for: pattern, area: area) != nil,
            "the third fill should have been stored")
        for r in results.dropFirst() { #expect(r.data == results[0].data) }
    }

    /// The vector blends equal the scalar `over(scale(s, c), d)` for every coverage, with
    /// runs of transparent and opaque sources and odd lengths.
    @Test func vectorBlendsEqualScalarFormula() {
        let pixels = Self.image.data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        let dstStart = Array(pixels.reversed())
        for count in [1, 3, 4, 7, 64, pixels.count] {
            for coverage in [0, 1, 77, 128, 254, 255] as [UInt32] {
                var got = Array(dstStart.prefix(count))
                got.withUnsafeMutableBufferPointer {
                    Compositing.blend($0.baseAddress!, pixels, count: count, coverage: coverage)
                }
                let want = (0..<count).map { i in
                    coverage == 0
                        ? dstStart[i]
                        : Compositing.over(Compositing.scale(pixels[i], coverage), dstStart[i])
                }
                #expect(got == want, "count \(count), coverage \(coverage)")
            }
            let cov = (0..<count).map {
                UInt8(truncatingIfNeeded: $0 * 37 + ($0 % 3 == 0 ? 255 : 0))
            }
            var got = Array(dstStart.prefix(count))
            got.withUnsafeMutableBufferPointer {
                Compositing.blend($0.baseAddress!, pixels, count: count, coverage: cov)
            }
            let want = (0..<count).map {
                Compositing.over(Compositing.scale(pixels[$0], UInt32(cov[$0])), dstStart[$0])
            }
            #expect(got == want, "count \(count), per-pixel coverage")
        }
    }
}
