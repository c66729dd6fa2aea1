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
    /// The indices refer to the file's global color map (``GIFFrameEncoder/globalPalette``);
    /// the image is written without a local color map.
    public var usesGlobalPalette: Bool = false

    public var coversCanvas: Bool { left == 0 && top == 0 && width == source.width && height == source.height }
}

/// The size/fidelity choices of a GIF.
public struct GIFEncodingOptions: Sendable, Hashable {
    /// How lossy frames (more colors than the palette) are matched to their palette.
    public var dither: GIFDither
    /// 1…100: the palette size of lossy frames (100: 256 colors, 50: 65, 10: 5) and the
    /// k-means effort. Frames whose colors fit the palette stay exact at any quality.
    public var quality: Int
    /// Transparent canvases only: semi-transparent pixels that stay visible (alpha ≥ 128)
    /// are composited over this color instead of being shown unpremultiplied, so
    /// anti-aliased edges blend into the page the GIF will sit on.
    public var matte: Color?

    public init(dither: GIFDither = .none, quality: Int = 100, matte: Color? = nil) {
        self.dither = dither
        self.quality = min(100, max(1, quality))
        self.matte = matte.map { $0.clamped }
    }

    /// Palette entries for lossy frames: 2 + 254·(quality/100)², so 256 at 100.
    public var maxColors: Int {
        let q = Double(quality) / 100
        return min(256, max(2, Int((2 + 254 * q * q).rounded())))
    }

    /// k-means rounds in Oklab after Wu's quantizer.
    public var refinementPasses: Int { quality >= 90 ? 6 : quality >= 50 ? 4 : 2 }
}

/// The pure, thread-safe half of GIF encoding: frame differencing and quantization.
///
/// `prepare(frame, previous:)` compares SOURCE pixels (never quantized output):
/// - identical to `previous` → an "identical" frame (the writer extends the last delay);
/// - otherwise only the bounding rectangle of the changed pixels is encoded, drawn over the
///   kept previous frame (disposal "do not dispose"). That is exact when the canvas is
///   opaque, or when no pixel goes from visible to transparent;
/// - inside the rectangle, pixels equal to the previous frame's may be written as the
///   transparent index (the kept pixel shows through). The encoder "encodes both ways"
///   with ``LZWEstimate`` and keeps the smallest of: all unchanged pixels transparent; none
///   transparent (exact frames only); unchanged pixels transparent except where repeating the
///   left neighbour's index keeps a run going (exact frames only). Lossy frames always make
///   them transparent: re-quantizing a pixel that did not change could only shift its color
///   (and crawl, with dithering); their palette is built from the changed pixels alone;
/// - on a transparent canvas, when some pixel goes from visible (alpha ≥ 128) to
///   transparent, the whole canvas is encoded and flagged ``GIFPreparedFrame/needsClearedCanvas``:
///   the writer then disposes the previous frame to background.
/// Without `previous`, the whole canvas is encoded.
///
/// Pixels: transparent canvas (`background == nil`): alpha < 128 → the transparent index,
/// otherwise the unpremultiplied color (or, with ``GIFEncodingOptions/matte``, the pixel
/// composited over the matte). Opaque canvas: premultiplied pixels are composited over
/// `background` (a no-op for the opaque frames a renderer produces with a background).
public struct GIFFrameEncoder: Sendable {
    public let width: Int
    public let height: Int
    /// The opaque canvas color, or nil for a transparent canvas.
    public let background: Color?
    public var options: GIFEncodingOptions
    /// The global color map, built from the first frame by ``prepareFirst(_:)`` (its last
    /// entry is the transparent slot, ``globalTransparentIndex``). Later frames use it instead
    /// of a local map when that is smaller and costs (almost) no fidelity.
    public var globalPalette: [UInt32]?
    public var globalTransparentIndex: Int? { globalPalette.map { $0.count - 1 } }

    public init(width: Int, height: Int, background: Color?, options: GIFEncodingOptions = GIFEncodingOptions()) {
        self.width = width
        self.height = height
        self.background = background.map { $0.clamped }
        self.options = options
    }

    /// Quantizes the first frame over the whole canvas for use as the global color map
    /// (at most 255 colors plus a transparent slot at the end) and returns the encoder that
    /// holds it with the frame prepared against it. Frame 0 alone decides the palette, so
    /// the result does not depend on how later frames are scheduled.
    public func prepareFirst(_ frame: Pixmap) -> (encoder: GIFFrameEncoder, frame: GIFPreparedFrame) {
        let pixels = packedPixels(frame, (0, 0, width, height))
        // Exactly 256 opaque colors leave no slot for transparency: stay with local maps
        // rather than lose a color.
        if options.maxColors == 256, let exact = pixels.withUnsafeBufferPointer({ ColorQuantizer.exactColors($0, limit: 256) }),
           exact.palette.count == 256, exact.transparentIndex == nil {
            return (self, prepare(frame, previous: nil))
        }
        let q = ColorQuantizer.quantize(pixels, maxColors: min(255, options.maxColors),
                                        refinementPasses: options.refinementPasses, dither: options.dither,
                                        width: width, originX: 0, originY: 0)
        var palette = q.palette
        var transparent = q.transparentIndex
        if let t = transparent, t != palette.count - 1 {
            // Exact palettes put transparency where it first appeared: move it to the end.
            palette.remove(at: t)
            palette.append(0)
            transparent = palette.count - 1
        } else if transparent == nil {
            palette.append(0)
        }
        var indices = q.indices
        if let t = q.transparentIndex, t != palette.count - 1 {
            let last = UInt8(palette.count - 1)
            for i in indices.indices {
                let v = Int(indices[i])
                indices[i] = v == t ? last : v > t ? UInt8(v - 1) : UInt8(v)
            }
        }
        var encoder = self
        encoder.globalPalette = palette
        var prepared = GIFPreparedFrame(source: frame, isIdenticalToPrevious: false, left: 0, top: 0, width: width,
                                        height: height, palette: palette, indices: indices,
                                        transparentIndex: transparent, needsClearedCanvas: false, isExact: q.isExact)
        prepared.usesGlobalPalette = true
        return (encoder, prepared)
    }

