import Testing
@testable import FlipbookCodecs

/// The lossy coder's promises: giflib decodes exactly the indices it reports, every visible
/// pixel stays within 1.75 × tolerance of its source color (each pixel's error is within the
/// tolerance of a target that carries ¾ of the previous error, so |deviation| ≤ ¾T + T),
/// transparency is used only where it is allowed, and a larger tolerance gives a smaller image.
struct LossyLZWTests {
    typealias Noise = LZWEncoderTests.Noise

    /// A 64-color palette (4 levels per channel) and a frame of smooth ramps with noise, whose
    /// exact colors are in the palette; the left quarter is "unchanged", one row is transparent.
    static func fixture() -> (
        palette: [UInt32], indices: [UInt8], pixels: [UInt32], unchanged: [Bool], width: Int
    ) {
        let levels: [UInt32] = [0, 85, 170, 255]
        var palette: [UInt32] = []
        for b in levels {
            for g in levels { for r in levels { palette.append(r | g << 8 | b << 16) } }
        }
        palette.append(0)  // transparent slot: index 64
        let width = 96, height = 40
        var noise = Noise(state: 7)
        var indices: [UInt8] = [], pixels: [UInt32] = [], unchanged: [Bool] = []
        for y in 0..<height {
            for x in 0..<width {
                if y == 20 {
                    indices.append(64); pixels.append(ColorQuantizer.transparentPixel);
                    unchanged.append(false)
                    continue
                }
                let r = min(3, x / 24 + (noise.next(5) == 0 ? 1 : 0)), g = min(3, y / 10),
                    b = (x + y) / 40 % 4
                let index = r + 4 * g + 16 * b
                let isUnchanged = x < width / 4
                indices.append(UInt8(isUnchanged ? 64 : index))
                pixels.append(palette[index])
                unchanged.append(isUnchanged)
            }
        }
        return (palette, indices, pixels, unchanged, width)
    }

    @Test(arguments: [4, 20, 60, 100])
    func staysWithinToleranceAndDecodes(tolerance: Int) throws {
        let f = Self.fixture()
        let bits = LZWEncoder.minCodeSize(colors: 128)
        let (image, _) = LZWEncoder.compressLossy(
            f.indices, minCodeSize: bits, width: f.width, pixels: f.pixels,
            unchanged: f.unchanged, palette: f.palette, transparentIndex: 64,
            tolerance: tolerance)
        let decoded = try LZWEncoderTests.giflibDecodedIndices(
            blocks: image.blocks, bits: bits, count: f.indices.count)
        #expect(decoded == image.indices)
        let bound = 1.75 * Double(tolerance) + 2
        var worst = 0.0
        for i in f.pixels.indices {
            let chosen = Int(image.indices[i])
            if f.pixels[i] >> 24 != 0 {
                #expect(chosen == 64, "pixel \(i) is transparent in the source")
                continue
            }
            if chosen == 64 {
                #expect(f.unchanged[i], "pixel \(i) changed but was written transparent")
                continue
            }
            let p = f.pixels[i], c = f.palette[chosen]
            let dr = Double(Int(p & 0xFF) - Int(c & 0xFF)),
                dg = Double(Int((p >> 8) & 0xFF) - Int((c >> 8) & 0xFF))
            let db = Double(Int((p >> 16) & 0xFF) - Int((c >> 16) & 0xFF))
            worst = max(worst, ((3 * dr * dr + 4 * dg * dg + 2 * db * db) / 9).squareRoot())
        }
        #expect(worst <= bound, "worst deviation \(worst) levels, bound \(bound)")
    }

    /// Palette neighbours are 85 levels apart in one channel: 40 weighted levels in blue,
    /// 49 in red, 57 in green. At 45 only blue neighbours qualify, at 100 all do.
    @Test func largerToleranceGivesSmallerImages() {
        let f = Self.fixture()
        let bits = LZWEncoder.minCodeSize(colors: 128)
        let exact = LZWEncoder.compress(f.indices, minCodeSize: bits).byteCount
        var sizes = [exact]
        for tolerance in [45, 100] {
            sizes.append(
                LZWEncoder.compressLossy(
                    f.indices, minCodeSize: bits, width: f.width, pixels: f.pixels,
                    unchanged: f.unchanged, palette: f.palette, transparentIndex: 64,
                    tolerance: tolerance
                ).image.byteCount)
        }
        #expect(sizes[1] < sizes[0] && sizes[2] < sizes[1], "\(sizes)")
    }
}
