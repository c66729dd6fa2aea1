import Testing
import FlipbookTesting
import FlipbookGeometry
@testable import FlipbookRaster

/// Gradients and image patterns: every pixel is compared with the formula evaluated
/// here at the pixel center.
struct PaintTests {
    /// Premultiplied 8-bit value of a straight color, rounded.
    func premul(_ c: Color) -> [Int] {
        [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha].map {
            Int(($0 * 255).rounded())
        }
    }

    /// Unpremultiplied interpolation between stops, written out independently.
    func ramp(_ colors: [Color], _ locations: [Double], _ t: Double) -> Color {
        if t <= locations[0] { return colors[0] }
        if t >= locations[locations.count - 1] { return colors[colors.count - 1] }
        let i = (0..<(locations.count - 1)).first { locations[$0] <= t && t < locations[$0 + 1] }!
        let f = (t - locations[i]) / (locations[i + 1] - locations[i])
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        return Color(
            red: mix(colors[i].red, colors[i + 1].red),
            green: mix(colors[i].green, colors[i + 1].green),
            blue: mix(colors[i].blue, colors[i + 1].blue),
            alpha: mix(colors[i].alpha, colors[i + 1].alpha))
    }

    func maxChannelError(_ p: Pixmap, _ expected: (Int, Int) -> [Int]) -> Int {
        var worst = 0
        for y in 0..<p.height {
            for x in 0..<p.width {
                let px = p.pixel(x: x, y: y)
                let got = [Int(px.r), Int(px.g), Int(px.b), Int(px.a)]
                let want = expected(x, y)
                for c in 0..<4 { worst = max(worst, abs(got[c] - want[c])) }
            }
        }
        return worst
    }