    /// Differences and quantizes one frame. `previous` is the source of the frame written
    /// just before it (nil for the first frame).
    public func prepare(_ frame: Pixmap, previous: Pixmap?) -> GIFPreparedFrame {
        precondition(frame.width == width && frame.height == height, "frame size differs from the GIF's")
        var rect = (x0: 0, y0: 0, x1: width, y1: height)
        var needsClear = false
        var diffed = false
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
                diffed = true
            }
        }
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        let pixels = packedPixels(frame, rect)
        var masked = pixels
        var unchangedCount = 0
        if diffed, let previous {
            let before = packedPixels(previous, rect)
            for i in 0..<pixels.count where pixels[i] == before[i] && pixels[i] >> 24 == 0 {
                masked[i] = ColorQuantizer.transparentPixel
                unchangedCount += 1
            }
        }
        func quantize(_ p: [UInt32]) -> ColorQuantizer.Result {
            ColorQuantizer.quantize(p, maxColors: options.maxColors, refinementPasses: options.refinementPasses,
                                    dither: options.dither, width: w, originX: rect.x0, originY: rect.y0)
        }
        var q = quantize(masked)
        if unchangedCount > 0 && q.isExact {
            // Encode both ways (and a run-keeping mix) and keep the smallest.
            let whole = quantize(pixels)
            if whole.isExact {
                var candidates = [q, whole]
                if let mix = Self.runKeepingMix(whole, pixels: pixels, masked: masked) { candidates.append(mix) }
                q = candidates.min { Self.encodedSize($0) < Self.encodedSize($1) }!
            }
        }
        var useGlobal = false
        if let global = globalPalette, let gt = globalTransparentIndex {
            // The same pixels against the global map: kept when smaller and about as faithful.
            let g = masked.withUnsafeBufferPointer {
                OklabQuantizer.map($0, width: w, originX: rect.x0, originY: rect.y0, palette: Array(global.dropLast()),
                                   transparentIndex: gt, dither: options.dither, spread: 8)
            }
            var size = 2
            while size < global.count { size *= 2 }
            let sizeG = LZWEstimate.bytes(g, minCodeSize: LZWEstimate.minCodeSize(colors: size))
            let changed = masked.count { $0 >> 24 == 0 }
            let errL = Self.squaredError(masked, q.indices, q.palette), errG = Self.squaredError(masked, g, global)
            let tolerance = Double(changed) * (24 + 0.5 * Double(100 - options.quality))
            if sizeG < Self.encodedSize(q) && errG <= errL * 1.05 + tolerance {
                q = ColorQuantizer.Result(palette: global, indices: g, transparentIndex: gt, isExact: errG == 0)
                useGlobal = true
            }
        }
        var prepared = GIFPreparedFrame(source: frame, isIdenticalToPrevious: false, left: rect.x0, top: rect.y0,
                                        width: w, height: h, palette: q.palette,
                                        indices: q.indices, transparentIndex: q.transparentIndex,
                                        needsClearedCanvas: needsClear, isExact: q.isExact)
        prepared.usesGlobalPalette = useGlobal
        return prepared
    }

    /// Σ squared RGB error over the opaque `pixels` (transparent ones are not drawn).
    static func squaredError(_ pixels: [UInt32], _ indices: [UInt8], _ palette: [UInt32]) -> Double {
        var total = 0
        for i in 0..<pixels.count where pixels[i] >> 24 == 0 {
            let p = pixels[i], c = palette[Int(indices[i])]
            let dr = Int(p & 0xFF) - Int(c & 0xFF), dg = Int((p >> 8) & 0xFF) - Int((c >> 8) & 0xFF)
            let db = Int((p >> 16) & 0xFF) - Int((c >> 16) & 0xFF)
            total += dr * dr + dg * dg + db * db
        }
        return Double(total)
    }

    /// Bytes of the local color map plus the LZW image data.
    static func encodedSize(_ q: ColorQuantizer.Result) -> Int {
        var size = 2
        while size < q.palette.count { size *= 2 }
        return 3 * size + LZWEstimate.bytes(q.indices, minCodeSize: LZWEstimate.minCodeSize(colors: size))
    }

    /// The exact result `whole` with a transparent entry added (if it has none), where each
    /// unchanged pixel repeats its left neighbour's index when that is its own color and is
    /// transparent otherwise. Nil when the palette is full.
    static func runKeepingMix(_ whole: ColorQuantizer.Result, pixels: [UInt32], masked: [UInt32]) -> ColorQuantizer.Result? {
        var palette = whole.palette
        let clear: Int
        if let t = whole.transparentIndex { clear = t } else {
            guard palette.count < 256 else { return nil }
            clear = palette.count
            palette.append(0)
        }
        var indices = whole.indices
        var last = -1
        for i in 0..<indices.count {
            if masked[i] != pixels[i] && Int(indices[i]) != last { indices[i] = UInt8(clear) }
            last = Int(indices[i])
        }
        return ColorQuantizer.Result(palette: palette, indices: indices, transparentIndex: clear, isExact: true)
    }

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
