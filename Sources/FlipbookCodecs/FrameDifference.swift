#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookGeometry
import FlipbookRaster

/// Frame differencing: the pixels a GIF frame encodes, the rectangle that changed, and
/// whether a transparent canvas loses visible pixels.
extension GIFFrameEncoder {
    /// The pixels of `rect` as packed straight colors (``ColorQuantizer/transparentPixel``
    /// for transparent ones).
    func packedPixels(_ frame: Pixmap, _ rect: (x0: Int, y0: Int, x1: Int, y1: Int)) -> [UInt32] {
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        func bytes(_ c: Color) -> (r: UInt32, g: UInt32, b: UInt32) {
            (UInt32((c.red * 255).rounded()), UInt32((c.green * 255).rounded()), UInt32((c.blue * 255).rounded()))
        }
        let bg = background.map(bytes)
        let matte = background == nil ? options.matte.map(bytes) : nil
        return [UInt32](unsafeUninitializedCapacity: w * h) { out, count in
            frame.data.withUnsafeBytes { raw in
                raw.withMemoryRebound(to: UInt32.self) { src in
                    var o = 0
                    for y in rect.y0..<rect.y1 {
                        let row = y * frame.width
                        for x in rect.x0..<rect.x1 {
                            let p = UInt32(littleEndian: src[row + x])
                            let a = p >> 24
                            let r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
                            if a == 255 {
                                out[o] = p & 0xFF_FFFF
                            } else if let bg {
                                let k = 255 - a
                                out[o] = min(255, r + (bg.r * k + 127) / 255) | min(255, g + (bg.g * k + 127) / 255) << 8
                                    | min(255, b + (bg.b * k + 127) / 255) << 16
                            } else if a < 128 {
                                out[o] = ColorQuantizer.transparentPixel
                            } else if let bg = matte {
                                let k = 255 - a
                                out[o] = min(255, r + (bg.r * k + 127) / 255) | min(255, g + (bg.g * k + 127) / 255) << 8
                                    | min(255, b + (bg.b * k + 127) / 255) << 16
                            } else {
                                out[o] = min(255, (r * 255 + a / 2) / a) | min(255, (g * 255 + a / 2) / a) << 8
                                    | min(255, (b * 255 + a / 2) / a) << 16
                            }
                            o += 1
                        }
                    }
                }
            }
            count = w * h
        }
    }

    /// The bounding box (exclusive upper bounds) of the pixels that differ, or nil.
    static func changedRect(_ a: Pixmap, _ b: Pixmap) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let w = a.width
        return a.data.withUnsafeBytes { ra in
            b.data.withUnsafeBytes { rb in
                ra.withMemoryRebound(to: UInt32.self) { pa in
                    rb.withMemoryRebound(to: UInt32.self) { pb in
                        var x0 = w, x1 = 0, y0 = -1, y1 = 0
                        for y in 0..<a.height {
                            let row = y * w
                            // Most rows of an animation are unchanged: memcmp skips them at
                            // memory speed before the pixel-by-pixel search for the edges.
                            if memcmp(pa.baseAddress! + row, pb.baseAddress! + row, w * 4) == 0 { continue }
                            var l = 0
                            while l < w && pa[row + l] == pb[row + l] { l += 1 }
                            var r = w
                            while r > l && pa[row + r - 1] == pb[row + r - 1] { r -= 1 }
                            if y0 < 0 { y0 = y }
                            y1 = y + 1
                            x0 = min(x0, l); x1 = max(x1, r)
                        }
                        return y0 < 0 ? nil : (x0, y0, x1, y1)
                    }
                }
            }
        }
    }

    /// The bounding box of the pixels in `rect` that are visible (alpha ≥ 128) in
    /// `previous` but not in `frame`, or nil when none are.
    static func vanishingRect(_ frame: Pixmap, _ previous: Pixmap, in rect: PixelRect) -> PixelRect? {
        var out: PixelRect?
        for y in rect.y0..<rect.y1 {
            var i = (y * frame.width + rect.x0) * 4 + 3
            for x in rect.x0..<rect.x1 {
                if frame.data[i] < 128 && previous.data[i] >= 128 { out = union(out, (x, y, x + 1, y + 1)) }
                i += 4
            }
        }
        return out
    }

    /// The bounding box of the visible (alpha ≥ 128) pixels in `rect`, or nil.
    static func visibleRect(_ frame: Pixmap, in rect: PixelRect) -> PixelRect? {
        var out: PixelRect?
        for y in rect.y0..<rect.y1 {
            var i = (y * frame.width + rect.x0) * 4 + 3
            var first = -1, last = -1
            for x in rect.x0..<rect.x1 {
                if frame.data[i] >= 128 { if first < 0 { first = x }; last = x }
                i += 4
            }
            if first >= 0 { out = union(out, (first, y, last + 1, y + 1)) }
        }
        return out
    }

    /// The smallest rectangle holding both (nil when both are nil).
    public static func union(_ a: PixelRect?, _ b: PixelRect?) -> PixelRect? {
        guard let a else { return b }
        guard let b else { return a }
        return (min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
    }
}
