#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookGeometry
import FlipbookRaster

/// A frame quantized and ready for ``GIFWriter/write(_:delayCentiseconds:)``: the part of the
/// canvas to draw, its local palette and its palette indices. Cheap to move between threads.
public struct GIFPreparedFrame: Sendable {
    /// The source pixels (kept so the writer can re-encode this frame over the whole
    /// canvas when a later frame needs the canvas cleared).
    public let source: Pixmap
    /// The frame's pixels equal the previous frame's: the writer only extends a delay.
    public let isIdenticalToPrevious: Bool
    /// The rectangle drawn, in canvas pixels (the whole canvas for full frames).
    public let left: Int, top: Int, width: Int, height: Int
    /// Packed 0x00BBGGRR colors (the local color map before padding to a power of two).
    public let palette: [UInt32]
    /// `width × height` palette indices, rows top to bottom.
    public let indices: [UInt8]
    /// The palette index written as transparent, if any pixel is transparent.
    public let transparentIndex: Int?
    /// Some pixel that was visible in the previous frame is transparent in this one, so the
    /// previous frame must be disposed to background (transparent canvases only).
    public let needsClearedCanvas: Bool
    /// Whether every pixel kept its exact color (at most 256 distinct colors).
    public let isExact: Bool

    public var coversCanvas: Bool { left == 0 && top == 0 && width == source.width && height == source.height }
}

/// The pure, thread-safe half of GIF encoding: frame differencing and quantization.
///
/// `prepare(frame, previous:)` compares SOURCE pixels (never quantized output):
/// - identical to `previous` → an "identical" frame (the writer extends the last delay);
/// - otherwise the bounding rectangle of the changed pixels is quantized on its own and
///   drawn over the kept previous frame (disposal "do not dispose"). That is exact when
///   the canvas is opaque, or when no pixel goes from visible to transparent;
/// - on a transparent canvas, when some pixel goes from visible (alpha ≥ 128) to
///   transparent, the whole canvas is encoded and flagged ``GIFPreparedFrame/needsClearedCanvas``:
///   the writer then disposes the previous frame to background.
/// Without `previous`, the whole canvas is encoded.
///
/// Pixels: transparent canvas (`background == nil`): alpha < 128 → the transparent index,
/// otherwise the unpremultiplied color. Opaque canvas: premultiplied pixels are composited
/// over `background` (a no-op for the opaque frames a renderer produces with a background).
public struct GIFFrameEncoder: Sendable {
    public let width: Int
    public let height: Int
    /// The opaque canvas color, or nil for a transparent canvas.
    public let background: Color?
    /// k-means rounds after Wu's quantizer (frames with more than 256 colors).
    public var refinementPasses: Int = 2

    public init(width: Int, height: Int, background: Color?) {
        self.width = width
        self.height = height
        self.background = background.map { $0.clamped }
    }

    /// Differences and quantizes one frame. `previous` is the source of the frame written
    /// just before it (nil for the first frame).
    public func prepare(_ frame: Pixmap, previous: Pixmap?) -> GIFPreparedFrame {
        precondition(frame.width == width && frame.height == height, "frame size differs from the GIF's")
        var rect = (x0: 0, y0: 0, x1: width, y1: height)
        var needsClear = false
        if let previous, previous.width == width, previous.height == height {
            guard let changed = Self.changedRect(frame, previous) else {
                return GIFPreparedFrame(source: frame, isIdenticalToPrevious: true, left: 0, top: 0, width: 0, height: 0,
                                        palette: [], indices: [], transparentIndex: nil, needsClearedCanvas: false,
                                        isExact: true)
            }
            if background == nil && Self.losesVisiblePixels(frame, previous, in: changed) {
                needsClear = true
            } else {
                rect = changed
            }
        }
        let pixels = packedPixels(frame, rect)
        let q = ColorQuantizer.quantize(pixels, maxColors: 256, refinementPasses: refinementPasses)
        return GIFPreparedFrame(source: frame, isIdenticalToPrevious: false, left: rect.x0, top: rect.y0,
                                width: rect.x1 - rect.x0, height: rect.y1 - rect.y0, palette: q.palette,
                                indices: q.indices, transparentIndex: q.transparentIndex,
                                needsClearedCanvas: needsClear, isExact: q.isExact)
    }

    /// The pixels of `rect` as packed straight colors (``ColorQuantizer/transparentPixel``
    /// for transparent ones).
    func packedPixels(_ frame: Pixmap, _ rect: (x0: Int, y0: Int, x1: Int, y1: Int)) -> [UInt32] {
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        let bg: (r: UInt32, g: UInt32, b: UInt32)? = background.map {
            (UInt32(($0.red * 255).rounded()), UInt32(($0.green * 255).rounded()), UInt32(($0.blue * 255).rounded()))
        }
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

    /// Whether some pixel in `rect` is visible (alpha ≥ 128) in `previous` but not in `frame`.
    static func losesVisiblePixels(_ frame: Pixmap, _ previous: Pixmap, in rect: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Bool {
        for y in rect.y0..<rect.y1 {
            var i = (y * frame.width + rect.x0) * 4 + 3
            for _ in rect.x0..<rect.x1 {
                if frame.data[i] < 128 && previous.data[i] >= 128 { return true }
                i += 4
            }
        }
        return false
    }
}
