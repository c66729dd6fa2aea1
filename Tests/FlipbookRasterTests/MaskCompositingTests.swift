import Testing
import FlipbookTesting
import FlipbookGeometry
@testable import FlipbookRaster

/// Masks and compositing: expectations from exact overlap areas and the premultiplied
/// source-over formula dst' = src + dst·(1 − src.a), evaluated here in Double.
struct MaskCompositingTests {
    func rectMask(_ r: Rect, _ size: Int) -> Mask {
        Mask.path(.rect(r), transform: .identity, rule: .nonZero, width: size, height: size)
    }

    func rectCoverage(_ r: Rect, _ x: Int, _ y: Int) -> Double {
        overlap(Double(x), Double(x + 1), r.minX, r.maxX)
            * overlap(Double(y), Double(y + 1), r.minY, r.maxY)
    }

    /// Intersection multiplies coverages: each rect mask holds round(255 · overlap area)
    /// and the product is round(a · b / 255); the bounds shrink to the overlap region.
    @Test func maskIntersectionMultiplies() throws {
        let (ra, rb) = (Rect(2, 2.5, 18.5, 20), Rect(10.25, 6, 20, 10.75))
        var m = rectMask(ra, 32)
        let b = rectMask(rb, 32)
        #expect(m.bounds == PixelBounds(x0: 2, y0: 2, x1: 21, y1: 23))
        m.intersect(b)
        var worst = 0
        for y in 0..<32 {
            for x in 0..<32 {
                let a = (rectCoverage(ra, x, y) * 255).rounded(),
                    c = (rectCoverage(rb, x, y) * 255).rounded()
                worst = max(worst, abs(Int(m.coverage(x: x, y: y)) - Int((a * c / 255).rounded())))
            }
        }
        #expect(worst == 0)
        #expect(m.bounds == PixelBounds(x0: 10, y0: 6, x1: 21, y1: 17))
        var render = Pixmap(width: 32, height: 32)
        render.fill(
            .rect(Rect(0, 0, 32, 32)), transform: .identity, rule: .nonZero,
            paint: .solid(Color(red: 0, green: 0.5, blue: 1)), clip: m)
        try expectFrame(
            render, match: "Goldens", named: "mask-intersection", options: .rasterGolden)
    }