    func fillCanvas(_ paint: Paint, width: Int, height: Int) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        p.fill(
            .rect(Rect(0, 0, Double(width), Double(height))), transform: .identity, rule: .nonZero,
            paint: paint)
        return p
    }

    /// Axial, three stops at 0.2 / 0.5 / 0.9 across a 64-px canvas: gradient space
    /// t = x / 64, so pixel x shows the ramp at t = (x + 0.5) / 64; below 0.2 it is pure
    /// red, above 0.9 pure blue. The 1024-entry table is within 1 level.
    @Test func axialGradientWithLocations() throws {
        let colors = [
            Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0),
            Color(red: 0, green: 0, blue: 1),
        ]
        let locations = [0.2, 0.5, 0.9]
        let g = Gradient(
            kind: .axial, colors: colors, locations: locations, transform: .scale(1.0 / 64, 1))
        let p = fillCanvas(.gradient(g), width: 64, height: 8)
        #expect(
            maxChannelError(p) { x, _ in premul(ramp(colors, locations, (Double(x) + 0.5) / 64)) }
                <= 1)
        try expectFrame(
            p, match: "Goldens", named: "gradient-axial-locations", options: .rasterGolden)
    }

    /// Radial from (16, 16) with radius 12: the transform is translate(−16, −16) then
    /// scale(1/12), so t = distance from the center / 12, yellow → purple, then purple
    /// beyond the circle.
    @Test func radialGradient() throws {
        let colors = [Color(red: 1, green: 1, blue: 0), Color(red: 0.5, green: 0, blue: 0.5)]
        let t = AffineTransform.translation(-16, -16).concatenating(.scale(1.0 / 12, 1.0 / 12))
        let g = Gradient(kind: .radial, colors: colors, locations: nil, transform: t)
        let p = fillCanvas(.gradient(g), width: 32, height: 32)
        #expect(
            maxChannelError(p) { x, y in
                let (dx, dy) = (Double(x) + 0.5 - 16, Double(y) + 0.5 - 16)
                return premul(ramp(colors, [0, 1], (dx * dx + dy * dy).squareRoot() / 12))
            } <= 1)
        try expectFrame(p, match: "Goldens", named: "gradient-radial", options: .rasterGolden)
    }

    /// White → clear interpolates unpremultiplied (Core Animation): halfway is straight
    /// (0.5, 0.5, 0.5, 0.5), a translucent gray, i.e. premultiplied (64, 64, 64, 128);
    /// premultiplied interpolation would give translucent white (128, 128, 128, 128).
    @Test func whiteToClearMidpointIsGray() throws {
        let g = Gradient(
            kind: .axial, colors: [.white, .clear], locations: nil, transform: .scale(1.0 / 32, 1))
        let p = fillCanvas(.gradient(g), width: 32, height: 4)
        // Pixel 15's center is t = 15.5/32; pixels 15 and 16 straddle 0.5.
        let expected = premul(ramp([.white, .clear], [0, 1], 15.5 / 32))
        let px = p.pixel(x: 15, y: 0)
        #expect([Int(px.r), Int(px.g), Int(px.b), Int(px.a)] == expected)
        let exactMid = premul(Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5))
        #expect(exactMid == [64, 64, 64, 128])
        // By hand at t = 0.484375: straight gray and alpha 0.515625, premultiplied gray
        // 0.515625² · 255 = 67.8 → 68, alpha 131.5 → 131 or 132 (translucent white would
        // have r == a).
        #expect(abs(Int(px.r) - 68) <= 1 && abs(Int(px.a) - 131) <= 1)
        #expect(
            maxChannelError(p) { x, _ in
                premul(ramp([.white, .clear], [0, 1], (Double(x) + 0.5) / 32))
            } <= 1)
        try expectFrame(p, match: "Goldens", named: "gradient-white-clear", options: .rasterGolden)
    }

    /// Hard stop (two stops at one location) and out-of-order locations: the color jumps
    /// at t = 0.5 exactly; decreasing locations are raised to the previous one.
    @Test func hardStopIsSharp() {
        let g = Gradient(
            kind: .axial, colors: [.black, .black, .white, .white], locations: [0, 0.5, 0.4, 1],
            transform: .scale(1.0 / 32, 1))
        #expect(g.locations == [0, 0.5, 0.5, 1])
        let p = fillCanvas(.gradient(g), width: 32, height: 1)
        for x in 0..<32 { #expect(p.pixel(x: x, y: 0).r == (x < 16 ? 0 : 255)) }
    }

    /// Bilinear upscaling ×8 of a 2×2 image: device → image is scale(1/8), so pixel x
    /// samples image coordinate (x + 0.5)/8 − 0.5 between pixel centers, clamped at the
    /// edges; each channel is the bilinear mix of the premultiplied corners (±1 for
    /// 8-bit weights).
    @Test func imagePatternBilinear() throws {
        let corners: [[Int]] = [
            [255, 0, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255], [0, 0, 0, 0],
        ]
        let image = Pixmap(
            width: 2, height: 2, premultipliedRGBA: corners.flatMap { $0.map(UInt8.init) })
        let pattern = ImagePattern(image: image, transform: .scale(1.0 / 8, 1.0 / 8))
        let p = fillCanvas(.image(pattern), width: 16, height: 16)
        let err = maxChannelError(p) { x, y in
            let u = min(max((Double(x) + 0.5) / 8 - 0.5, 0), 1)
            let v = min(max((Double(y) + 0.5) / 8 - 0.5, 0), 1)
            return (0..<4).map { c in
                let top = Double(corners[0][c]) * (1 - u) + Double(corners[1][c]) * u
                let bottom = Double(corners[2][c]) * (1 - u) + Double(corners[3][c]) * u
                return Int((top * (1 - v) + bottom * v).rounded())
            }
        }
        #expect(err <= 1)
        // No dark fringe: next to the transparent corner the straight color is still pure
        // green/blue/red mixes with no black added: r + g + b == a in premultiplied terms.
        for y in 0..<16 {
            for x in 0..<16 {
                let q = p.pixel(x: x, y: y)
                #expect(abs(Int(q.r) + Int(q.g) + Int(q.b) - Int(q.a)) <= 2)
            }
        }
        try expectFrame(p, match: "Goldens", named: "image-bilinear", options: .rasterGolden)
    }

    /// Integer translations copy pixels exactly (no filtering).
    @Test func imagePatternIntegerTranslationCopies() {
        var image = Pixmap(width: 4, height: 4)
        for i in 0..<16 { image.data[4 * i] = UInt8(i * 16); image.data[4 * i + 3] = 255 }
        let pattern = ImagePattern(image: image, transform: .translation(-3, -5))
        var p = Pixmap(width: 12, height: 12)
        p.fill(
            .rect(Rect(3, 5, 4, 4)), transform: .identity, rule: .nonZero, paint: .image(pattern))
        for y in 0..<4 {
            for x in 0..<4 { #expect(p.pixel(x: x + 3, y: y + 5) == image.pixel(x: x, y: y)) }
        }
    }
}
