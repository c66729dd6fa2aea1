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
    /// The source pixels, kept on transparent canvases only, where the writer may have to
    /// re-encode this frame over a cleared region (``needsClearedCanvas``). On an opaque
    /// canvas nil: the frame is never redrawn, and a queue of prepared frames then holds no
    /// pixmaps (4 MB each at 750×1334).
    public let source: Pixmap?
    /// The frame's pixels equal the previous frame's: the writer only extends a delay.
    public let isIdenticalToPrevious: Bool
    /// The rectangle drawn, in canvas pixels (the whole canvas for full frames).
    public internal(set) var left: Int, top: Int, width: Int, height: Int
    /// Packed 0x00BBGGRR colors (the local color map before padding to a power of two).
    public let palette: [UInt32]
    /// The compressed image: `width × height` palette indices, rows top to bottom, LZW-coded.
    public internal(set) var image: LZWImage
    /// The palette index of every pixel of the rectangle, as compressed.
    public var indices: [UInt8] { image.indices }
    /// The palette index written as transparent, if any pixel is transparent.
    public let transparentIndex: Int?
    /// Some pixel that was visible in the previous frame is transparent in this one, so the
    /// previous frame must be disposed to background (transparent canvases only).
    public let needsClearedCanvas: Bool
    /// Whether every pixel kept its exact color (at most 256 distinct colors).
    public let isExact: Bool
    /// With ``needsClearedCanvas``: the bounding box of the pixels that vanish (visible in
    /// the previous frame, transparent in this one). Such a frame is a placeholder until
    /// the writer prepares it again with `redraw` (see ``GIFFrameEncoder/prepare(_:previous:redraw:)``).
    public var vanishing: PixelBounds?
    /// The indices refer to the file's global color map (``GIFFrameEncoder/globalPalette``);
    /// the image is written without a local color map.
    public var usesGlobalPalette: Bool = false

    /// Whether the rectangle is the whole `canvasWidth × canvasHeight` canvas.
    public func covers(canvasWidth: Int, canvasHeight: Int) -> Bool {
        left == 0 && top == 0 && width == canvasWidth && height == canvasHeight
    }
}

/// The size/fidelity choices of a GIF.
public struct GIFEncodingOptions: Sendable, Hashable {
    /// How lossy frames (more colors than the palette) are matched to their palette.
    public var dither: GIFDither
    /// 1…100, the rate control (`flipbook render`'s default is ``defaultQuality``; this
    /// type's is 100, the most faithful): how far a pixel may drift from
    /// its source color to save bytes. It sets the lossy LZW tolerance of quantized frames
    /// (``quantizedTolerance``: 0 at 100, 2 levels at 90, 10 at 50), of exact frames
    /// (``exactTolerance``: the same below 95; from 95 up frames whose colors fit stay exact),
    /// how much error the global color map may add, the palette size (256 colors down to
    /// 50, then 2 + 254·(q/50)²) and the k-means effort. Every one of them moves toward
    /// fidelity as quality rises, so a higher quality never gives a worse GIF.
    public var quality: Int
    /// Transparent canvases only: semi-transparent pixels that stay visible (alpha ≥ 128)
    /// are composited over this color instead of being shown unpremultiplied, so
    /// anti-aliased edges blend into the page the GIF will sit on.
    public var matte: Color?
    /// 0 (default): lossless LZW. Otherwise the largest color deviation, in 8-bit levels,
    /// that the lossy LZW coder (``LZWEncoder/compressLossy``) may give a pixel to keep a
    /// string going; 0…100.
    public var lossy: Int

    /// The quality of a default render: lossy LZW with 2 levels of tolerance (85, with 3,
    /// cost owl-login SSIM below ffmpeg's; see docs/gif.md).
    public static let defaultQuality = 90

    public init(dither: GIFDither = .none, quality: Int = 100, matte: Color? = nil, lossy: Int = 0)
    {
        self.dither = dither
        self.quality = min(100, max(1, quality))
        self.matte = matte.map { $0.clamped }
        self.lossy = min(100, max(0, lossy))
    }

    /// Palette entries for lossy frames: 256 from quality 50 up, then 2 + 254·(quality/50)².
    public var maxColors: Int {
        let q = Double(min(quality, 50)) / 50
        return min(256, max(2, Int((2 + 254 * q * q).rounded())))
    }

    /// k-means rounds in Oklab after Wu's quantizer.
    public var refinementPasses: Int { quality >= 80 ? 6 : quality >= 50 ? 4 : 2 }