    /// Scaling by 0.5 halves every coverage (rounded); alpha masks copy the alpha channel;
    /// an empty mask has empty bounds and coverage 0 outside the grid.
    @Test func maskScaleAlphaAndEmpty() {
        var m = rectMask(Rect(1, 1, 4, 4.5), 8)
        m.scale(by: 0.5)
        #expect(m.coverage(x: 2, y: 2) == 128 && m.coverage(x: 2, y: 5) == 64)
        var p = Pixmap(width: 4, height: 4)
        p.data[4 * 5 + 3] = 77
        let alpha = Mask(alphaOf: p)
        #expect(
            alpha.coverage(x: 1, y: 1) == 77
                && alpha.bounds == PixelBounds(x0: 1, y0: 1, x1: 2, y1: 2))
        let empty = Mask(width: 3, height: 3)
        #expect(empty.bounds.isEmpty && empty.coverage(x: -1, y: 9) == 0)
        m.scale(by: 0)
        #expect(m.bounds.isEmpty)
    }

    /// A layer mask's multiply and alpha extraction at every row width from 1 to 19 (the
    /// vector loops take four and eight pixels at a time, the rest one by one): each
    /// channel becomes round(channel · coverage / 255), pixels outside the mask's bounds
    /// become transparent; the alpha mask holds each pixel's alpha and its tight bounds.
    @Test func multiplyAndAlphaAtEveryWidth() {
        var rng = CellOrderTests.Generator(state: 7)
        for width in 1...19 {
            let height = 3
            var pixmap = Pixmap(width: width, height: height)
            for i in 0..<(width * height) {
                // Premultiplied: every channel at most the alpha; some pixels transparent,
                // some opaque.
                let alpha = [0, 255, Int.random(in: 1...254, using: &rng)].randomElement(
                    using: &rng)!
                pixmap.data[4 * i + 3] = UInt8(alpha)
                for k in 0..<3 {
                    pixmap.data[4 * i + k] = UInt8(Int.random(in: 0...alpha, using: &rng))
                }
            }
            let alpha = Mask(alphaOf: pixmap)
            var tight = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
            for y in 0..<height {
                for x in 0..<width {
                    let a = pixmap.data[4 * (y * width + x) + 3]
                    #expect(alpha.coverage(x: x, y: y) == a)
                    if a > 0 {
                        tight = (
                            min(tight.x0, x), min(tight.y0, y), max(tight.x1, x + 1),
                            max(tight.y1, y + 1)
                        )
                    }
                }
            }
            let expectedBounds =
                tight.x0 == .max
                ? PixelBounds.empty
                : PixelBounds(x0: tight.x0, y0: tight.y0, x1: tight.x1, y1: tight.y1)
            #expect(alpha.bounds == expectedBounds, "width \(width)")

            // Coverage: runs of 255 (skipped four at a time), zeros and anything between,
            // with the mask's bounds one pixel in from the sides where the width allows.
            var mask = Mask(width: width, height: height)
            let box = PixelBounds(
                x0: width > 2 ? 1 : 0, y0: 0, x1: width > 2 ? width - 1 : width, y1: height)
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 {
                    mask.data[y * width + x] =
                        [255, 255, 0, UInt8.random(in: 1...254, using: &rng)]
                        .randomElement(using: &rng)!
                }
            }
            mask.bounds = box
            var multiplied = pixmap
            multiplied.multiply(by: mask)
            for i in 0..<(width * height) {
                let c = Double(mask.data[i])
                for k in 0..<4 {
                    let expected = (Double(pixmap.data[4 * i + k]) * c / 255).rounded()
                    #expect(
                        Double(multiplied.data[4 * i + k]) == expected, "width \(width) pixel \(i)")
                }
            }
        }
    }

    /// An alpha matte multiplied straight in (``Pixmap/multiply(byAlphaOf:)``) at every row
    /// width from 1 to 19 (eight pixels at a time, then one by one), with runs of alpha 0
    /// and 255 and values between: each channel becomes round(channel · alpha / 255), the
    /// formula evaluated here in Double, and the bytes equal those of the two-step path
    /// through `Mask(alphaOf:)` that it replaces.
    @Test func multiplyByMatteAlphaAtEveryWidth() {
        var rng = CellOrderTests.Generator(state: 11)
        func randomPixmap(_ width: Int, _ height: Int) -> Pixmap {
            var p = Pixmap(width: width, height: height)
            for i in 0..<(width * height) {
                let alpha = [0, 0, 255, 255, Int.random(in: 1...254, using: &rng)]
                    .randomElement(using: &rng)!
                p.data[4 * i + 3] = UInt8(alpha)
                for k in 0..<3 { p.data[4 * i + k] = UInt8(Int.random(in: 0...alpha, using: &rng)) }
            }
            return p
        }
        for width in 1...19 {
            let height = 4
            let pixmap = randomPixmap(width, height)
            var matte = randomPixmap(width, height)
            if width > 8 {
                // A row of eight transparent and a row of eight opaque pixels: the runs
                // taken in one step.
                for x in 0..<8 { matte.data[4 * x + 3] = 0 }
                for x in 0..<8 { matte.data[4 * (width + x) + 3] = 255 }
            }
            var direct = pixmap
            direct.multiply(byAlphaOf: matte)
            var twoStep = pixmap
            twoStep.multiply(by: Mask(alphaOf: matte))
            #expect(direct.data == twoStep.data, "width \(width)")
            for i in 0..<(width * height) {
                let a = Double(matte.data[4 * i + 3])
                for k in 0..<4 {
                    let expected = (Double(pixmap.data[4 * i + k]) * a / 255).rounded()
                    #expect(Double(direct.data[4 * i + k]) == expected, "width \(width) pixel \(i)")
                }
            }
        }
    }

    /// Straight source-over, rounding once per step as premultiplied RGBA8 does.
    func over(_ src: [Double], _ dst: [Double], scale s: Double) -> [Int] {
        let scaled = src.map { ($0 * s / 255).rounded() }
        return (0..<4).map { Int(scaled[$0] + (dst[$0] * (255 - scaled[3]) / 255).rounded()) }
    }

    /// draw(_:x:y:opacity:mask:) places a 12×12 half-transparent source at (−3, 5) (so it
    /// is clipped on the left), at opacity 0.5 (128/255) and through a disk mask, over an
    /// opaque gray background. Every pixel follows source-over with the source scaled by
    /// round(mask · 128 / 255).
    @Test func drawWithOpacityAndMask() throws {
        var source = Pixmap(width: 12, height: 12)
        for y in 0..<12 {
            for x in 0..<12 {
                let i = 4 * (y * 12 + x)
                let a = x < 6 ? 255 : 128
                source.data[i] = UInt8(a)  // red, premultiplied
                source.data[i + 2] = UInt8(y * a / 12)  // some blue
                source.data[i + 3] = UInt8(a)
            }
        }
        var dst = Pixmap(width: 24, height: 24)
        dst.fill(Color(red: 0.5, green: 0.5, blue: 0.5))
        let background = dst
        let mask = Mask.path(
            .ellipse(in: Rect(0, 4, 14, 14)), transform: .identity, rule: .nonZero, width: 24,
            height: 24)
        dst.draw(source, x: -3, y: 5, opacity: 0.5, mask: mask)
        var worst = 0
        for y in 0..<24 {
            for x in 0..<24 {
                let d = background.pixel(x: x, y: y)
                let dv = [Double(d.r), Double(d.g), Double(d.b), Double(d.a)]
                var want = dv.map { Int($0) }
                let (sx, sy) = (x + 3, y - 5)
                if sx >= 0, sx < 12, sy >= 0, sy < 12 {
                    let s = source.pixel(x: sx, y: sy)
                    let scale = (Double(mask.coverage(x: x, y: y)) * 128 / 255).rounded()
                    want = over(
                        [Double(s.r), Double(s.g), Double(s.b), Double(s.a)], dv, scale: scale)
                }
                let g = dst.pixel(x: x, y: y)
                let got = [Int(g.r), Int(g.g), Int(g.b), Int(g.a)]
                for c in 0..<4 { worst = max(worst, abs(got[c] - want[c])) }
            }
        }
        #expect(worst <= 1)
        try expectFrame(dst, match: "Goldens", named: "draw-opacity-mask", options: .rasterGolden)
    }

    /// fill(_ color:) replaces (no blending): clear over opaque gives clear.
    @Test func fillColorReplaces() {
        var p = Pixmap(width: 3, height: 2)
        p.fill(.white)
        #expect(p.data.allSatisfy { $0 == 255 })
        p.fill(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(p.pixel(x: 2, y: 1) == (128, 0, 0, 128))
        p.fill(.clear)
        #expect(p.data.allSatisfy { $0 == 0 })
    }

    /// Solid fills: opacity and partial coverage scale the premultiplied color once,
    /// then source-over: 50 % red at coverage 1 over opaque blue gives (128, 0, 127, 255).
    @Test func solidSourceOver() {
        var p = Pixmap(width: 4, height: 4)
        p.fill(Color(red: 0, green: 0, blue: 1))
        p.fill(
            .rect(Rect(0, 0, 4, 4)), transform: .identity, rule: .nonZero,
            paint: .solid(Color(red: 1, green: 0, blue: 0)), opacity: 0.5)
        #expect(p.pixel(x: 1, y: 1) == (128, 0, 127, 255))
    }

    /// Translucent solid spans of every length 1…19, at full and at half coverage, over a
    /// varied opaque and translucent background follow source-over exactly (the span
    /// loop works four pixels at a time, then one by one).
    @Test func translucentSpansMatchFormulaAtEveryLength() {
        let color = Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.6)
        for (height, scale) in [(1.0, 255.0), (0.5, 128.0)] {
            let src = [0.9, 0.3, 0.1, 1].map { ($0 * 0.6 * 255).rounded() }
            for length in 1...19 {
                var p = Pixmap(width: 24, height: 1)
                for x in 0..<24 {
                    let a = x % 3 == 0 ? 255 : 90
                    p.data[4 * x] = UInt8(x * 7 % a); p.data[4 * x + 1] = UInt8(a / 2);
                    p.data[4 * x + 2] = 0; p.data[4 * x + 3] = UInt8(a)
                }
                let before = p
                p.fill(
                    .rect(Rect(1, 0, Double(length), height)), transform: .identity, rule: .nonZero,
                    paint: .solid(color))
                for x in 0..<24 {
                    let d = before.pixel(x: x, y: 0)
                    let dv = [Double(d.r), Double(d.g), Double(d.b), Double(d.a)]
                    let want =
                        x >= 1 && x < 1 + length ? over(src, dv, scale: scale) : dv.map { Int($0) }
                    let g = p.pixel(x: x, y: 0)
                    #expect(
                        [Int(g.r), Int(g.g), Int(g.b), Int(g.a)] == want,
                        "length \(length), coverage \(scale), x \(x)")
                }
            }
        }
    }
}
