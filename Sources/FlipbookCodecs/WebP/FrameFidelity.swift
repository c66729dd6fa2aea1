import Foundation
import FlipbookRaster

/// A frame composited over white as 8-bit RGB, row-major: the form in which
/// scripts/bench-formats measures issue 25's SSIM and Oklab ΔE, so the lossy WebP encoder's
/// per-frame choice (``WebPLossyChooser``) is made on the quantities it is judged by.
struct OverWhiteImage: Sendable {
    let width: Int
    let height: Int
    var rgb: [UInt8]

    /// A canvas of white (what a transparent canvas shows over white).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        rgb = [UInt8](repeating: 255, count: width * height * 3)
    }

    /// `pixmap` (premultiplied) over white: c + (255 − a) per channel.
    init(_ pixmap: Pixmap) {
        self.init(width: pixmap.width, height: pixmap.height, premultiplied: pixmap.data)
    }

    init(width: Int, height: Int, premultiplied data: [UInt8]) {
        self.width = width
        self.height = height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        data.withUnsafeBufferPointer { s in
            rgb.withUnsafeMutableBufferPointer { d in
                for p in 0..<(width * height) {
                    let a = 255 - Int(s[4 * p + 3])
                    for c in 0..<3 { d[3 * p + c] = UInt8(min(255, Int(s[4 * p + c]) + a)) }
                }
            }
        }
        self.rgb = rgb
    }

    /// Straight-alpha RGBA (a decoder's output) over white, rounded.
    init(width: Int, height: Int, straightRGBA s: [UInt8]) {
        self.width = width
        self.height = height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for p in 0..<(width * height) {
            let a = Int(s[4 * p + 3])
            for c in 0..<3 {
                rgb[3 * p + c] = UInt8((Int(s[4 * p + c]) * a + 255 * (255 - a) + 127) / 255)
            }
        }
        self.rgb = rgb
    }
}

/// Per-pixel fidelity of an image against a reference frame, by issue 25's definitions:
/// the Euclidean Oklab distance of a pixel, and SSIM (mean over R, G, B; Gaussian window
/// σ 1.5 over 11×11 pixels, Wang et al.'s constants) of a window centre at least 5 pixels
/// from the edge, as scripts/bench-gif computes them.
enum FrameFidelity {
    /// Window centres whose SSIM is defined: 5 pixels in from every edge.
    static func centres(width: Int, height: Int) -> PixelBounds {
        PixelBounds(x0: 5, y0: 5, x1: max(5, width - 5), y1: max(5, height - 5))
    }

    /// The Oklab distance between pixel `p` of `a` and of `b` (0 when equal).
    static func oklabDistance(_ a: OverWhiteImage, _ b: OverWhiteImage, pixel p: Int) -> Float {
        let i = 3 * p
        if a.rgb[i] == b.rgb[i] && a.rgb[i + 1] == b.rgb[i + 1] && a.rgb[i + 2] == b.rgb[i + 2] {
            return 0
        }
        let x = oklab(a.rgb[i], a.rgb[i + 1], a.rgb[i + 2])
        let y = oklab(b.rgb[i], b.rgb[i + 1], b.rgb[i + 2])
        let d0 = x.0 - y.0, d1 = x.1 - y.1, d2 = x.2 - y.2
        return (d0 * d0 + d1 * d1 + d2 * d2).squareRoot()
    }

    private static let linear: [Float] = (0..<256).map { v in
        let c = Float(v) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    private static func oklab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Float, Float, Float) {
        let lr = linear[Int(r)], lg = linear[Int(g)], lb = linear[Int(b)]
        let l = cbrtf(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
        let m = cbrtf(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
        let s = cbrtf(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
        return (
            0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        )
    }

    private static let gauss: [Float] = {
        let w = (-5...5).map { expf(-0.5 * powf(Float($0) / 1.5, 2)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }()

    /// Writes the SSIM of `image` against `reference` at every window centre of `region`
    /// (clipped to ``centres(width:height:)``) into `map` (one value per canvas pixel).
    static func ssim(
        _ reference: OverWhiteImage, _ image: OverWhiteImage, region: PixelBounds,
        into map: inout [Float]
    ) {
        let w = reference.width
        let r = region.intersection(centres(width: w, height: reference.height))
        guard !r.isEmpty else { return }
        let cw = r.width, ch = r.height, eh = ch + 10
        let c1: Float = (0.01 * 255) * (0.01 * 255), c2: Float = (0.03 * 255) * (0.03 * 255)
        var total = [Float](repeating: 0, count: cw * ch)
        // Five moments (x, y, x², y², xy), blurred across then down.
        var across = [[Float]](repeating: [Float](repeating: 0, count: cw * eh), count: 5)
        var window = [Float](repeating: 0, count: 5)
        for c in 0..<3 {
            for yy in 0..<eh {
                let row = (r.y0 - 5 + yy) * w
                for xx in 0..<cw {
                    for k in 0..<5 { window[k] = 0 }
                    for t in 0..<11 {
                        let p = 3 * (row + r.x0 - 5 + xx + t) + c
                        let x = Float(reference.rgb[p]), y = Float(image.rgb[p]), g = gauss[t]
                        window[0] += g * x
                        window[1] += g * y
                        window[2] += g * x * x
                        window[3] += g * y * y
                        window[4] += g * x * y
                    }
                    for k in 0..<5 { across[k][yy * cw + xx] = window[k] }
                }
            }
            for yy in 0..<ch {
                for xx in 0..<cw {
                    for k in 0..<5 { window[k] = 0 }
                    for t in 0..<11 {
                        let g = gauss[t], i = (yy + t) * cw + xx
                        for k in 0..<5 { window[k] += g * across[k][i] }
                    }
                    let mx = window[0], my = window[1]
                    let sxx = window[2] - mx * mx, syy = window[3] - my * my
                    let sxy = window[4] - mx * my
                    total[yy * cw + xx] +=
                        ((2 * mx * my + c1) * (2 * sxy + c2))
                        / ((mx * mx + my * my + c1) * (sxx + syy + c2))
                }
            }
        }
        for yy in 0..<ch {
            for xx in 0..<cw { map[(r.y0 + yy) * w + r.x0 + xx] = total[yy * cw + xx] / 3 }
        }
    }
}
