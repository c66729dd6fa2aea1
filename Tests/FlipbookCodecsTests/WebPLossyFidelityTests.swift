import Foundation
import FlipbookRaster
import Testing

@testable import FlipbookCodecs

/// Issue 25's lossy target on a small flat-UI animation: our lossy WebP (frames chosen as the
/// exporter chooses them) is smaller than our default GIF of the same frames at a higher mean
/// SSIM and a lower mean Oklab ΔE. Both files are decoded by Pillow and measured here, by
/// scripts/bench-gif's definitions written out again (over white; SSIM the mean over R, G, B
/// of 11-tap Gaussian σ 1.5 windows that fit; ΔE the mean Euclidean Oklab distance), not by
/// the encoder's own FrameFidelity.
@Suite struct WebPLossyFidelityTests {
    static let width = 96, height = 64, count = 8

    /// Fraction of the 4×4 sub-samples of pixel (x, y) inside the rounded rectangle.
    static func coverage(
        _ x: Int, _ y: Int, _ r: (x0: Double, y0: Double, x1: Double, y1: Double), radius: Double
    ) -> Double {
        var inside = 0
        for sy in 0..<4 {
            for sx in 0..<4 {
                let px = Double(x) + (Double(sx) + 0.5) / 4, py = Double(y) + (Double(sy) + 0.5) / 4
                let cx = min(max(px, r.x0 + radius), r.x1 - radius)
                let cy = min(max(py, r.y0 + radius), r.y1 - radius)
                let dx = px - cx, dy = py - cy
                if px >= r.x0, px <= r.x1, py >= r.y0, py <= r.y1,
                    dx * dx + dy * dy <= radius * radius
                {
                    inside += 1
                }
            }
        }
        return Double(inside) / 16
    }

