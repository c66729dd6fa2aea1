import CWebP
import FlipbookRaster

/// How an animated WebP is encoded (`flipbook render -o x.webp`).
public struct WebPEncodingOptions: Sendable, Hashable {
    /// Exact pixels instead of near-lossless ones (both VP8L; see ``config()``).
    public var lossless: Bool
    /// 1…100 as GIF's `--quality` (same default, higher is more faithful), mapped to the
    /// same colour tolerance: GIF's ``GIFEncodingOptions/quantizedTolerance`` (0 levels at
    /// 100, 2 at 90, 10 at 50) becomes libwebp's near-lossless preprocessing, which moves
    /// a channel by at most the largest power of two ≤ that tolerance (see ``config()``).
    public var quality: Int

    public static let defaultQuality = GIFEncodingOptions.defaultQuality

    public init(lossless: Bool = false, quality: Int = WebPEncodingOptions.defaultQuality) {
        self.lossless = lossless
        self.quality = min(100, max(1, quality))
    }

    /// The libwebp configuration of `--lossless` frames and of lossy frames compressed
    /// near-losslessly: VP8L at method 4 (libwebp's default effort; 6 took 10× the CPU for
    /// 2 % less on scenes/demo.yaml) and quality (effort) 100 instead of `img2webp
    /// -lossless`'s 75: 1–2 % smaller for 1.5× its CPU. `exact` stays off, as in img2webp:
    /// the colour under fully transparent pixels is free (2 % smaller; the visible pixels
    /// are exact).
    ///
    /// A lossy animation mixes these near-lossless frames with VP8 ones (``vp8Config()``)
    /// and exact ones (``exactConfig()``), frame by frame (``WebPLossyChooser``): VP8 alone,
    /// even at quality 97, stayed below our GIF's SSIM and above its Oklab ΔE on UI scenes
    /// (4:2:0 chroma blurs coloured edges), while near-lossless alone was larger than the
    /// GIF on scenes/gradient-bench.yaml.
    func config() throws(WebPError) -> WebPConfig {
        try Self.validated { config in
            config.lossless = 1
            config.quality = 100
            if !lossless { config.near_lossless = Int32(nearLossless) }
        }
    }

    /// The configuration of a lossy animation's exact frames: `--lossless`'s.
    func exactConfig() throws(WebPError) -> WebPConfig {
        try WebPEncodingOptions(lossless: true, quality: quality).config()
    }

    /// The VP8 configuration of a lossy frame at `quality` (``vp8Quality`` unless given),
    /// sharp RGB→YUV (chroma from the exact colours, not averaged gamma-blind: ΔE on
    /// gradients drops), lossless alpha, method 4.
    func vp8Config(quality: Int? = nil) throws(WebPError) -> WebPConfig {
        let quality = quality ?? vp8Quality
        return try Self.validated { config in
            config.lossless = 0
            config.quality = Float(quality)
            config.use_sharp_yuv = 1
            config.alpha_quality = 100
        }
    }

    /// libwebp's defaults at method 4, changed by `adjust`, and checked.
    private static func validated(_ adjust: (inout WebPConfig) -> Void) throws(WebPError)
        -> WebPConfig
    {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw WebPError.defaultConfigurationRefused
        }
        config.method = 4
        adjust(&config)
        guard WebPValidateConfig(&config) != 0 else {
            throw WebPError.invalidConfiguration
        }
        return config
    }
}

extension WebPEncodingOptions {
    /// VP8's quality for ``quality``: 10 above it, at most 100 (100 at the default 90). Even
    /// VP8 at 100 is far smaller than near-lossless on gradients, and libwebp counts a
    /// pixel as unchanged from the last frame when every channel is within
    /// 31·(1 − √(q/100)) + √(q/100) levels: 1 at 100, 2 at 90.
    var vp8Quality: Int { min(100, quality + 10) }

    /// The VP8 qualities a lossy frame may take, lowest first: ``vp8Quality`` and three
    /// rungs 10 apart below it (100, 90, 80 and 70 at the default; none below 1). The
    /// chooser takes the lowest that keeps the frame at its GIF's fidelity. Against
    /// ``vp8Quality`` alone: scenes/bench/long-gradients.yaml 610,578 → 274,760 bytes,
    /// shadow-gradient 580,758 → 161,696, scenes/demo.yaml 267,200 → 232,884.
    var vp8Ladder: [Int] {
        Array(Set((0..<4).map { max(1, vp8Quality - 10 * $0) })).sorted()
    }

    /// libwebp's near-lossless level for ``quality``: it moves channels by up to
    /// 2^(5 − level/20) / 2 levels, so level 100 − 20·b allows 2^(b−1), the largest power of
    /// two ≤ the GIF tolerance t (b = ⌊log₂ t⌋ + 1, at most 5; 100, exact, when t is 0).
    var nearLossless: Int {
        let tolerance = GIFEncodingOptions(quality: quality).quantizedTolerance
        guard tolerance > 0 else { return 100 }
        let bits = min(5, Int.bitWidth - tolerance.leadingZeroBitCount)
        return 100 - 20 * bits
    }
}

