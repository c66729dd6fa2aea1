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
    ///
    /// Eight neighbouring centres at a time (SIMD lanes), each lane doing exactly the scalar
    /// sequence of Float operations (same order, no fused multiply-adds), so the values are
    /// bit-for-bit those of one centre at a time: the encoder's choices, and its bytes,
    /// depend on them.
    static func ssim(
        _ reference: OverWhiteImage, _ image: OverWhiteImage, region: PixelBounds,
        into map: inout [Float]
    ) {
        typealias V = SIMD8<Float>
        let w = reference.width
        let r = region.intersection(centres(width: w, height: reference.height))
        guard !r.isEmpty else { return }
        let cw = r.width, ch = r.height, eh = ch + 10
        // Vectors per row; the lanes past `cw` see zeros and are never read back.
        let vw = (cw + V.scalarCount - 1) / V.scalarCount
        let paddedWidth = vw * V.scalarCount + 10
        let c1: Float = (0.01 * 255) * (0.01 * 255), c2: Float = (0.03 * 255) * (0.03 * 255)
        let gauss = self.gauss.map { V(repeating: $0) }
        var total = [V](repeating: .zero, count: vw * ch)
        // Five moments (x, y, x², y², xy), blurred across then down.
        var across = [V](repeating: .zero, count: 5 * vw * eh)
        var xs = [Float](repeating: 0, count: paddedWidth)
        var ys = [Float](repeating: 0, count: paddedWidth)
        reference.rgb.withUnsafeBufferPointer { ref in
            image.rgb.withUnsafeBufferPointer { img in
                across.withUnsafeMutableBufferPointer { across in
                    for c in 0..<3 {
                        for yy in 0..<eh {
                            let row = (r.y0 - 5 + yy) * w + r.x0 - 5
                            for i in 0..<(cw + 10) {
                                xs[i] = Float(ref[3 * (row + i) + c])
                                ys[i] = Float(img[3 * (row + i) + c])
                            }
                            xs.withUnsafeBytes { xb in
                                ys.withUnsafeBytes { yb in
                                    for v in 0..<vw {
                                        var m0 = V.zero, m1 = V.zero, m2 = V.zero
                                        var m3 = V.zero, m4 = V.zero
                                        for t in 0..<11 {
                                            let offset = (v * V.scalarCount + t) * 4
                                            let x = xb.loadUnaligned(
                                                fromByteOffset: offset, as: V.self)
                                            let y = yb.loadUnaligned(
                                                fromByteOffset: offset, as: V.self)
                                            let gx = gauss[t] * x, gy = gauss[t] * y
                                            m0 += gx
                                            m1 += gy
                                            m2 += gx * x
                                            m3 += gy * y
                                            m4 += gx * y
                                        }
                                        let i = yy * vw + v, plane = vw * eh
                                        across[i] = m0
                                        across[plane + i] = m1
                                        across[2 * plane + i] = m2
                                        across[3 * plane + i] = m3
                                        across[4 * plane + i] = m4
                                    }
                                }
                            }
                        }
                        let plane = vw * eh
                        for yy in 0..<ch {
                            for v in 0..<vw {
                                var m0 = V.zero, m1 = V.zero, m2 = V.zero, m3 = V.zero, m4 = V.zero
                                for t in 0..<11 {
                                    let g = gauss[t], i = (yy + t) * vw + v
                                    m0 += g * across[i]
                                    m1 += g * across[plane + i]
                                    m2 += g * across[2 * plane + i]
                                    m3 += g * across[3 * plane + i]
                                    m4 += g * across[4 * plane + i]
                                }
                                let mx = m0, my = m1
                                let sxx = m2 - mx * mx, syy = m3 - my * my
                                let sxy = m4 - mx * my
                                let numerator = (2 * mx * my + c1) * (2 * sxy + c2)
                                let denominator = (mx * mx + my * my + c1) * (sxx + syy + c2)
                                total[yy * vw + v] += numerator / denominator
                            }
                        }
                    }
                }
            }
        }
        for yy in 0..<ch {
            for xx in 0..<cw {
                map[(r.y0 + yy) * w + r.x0 + xx] =
                    total[yy * vw + xx / V.scalarCount][xx % V.scalarCount] / 3
            }
        }
    }
}