    /// A card on a tinted page, a line of "text" that grows and a button sliding by fractions
    /// of a pixel: flat colours with anti-aliased edges, which our GIF draws almost exactly
    /// and near-lossless VP8L rounds (it moves channels where neighbours differ most).
    static func frame(_ k: Int) -> Pixmap {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let shapes: [(rect: (Double, Double, Double, Double), radius: Double, color: [Double])] = [
            ((4, 4, 92, 60), 8, [243, 244, 246]),
            ((12, 11.5, 30 + 5.7 * Double(k), 16.5), 2, [17, 24, 39]),
            ((12, 20.25, 70, 24.75), 2, [107, 114, 128]),
            ((10 + 3.3 * Double(k), 34.5, 50.3 + 3.3 * Double(k), 50.5), 6, [59, 130, 246]),
        ]
        for y in 0..<height {
            for x in 0..<width {
                // A page tinted from corner to corner: more colours than a GIF palette holds,
                // so our GIF is not exact (and near-lossless cannot use a palette either).
                var c: [Double] = [255 - 2 * Double(y), 255 - Double(x), 160 + Double(x + y) / 2]
                for shape in shapes {
                    let a = coverage(x, y, shape.rect, radius: shape.radius)
                    for i in 0..<3 { c[i] = c[i] * (1 - a) + shape.color[i] * a }
                }
                for i in 0..<3 { rgba[4 * (y * width + x) + i] = UInt8(c[i].rounded()) }
                rgba[4 * (y * width + x) + 3] = 255
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: rgba)
    }

    /// RGBA bytes over white, as Doubles (R, G, B a pixel).
    static func overWhite(_ rgba: [UInt8]) -> [Double] {
        (0..<(rgba.count / 4)).flatMap { p -> [Double] in
            let a = Double(rgba[4 * p + 3]) / 255
            return (0..<3).map { Double(rgba[4 * p + $0]) * a + 255 * (1 - a) }
        }
    }

    static func oklab(_ c: ArraySlice<Double>) -> [Double] {
        let l = c.map { v -> Double in
            let s = v / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let lms = [
            0.4122214708 * l[0] + 0.5363325363 * l[1] + 0.0514459929 * l[2],
            0.2119034982 * l[0] + 0.6806995451 * l[1] + 0.1073969566 * l[2],
            0.0883024619 * l[0] + 0.2817188376 * l[1] + 0.6299787005 * l[2],
        ].map { cbrt($0) }
        return [
            0.2104542553 * lms[0] + 0.7936177850 * lms[1] - 0.0040720468 * lms[2],
            1.9779984951 * lms[0] - 2.4285922050 * lms[1] + 0.4505937099 * lms[2],
            0.0259040371 * lms[0] + 0.7827717662 * lms[1] - 0.8086757660 * lms[2],
        ]
    }

    /// Mean Oklab distance of two over-white frames.
    static func deltaE(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for p in 0..<(a.count / 3) where a[3 * p..<3 * p + 3] != b[3 * p..<3 * p + 3] {
            let x = oklab(a[3 * p..<3 * p + 3]), y = oklab(b[3 * p..<3 * p + 3])
            sum += sqrt(zip(x, y).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
        }
        return sum / Double(a.count / 3)
    }

    /// Mean SSIM over R, G, B of two over-white frames (windows centred ≥ 5 px from the edge).
    static func ssim(_ a: [Double], _ b: [Double]) -> Double {
        let g = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let gauss = g.map { $0 / g.reduce(0, +) }
        let c1: Double = (0.01 * 255) * (0.01 * 255), c2: Double = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        for c in 0..<3 {
            for y in 5..<(height - 5) {
                for x in 5..<(width - 5) {
                    var mx = 0.0, my = 0.0, xx = 0.0, yy = 0.0, xy = 0.0
                    for j in -5...5 {
                        for i in -5...5 {
                            let w = gauss[j + 5] * gauss[i + 5],
                                p = 3 * ((y + j) * width + x + i) + c
                            mx += w * a[p]; my += w * b[p]
                            xx += w * a[p] * a[p]; yy += w * b[p] * b[p]; xy += w * a[p] * b[p]
                        }
                    }
                    let sxx = xx - mx * mx, syy = yy - my * my, sxy = xy - mx * my
                    total +=
                        (2 * mx * my + c1) * (2 * sxy + c2)
                        / ((mx * mx + my * my + c1) * (sxx + syy + c2))
                }
            }
        }
        return total / Double(3 * (width - 10) * (height - 10))
    }

    /// (bytes, mean SSIM, mean ΔE) of a file Pillow decodes as `format` against `frames`.
    static func fidelity(_ bytes: [UInt8], format: String, _ frames: [Pixmap]) throws
        -> (bytes: Int, ssim: Double, deltaE: Double)?
    {
        let path = NSTemporaryDirectory() + "flipbook-lossy-" + UUID().uuidString
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard
            let decoded = try PillowWebP.decode(path, width: width, height: height, format: format)
        else { return nil }
        // Every frame differs from the one before and lasts 100 ms: one decoded frame each.
        #expect(decoded.frames.count == frames.count)
        var ssim = 0.0, deltaE = 0.0
        for (frame, shown) in zip(frames, decoded.frames) {
            let a = overWhite(frame.straightRGBA()), b = overWhite(shown)
            ssim += Self.ssim(a, b)
            deltaE += Self.deltaE(a, b)
        }
        return (bytes.count, ssim / Double(frames.count), deltaE / Double(frames.count))
    }

    @Test func flatUIBeatsOurDefaultGIF() throws {
        let frames = (0..<Self.count).map(Self.frame)
        let options = WebPEncodingOptions()
        let chooser = try WebPLossyChooser(width: Self.width, height: Self.height, options: options)
        let animation = try WebPLossyAnimation(width: Self.width, height: Self.height)
        for (k, frame) in frames.enumerated() {
            let candidates = try WebPFrameCandidates(
                frame, previous: k > 0 ? frames[k - 1] : nil, options: options)
            try animation.add(chooser.choose(frame, candidates), start: 100 * k)
        }
        let webp = try animation.finish(end: 100 * Self.count)

        let path = NSTemporaryDirectory() + "flipbook-lossy-" + UUID().uuidString + ".gif"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFWriter(
            path: path, width: Self.width, height: Self.height, loopCount: 0, background: nil)
        for frame in frames { try writer.append(frame, delayCentiseconds: 10) }
        try writer.finish()
        let gif = try FileIO.readAll(path: path)

        guard let w = try Self.fidelity(webp, format: "WEBP", frames),
            let g = try Self.fidelity(gif, format: "GIF", frames)
        else { return }
        #expect(w.bytes < g.bytes, "WebP \(w), GIF \(g)")
        #expect(w.ssim > g.ssim, "WebP \(w), GIF \(g)")
        #expect(w.deltaE < g.deltaE, "WebP \(w), GIF \(g)")
    }
}
