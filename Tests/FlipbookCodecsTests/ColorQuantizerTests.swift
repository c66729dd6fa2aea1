import Testing
@testable import FlipbookCodecs

@Suite struct ColorQuantizerTests {
    @Test func fewColorsAreExact() {
        var pixels: [UInt32] = []
        for i in 0..<5000 { pixels.append(UInt32((i * 7919) % 256) * 0x010101) }  // 256 grays
        let q = ColorQuantizer.quantize(pixels)
        #expect(q.isExact)
        #expect(q.palette.count == 256)
        for (p, i) in zip(pixels, q.indices) { #expect(q.palette[Int(i)] == p) }
    }

    @Test func transparentTakesOneIndex() {
        let pixels: [UInt32] = [
            0x0000FF, ColorQuantizer.transparentPixel, 0x00FF00, ColorQuantizer.transparentPixel,
        ]
        let q = ColorQuantizer.quantize(pixels)
        #expect(q.isExact)
        #expect(q.transparentIndex == 1)
        #expect(q.indices == [0, 1, 2, 1])
    }

    /// 4096 colors on a 16-level cube: 256 palette colors cannot hold them, but every pixel
    /// lands near its color (a 4×4×4 subdivision has 17-level spacing: error ≲ 24 per channel).
    @Test func manyColorsQuantizeClosely() {
        var pixels: [UInt32] = []
        for r in 0..<16 {
            for g in 0..<16 {
                for b in 0..<16 {
                    pixels.append(UInt32(r * 17) | UInt32(g * 17) << 8 | UInt32(b * 17) << 16)
                }
            }
        }
        pixels.append(ColorQuantizer.transparentPixel)
        let q = ColorQuantizer.quantize(pixels)
        #expect(!q.isExact)
        #expect(q.palette.count <= 256)
        #expect(q.transparentIndex == q.palette.count - 1)
        #expect(q.indices.last.map(Int.init) == q.transparentIndex)
        var total = 0, worst = 0
        for (p, i) in zip(pixels.dropLast(), q.indices) {
            #expect(Int(i) != q.transparentIndex)
            let c = q.palette[Int(i)]
            for shift in [0, 8, 16] as [UInt32] {
                let e = abs(Int((p >> shift) & 0xFF) - Int((c >> shift) & 0xFF))
                total += e; worst = max(worst, e)
            }
        }
        // Matching is in Oklab: the mean per-channel error stays about where weighted RGB had
        // it, but a channel the eye barely sees may stray further (e.g. red in a saturated
        // blue: (0, 136, 255) → (63, 144, 252)).
        #expect(Double(total) / Double(3 * 4096) < 12.5)
        #expect(worst <= 80)
    }
}