/// One libwebp animation encoder (`WebPAnimEncoder`, libwebpmux): frames in display
/// order with their start times in milliseconds, a complete animated WebP out. libwebp
/// crops each frame to what changed and picks blending and disposal itself. Used by
/// one thread at a time; the exporter runs one per segment of `--lossless` frames.
public final class WebPAnimationEncoder {
    private let encoder: OpaquePointer
    /// `--lossless` frames (near-lossless ones for lossy options).
    private var config: WebPConfig
    public let width: Int
    public let height: Int

    /// An encoder for `width`×`height` frames that loops forever on a transparent
    /// canvas and never inserts key frames of its own (the exporter's segments start
    /// with one each), so the output depends on the frames alone; `--lossless` ones try
    /// both disposals for every frame and keep the smaller.
    public init(width: Int, height: Int, options: WebPEncodingOptions) throws(WebPError) {
        guard width > 0, height > 0, width <= 16383, height <= 16383 else {
            throw WebPError.frameTooLarge(width: width, height: height)
        }
        var animation = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animation) != 0 else {
            throw WebPError.versionMismatch(library: "libwebpmux")
        }
        animation.anim_params.loop_count = 0
        animation.anim_params.bgcolor = 0
        animation.kmax = 0
        animation.allow_mixed = 0
        // `--lossless` tries both disposals for every frame (libwebp's minimize_size), the
        // exact file being the point there: measured on the 23 inputs of
        // scripts/bench-formats, 0–15 % smaller (shadow-gradient 1,470,676 → 1,246,996 B,
        // text-ui 385,628 → 342,788, water_filling 67,660 → 66,752) for 1.2–3.7× the
        // encode CPU (about 2× on most). Near-lossless options keep libwebp's default (the
        // exporter writes lossy animations itself: ``WebPLossyAnimation``).
        animation.minimize_size = options.lossless ? 1 : 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animation) else {
            throw WebPError.cannotMakeEncoder(width: width, height: height)
        }
        self.encoder = encoder
        self.width = width
        self.height = height
        do {
            config = try options.config()
        } catch {
            WebPAnimEncoderDelete(encoder)
            throw error
        }
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds `frame`, shown from `timestamp` ms until the next frame's timestamp.
    public func add(_ frame: Pixmap, timestamp: Int) throws(WebPError) {
        guard frame.width == width, frame.height == height else {
            throw WebPError.frameSizeMismatch(
                frameWidth: frame.width, frameHeight: frame.height, width: width, height: height)
        }
        guard var picture = try Self.picture(frame) else {
            throw WebPError.outOfMemoryForFrame
        }
        defer { WebPPictureFree(&picture) }
        var frameConfig = config
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &frameConfig) != 0
        else {
            throw WebPError.cannotEncodeFrame(errorText)
        }
    }

    /// The animation: the last frame lasts until `endTimestamp` ms.
    public func finish(endTimestamp: Int) throws(WebPError) -> [UInt8] {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: endTimestamp), nil) != 0 else {
            throw WebPError.cannotEnd(errorText)
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw WebPError.cannotAssemble(errorText)
        }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    /// `frame` alone as a still WebP with the same configuration (the exporter's repair
    /// of a segment whose first frame libwebp cropped; see ``WebPAnimationMux``).
    public func encodeStill(_ frame: Pixmap) throws(WebPError) -> [UInt8] {
        try Self.encodeStill(frame, config: config)
    }

    /// `frame` alone as a still WebP under `config`.
    static func encodeStill(_ frame: Pixmap, config: WebPConfig) throws(WebPError) -> [UInt8] {
        var config = config
        guard var picture = try Self.picture(frame) else {
            throw WebPError.outOfMemoryForFrame
        }
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        let ok = withUnsafeMutablePointer(to: &writer) { w -> Int32 in
            picture.custom_ptr = UnsafeMutableRawPointer(w)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else {
            throw WebPError.cannotEncodeStill(code: Int(picture.error_code.rawValue))
        }
        return Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }

    private var errorText: String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
    }

    /// An ARGB picture of `frame`'s straight-alpha pixels (nil when out of memory).
    private static func picture(_ frame: Pixmap) throws(WebPError) -> WebPPicture? {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw WebPError.versionMismatch(library: "libwebp")
        }
        picture.width = Int32(frame.width)
        picture.height = Int32(frame.height)
        picture.use_argb = 1
        let straight = frame.straightRGBA()
        let imported = straight.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4))
        }
        return imported != 0 ? picture : nil
    }
}