    /// Lossy LZW tolerance, in 8-bit levels, of frames quantized to a palette: `--lossy` or
    /// the quality's, (100 − q)/5 from 100 down to 50, then 0.6 more per step below 50
    /// (39 at 1: below 50 the palette shrinks instead).
    public var quantizedTolerance: Int { max(lossy, Self.tolerance(quality)) }

    /// Lossy LZW tolerance of frames whose colors fit their palette exactly: `--lossy`, or
    /// the quality's below 95 (flat UI scenes spend most of their bytes in such frames).
    public var exactTolerance: Int { max(lossy, quality >= 95 ? 0 : Self.tolerance(quality)) }

    static func tolerance(_ quality: Int) -> Int {
        quality >= 50 ? (100 - quality + 2) / 5 : 10 + ((50 - quality) * 3 + 2) / 5
    }
}

/// The pure, thread-safe half of GIF encoding: frame differencing and quantization.
///
/// `prepare(frame, previous:)` compares SOURCE pixels (never quantized output):
/// - identical to `previous` → an "identical" frame (the writer extends the last delay);
/// - otherwise only the bounding rectangle of the changed pixels is encoded, drawn over the
///   kept previous frame (disposal "do not dispose"). That is exact when the canvas is
///   opaque, or when no pixel goes from visible to transparent;
/// - inside the rectangle, a pixel equal to the previous frame's may be written as the
///   transparent index (the kept pixel shows through) or, when the palette holds its exact
///   color, as that color: the LZW coder (``LZWEncoder``) takes whichever extends its string.
///   Candidates are compressed for real and the smallest file wins: the changed pixels'
///   own palette with that free choice; for exact frames also every pixel in its own color
///   (when the whole rectangle's colors fit); and the global color map (when about as
///   faithful). Quantized frames never re-quantize an unchanged pixel to a different color:
///   that could only shift it (and crawl, with dithering), so their palette is built from
///   the changed pixels alone (`--lossy` may still give it a color within its tolerance);
/// - on a transparent canvas, when some pixel goes from visible (alpha ≥ 128) to
///   transparent, the frame is a placeholder flagged ``GIFPreparedFrame/needsClearedCanvas``
///   with the vanishing pixels' box: the writer draws the previous frame in full over its
///   rectangle and that box, disposes it to background, and prepares this frame again with
///   that region as `redraw`.
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
    /// The global color map, built from the first frame by ``prepareFirst(_:)``: entry 0 is
    /// the transparent slot (``globalTransparentIndex``), then frame 0's colors from the most
    /// to the least used. Later frames use it instead of a local map when that is smaller
    /// and costs (almost) no fidelity; such a frame's LZW codes need only as many bits as its
    /// highest index (the minimum code size), so the common colors and the transparent
    /// index sit first.
    public var globalPalette: [UInt32]?
    public var globalTransparentIndex: Int? { globalPalette == nil ? nil : 0 }

    public init(
        width: Int, height: Int, background: Color?,
        options: GIFEncodingOptions = GIFEncodingOptions()
    ) {
        self.width = width
        self.height = height
        self.background = background.map { $0.clamped }
        self.options = options
    }

    /// Quantizes the first frame over the whole canvas for use as the global color map
    /// (a transparent slot, then at most 255 colors) and returns the encoder that
    /// holds it with the frame prepared against it. Frame 0 alone decides the palette, so
    /// the result does not depend on how later frames are scheduled.
    public func prepareFirst(_ frame: Pixmap) -> (encoder: GIFFrameEncoder, frame: GIFPreparedFrame)
    {
        withPixels(frame, PixelBounds(x0: 0, y0: 0, x1: width, y1: height), packed: nil) {
            prepareFirst(frame, $0)
        }
    }

    private func prepareFirst(_ frame: Pixmap, _ pixels: PackedPixels) -> (
        encoder: GIFFrameEncoder, frame: GIFPreparedFrame
    ) {
        // Exactly 256 opaque colors leave no slot for transparency: stay with local maps
        // rather than lose a color.
        if options.maxColors == 256, let exact = ColorQuantizer.exactColors(pixels, limit: 256),
            exact.palette.count == 256, exact.transparentIndex == nil
        {
            return (self, prepare(frame, previous: nil))
        }
        let q = ColorQuantizer.quantize(
            pixels, maxColors: min(255, options.maxColors),
            refinementPasses: options.refinementPasses, dither: options.dither,
            width: width, originX: 0, originY: 0)
        // After a stop request (Ctrl-C) the frame is discarded: its compression is skipped.
        if RenderCancellation.shared.isCancelled { return (self, prepare(frame, previous: nil)) }
        // The transparent slot first, then the colors by use in frame 0 (ties: palette order).
        var counts = [Int](repeating: 0, count: 256)
        for i in q.indices { counts[Int(i)] += 1 }
        let colors = q.palette.indices.filter { $0 != q.transparentIndex }
            .sorted { (counts[$0], $1) > (counts[$1], $0) }
        let palette = [0] + colors.map { q.palette[$0] }
        let transparent = 0
        var remap = [UInt8](repeating: 0, count: 256)
        for (new, old) in colors.enumerated() { remap[old] = UInt8(new + 1) }
        let indices = q.indices.map { remap[Int($0)] }
        var encoder = self
        encoder.globalPalette = palette
        let first = FrameCandidate(
            ColorQuantizer.Result(
                palette: palette, indices: indices, transparentIndex: transparent,
                isExact: q.isExact),
            pixels: pixels, unchanged: [Bool](repeating: false, count: pixels.count),
            ownColorChoice: false, global: true, width: width,
            lossyTolerance: Self.lossyTolerance(options, q))
        var prepared = GIFPreparedFrame(
            source: kept(frame), isIdenticalToPrevious: false, left: 0, top: 0, width: width,
            height: height, palette: palette, image: first.image,
            transparentIndex: transparent, needsClearedCanvas: false,
            isExact: first.result.isExact)
        prepared.usesGlobalPalette = true
        return (encoder, prepared)
    }

    /// Differences and quantizes one frame. `previous` is the source of the frame written
    /// just before it (nil for the first frame). `redraw`: a region the canvas shows cleared
    /// (transparent) before this frame, whose pixels are all drawn; without `previous`, only
    /// that region is encoded (default: the whole canvas).
    public func prepare(_ frame: Pixmap, previous: Pixmap?, redraw: PixelBounds? = nil)
        -> GIFPreparedFrame
    {
        prepare(frame, changes(frame, previous: previous, redraw: redraw))
    }

    /// The second half of ``prepare(_:previous:redraw:)``: quantizes and compresses what
    /// ``changes(_:previous:redraw:)`` found for `frame`.
    package func prepare(_ frame: Pixmap, _ difference: GIFFrameChanges) -> GIFPreparedFrame {
        let changed: GIFFrameChanges.Changed
        switch difference {
        case .done(let prepared): return prepared
        case .changed(let c): changed = c
        }
        return withPixels(frame, changed.rect, packed: changed.pixels) {
            encode(frame, changed, $0)
        }
    }

    private func encode(_ frame: Pixmap, _ changed: GIFFrameChanges.Changed, _ pixels: PackedPixels)
        -> GIFPreparedFrame
    {
        let (rect, unchanged, unchangedCount) = (
            changed.rect, changed.unchanged, changed.unchangedCount
        )
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        func quantize(_ p: PackedPixels, hidden: [Bool]?) -> ColorQuantizer.Result {
            ColorQuantizer.quantize(
                p, hidden: hidden, maxColors: options.maxColors,
                refinementPasses: options.refinementPasses, dither: options.dither, width: w,
                originX: rect.x0, originY: rect.y0)
        }
        let local = quantize(pixels, hidden: unchangedCount > 0 ? unchanged : nil)
        func candidate(_ result: ColorQuantizer.Result, ownColorChoice: Bool, global: Bool)
            -> FrameCandidate
        {
            FrameCandidate(
                result, pixels: pixels, unchanged: unchanged, ownColorChoice: ownColorChoice,
                global: global,
                width: w, lossyTolerance: Self.lossyTolerance(options, result))
        }
        var best = candidate(local, ownColorChoice: unchangedCount > 0, global: false)
        // On a stop request (Ctrl-C) the other candidates are not tried: the frame will be
        // discarded, and each try is another compression.
        let stopping = RenderCancellation.shared.isCancelled
        if unchangedCount > 0 && local.isExact && !stopping {
            // Measured on the seed scenes, the coder's free choice wins most frames; every
            // pixel in its own color (when the colors of the whole rectangle fit) wins some of
            // the rest (1 % smaller on phone-ui; all unchanged pixels transparent would gain
            // under 0.1 % more, for another compression of every frame).
            let whole = quantize(pixels, hidden: nil)
            if whole.isExact {
                let colors = candidate(whole, ownColorChoice: false, global: false)
                if colors.fileBytes < best.fileBytes { best = colors }
            }
        }
        // The global map saves the local map's bytes: worth trying only where those are a
        // noticeable part of the frame (small rectangles, few colors); on a large lossy
        // rectangle, mapping to a palette made for frame 0 costs more than it can save.
        // A global map holding only the transparent slot has no colour to map to (a
        // corpus Lottie file whose first frame is empty crashed here).
        if !stopping, let global = globalPalette, global.count > 1, let gt = globalTransparentIndex,
            best.result.isExact
                || 8 * 3 * FrameCandidate.mapSize(best.result) >= best.image.byteCount
        {
            // The same pixels against the global map: kept when smaller and about as faithful.
            // Mapped to the colors (entries 1…), 255 standing for the transparent slot (the
            // colors take 0…254), then shifted into the map's numbering.
            var g = unchanged.withUnsafeBufferPointer { u in
                OklabQuantizer.map(
                    pixels, hidden: u, width: w, originX: rect.x0, originY: rect.y0,
                    palette: Array(global.dropFirst()), transparentIndex: 255,
                    dither: options.dither,
                    spread: 8)
            }
            // In place: a mapped copy would be another index per pixel alive at once.
            g.withUnsafeMutableBufferPointer { g in
                for i in g.indices { g[i] = g[i] == 255 ? UInt8(gt) : g[i] + 1 }
            }
            var visible = 0
            for i in 0..<pixels.count where pixels[i] >> 24 == 0 { visible += 1 }
            let changed = visible - unchangedCount
            let errL =
                best.result.isExact
                ? 0 : Self.squaredError(pixels, unchanged, best.result.indices, best.result.palette)
            // The error the quality allows: about its lossy tolerance per channel.
            let t = Double(
                best.result.isExact ? options.exactTolerance : options.quantizedTolerance)
            let allowed = errL * 1.05 + Double(changed) * 3 * t * t
            // Lossy LZW only moves a pixel to another color within its tolerance, which seldom
            // halves the error: a mapping twice over the allowance is not compressed at all
            // (frame 0's palette rarely fits frames that change much; on the card scene every
            // such attempt was rejected after two compressions).
            if Self.squaredError(pixels, unchanged, g, global) <= 2 * allowed {
                let mapped = candidate(
                    ColorQuantizer.Result(
                        palette: global, indices: g, transparentIndex: gt, isExact: false),
                    ownColorChoice: unchangedCount > 0, global: true)
                let errG =
                    mapped.fileBytes < best.fileBytes
                    ? Self.squaredError(pixels, unchanged, mapped.result.indices, global)
                    : .infinity
                if errG <= allowed {
                    var exact = mapped.result
                    exact.isExact = errG == 0
                    best = FrameCandidate(exact, image: mapped.image, global: true)
                }
            }
        }
        var prepared = GIFPreparedFrame(
            source: kept(frame), isIdenticalToPrevious: false, left: rect.x0, top: rect.y0,
            width: w, height: h, palette: best.result.palette, image: best.image,
            transparentIndex: best.result.transparentIndex,
            needsClearedCanvas: false, isExact: best.result.isExact)
        prepared.usesGlobalPalette = best.isGlobal
        return prepared
    }

    /// What a prepared frame keeps of its pixels: see ``GIFPreparedFrame/source``.
    func kept(_ frame: Pixmap) -> Pixmap? { background == nil ? frame : nil }

    /// The lossy LZW tolerance for a frame quantized as `result`, nil for lossless LZW.
    static func lossyTolerance(_ options: GIFEncodingOptions, _ result: ColorQuantizer.Result)
        -> Int?
    {
        let t = result.isExact ? options.exactTolerance : options.quantizedTolerance
        return t > 0 ? t : nil
    }

    /// Σ squared RGB error over the opaque `pixels` that are not `unchanged` (transparent
    /// ones are not drawn, unchanged ones show the previous frame).
    static func squaredError(
        _ pixels: PackedPixels, _ unchanged: [Bool], _ indices: [UInt8], _ palette: [UInt32]
    ) -> Double {
        var colors = [UInt32](repeating: 0, count: 256)
        for (k, c) in palette.enumerated() { colors[k] = c }
        var total = 0
        indices.withUnsafeBufferPointer { indices in
            colors.withUnsafeBufferPointer { colors in
                var last: UInt32 = .max, lastIndex: UInt8 = 0, lastError = 0
                for i in 0..<pixels.count where pixels[i] >> 24 == 0 && !unchanged[i] {
                    let p = pixels[i], k = indices[i]
                    // Runs of one color mapped to one index: the same error again.
                    if p != last || k != lastIndex {
                        let c = colors[Int(k)]
                        let dr = Int(p & 0xFF) - Int(c & 0xFF),
                            dg = Int((p >> 8) & 0xFF) - Int((c >> 8) & 0xFF)
                        let db = Int((p >> 16) & 0xFF) - Int((c >> 16) & 0xFF)
                        last = p; lastIndex = k
                        lastError = dr * dr + dg * dg + db * db
                    }
                    total += lastError
                }
            }
        }
        return Double(total)
    }
}
