import CWebP
import FlipbookRaster

/// How one frame of a lossy animated WebP is compressed.
public enum WebPFrameMode: Sendable, Hashable {
    /// VP8 (lossy, sharp RGB→YUV): small, but 4:2:0 chroma blurs coloured edges.
    case vp8
    /// Near-lossless VP8L: every channel within a power of two of the source.
    case nearLossless
    /// Exact VP8L (as `--lossless`): for frames where near-lossless's rounding would leave
    /// the picture below our GIF's fidelity (flat UI, which the GIF draws almost exactly).
    case exact
}

/// What a lossy frame could look like, worked out on a renderer thread before the frame
/// reaches the (one-threaded) animation encoder: the frame over white, and the frame after
/// a VP8 round trip.
public struct WebPFrameCandidates: Sendable {
    let source: OverWhiteImage
    /// nil where the chooser never looks at it: its first frame and frames identical to
    /// the one before (both near-lossless).
    let vp8: OverWhiteImage?

    /// The candidates of `frame` under `options` (a pure function of the frame, so the
    /// choice does not depend on which thread made them); `needsVP8` false for a chooser's
    /// first frame and a frame identical to the one before, which need no VP8 round trip.
    public init(_ frame: Pixmap, options: WebPEncodingOptions, needsVP8: Bool) throws(WebPError) {
        source = OverWhiteImage(frame)
        guard needsVP8 else {
            vp8 = nil
            return
        }
        let vp8Bytes = try WebPAnimationEncoder.encodeStill(frame, config: options.vp8Config())
        vp8 = try Self.decode(vp8Bytes, width: frame.width, height: frame.height)
    }

    static func decode(_ bytes: [UInt8], width: Int, height: Int) throws(WebPError)
        -> OverWhiteImage
    {
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let decoded = bytes.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                WebPDecodeRGBAInto(
                    src.baseAddress, src.count, dst.baseAddress, dst.count, Int32(width * 4))
            }
        }
        guard decoded != nil else { throw WebPError.cannotDecodeOwnFrame }
        return OverWhiteImage(width: width, height: height, straightRGBA: straight)
    }
}

/// Chooses VP8, near-lossless or exact for each frame of a lossy WebP, frame by frame in
/// display order (one per encoder, so the bytes depend on the frames alone).
///
/// It keeps two simulated screens: what the WebP shows so far and what our default GIF
/// would show, frame by frame through our own GIF frame encoder (libwebp and our GIF writer
/// both redraw only what changed, so pixels that stay the same keep the error they were
/// drawn with). A mode may draw a frame when the WebP screen with that frame on it has at
/// least the SSIM and at most the mean Oklab ΔE of the GIF screen: the quality floor is what
/// our GIF achieves on that frame, and slack left by earlier frames may be spent. VP8 (whole
/// 8×8 blocks redrawn, from its decoded frame) is taken when it passes and its changed
/// rectangle is smaller than the other mode's; near-lossless (the changed rectangle encoded
/// and decoded, as libwebp draws it) when it passes; otherwise exact VP8L, which draws the
/// frame's own pixels (the GIF screen can still be ahead where our GIF redrew unchanged
/// pixels with a better palette). The first frame is never VP8.
package final class WebPLossyChooser {
    private let width: Int, height: Int
    private let vp8Config: WebPConfig, nearLosslessConfig: WebPConfig, exactConfig: WebPConfig
    private var gifEncoder: GIFFrameEncoder
    private var previous: Pixmap?
    private var webp: Screen, gif: Screen

    /// One simulated screen: its pixels and, per pixel, its Oklab distance to the current
    /// frame and the SSIM of the window centred there, with their sums.
    private struct Screen {
        var image: OverWhiteImage
        var distance: [Float]
        var ssim: [Float]
        var distanceSum: Double = 0
        var ssimSum: Double
    }

    package init(width: Int, height: Int, options: WebPEncodingOptions) throws(WebPError) {
        self.width = width
        self.height = height
        vp8Config = try options.vp8Config()
        nearLosslessConfig = try options.config()
        exactConfig = try options.exactConfig()
        gifEncoder = GIFFrameEncoder(
            width: width, height: height, background: nil,
            options: GIFEncodingOptions(quality: options.quality))
        let centres = FrameFidelity.centres(width: width, height: height)
        webp = Screen(
            image: OverWhiteImage(width: width, height: height),
            distance: [Float](repeating: 0, count: width * height),
            ssim: [Float](repeating: 1, count: width * height),
            ssimSum: Double(centres.width * centres.height))
        gif = webp
    }

    /// The mode of `frame` (whose candidates are `candidates`); the screens move on.
    package func choose(_ frame: Pixmap, _ candidates: WebPFrameCandidates) throws(WebPError)
        -> WebPFrameMode
    {
        let changed = changedPixels(frame)
        defer { previous = frame }
        let gifFrame: GIFPreparedFrame
        if let previous {
            gifFrame = gifEncoder.prepare(frame, previous: previous)
        } else {
            (gifEncoder, gifFrame) = gifEncoder.prepareFirst(frame)
        }
        guard !changed.isEmpty else { return .nearLossless }
        let (gifPixels, gifImage) = drawn(gifFrame, first: previous == nil)
        gif = redraw(
            gif, with: gifImage, at: gifPixels, changed: changed, source: candidates.source)
        // Near-lossless as libwebp would draw it (the changed rectangle, encoded and decoded):
        // it moves channels at edges, and on flat UI, which our GIF draws almost exactly,
        // that alone left whole scenes below the GIF's fidelity. Where it falls short of the
        // GIF screen the frame is exact instead.
        let crop = Self.crop(frame, changed, width: width, height: height, first: previous == nil)
        let nearLosslessBytes = try WebPAnimationEncoder.encodeStill(
            crop.pixmap, config: nearLosslessConfig)
        let nearLosslessImage = try Self.placed(
            nearLosslessBytes, crop: crop.box, over: candidates.source)
        var (nearLossless, nearBox) = redrawPixels(
            webp, with: nearLosslessImage, at: changed, changed: changed,
            source: candidates.source)
        var nearLosslessPasses = false
        if nearLossless.distanceSum <= gif.distanceSum {
            updateSSIM(&nearLossless, around: nearBox, source: candidates.source)
            nearLosslessPasses = nearLossless.ssimSum >= gif.ssimSum
        }
        // The first frame is never VP8: its pixels stay wherever later frames change
        // nothing, while our GIF redraws regions with better palettes as it goes (on
        // scenes/demo.yaml a VP8 first frame passed its floor and left the whole animation
        // at ΔE 0.123 against the GIF's 0.121). The VP8 screen's SSIM is worked out only
        // when its ΔE passes (the test needs both), and its size last.
        if previous != nil, let vp8Frame = candidates.vp8 {
            let blocks = Self.blocks(changed, width: width, height: height)
            var (vp8, box) = redrawPixels(
                webp, with: vp8Frame, at: blocks, changed: changed, source: candidates.source)
            if vp8.distanceSum <= gif.distanceSum {
                updateSSIM(&vp8, around: box, source: candidates.source)
                if vp8.ssimSum >= gif.ssimSum {
                    let vp8Size = try WebPAnimationEncoder.encodeStill(
                        crop.pixmap, config: vp8Config
                    ).count
                    // Against the frame the other modes would write: near-lossless when it
                    // passes, else exact (only encoded when near-lossless, never larger than
                    // exact in practice, is not already larger than VP8).
                    var smaller = vp8Size < nearLosslessBytes.count
                    if !smaller && !nearLosslessPasses {
                        smaller =
                            try vp8Size
                            < WebPAnimationEncoder.encodeStill(crop.pixmap, config: exactConfig)
                            .count
                    }
                    if smaller {
                        webp = vp8
                        return .vp8
                    }
                }
            }
        }
        if nearLosslessPasses {
            webp = nearLossless
            return .nearLossless
        }
        webp = redraw(
            webp, with: candidates.source, at: changed, changed: changed, source: candidates.source)
        return .exact
    }

    /// The pixels the GIF frame draws, and the screen's image with them drawn.
    private func drawn(_ frame: GIFPreparedFrame, first: Bool) -> ([Int], OverWhiteImage) {
        guard !frame.isIdenticalToPrevious else { return ([], gif.image) }
        var image = gif.image
        var pixels: [Int] = []
        let indices = frame.indices
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let index = Int(indices[y * frame.width + x])
                let p = (frame.top + y) * width + frame.left + x
                if index == frame.transparentIndex || index >= frame.palette.count {
                    // Transparent keeps what is on screen; on the first frame, the white.
                    guard first else { continue }
                    image.rgb[3 * p] = 255; image.rgb[3 * p + 1] = 255; image.rgb[3 * p + 2] = 255
                } else {
                    let c = frame.palette[index]
                    image.rgb[3 * p] = UInt8(c & 0xFF)
                    image.rgb[3 * p + 1] = UInt8((c >> 8) & 0xFF)
                    image.rgb[3 * p + 2] = UInt8((c >> 16) & 0xFF)
                }
                pixels.append(p)
            }
        }
        return (pixels, image)
    }

    /// The changed rectangle of `frame` as libwebp's animation encoder draws it over the
    /// previous frame: its left and top even, unchanged pixels transparent (it blends them
    /// away); the whole frame for the first.
    private static func crop(
        _ frame: Pixmap, _ changed: [Int], width: Int, height: Int, first: Bool
    ) -> (pixmap: Pixmap, box: PixelBounds) {
        var box = PixelBounds(x0: width, y0: height, x1: 0, y1: 0)
        for p in changed {
            let x = p % width, y = p / width
            box.x0 = min(box.x0, x); box.x1 = max(box.x1, x + 1)
            box.y0 = min(box.y0, y); box.y1 = max(box.y1, y + 1)
        }
        box.x0 &= ~1
        box.y0 &= ~1
        let straight = frame.straightRGBA()
        var isChanged = [Bool](repeating: first, count: width * height)
        for p in changed { isChanged[p] = true }
        var crop = [UInt8](repeating: 0, count: box.width * box.height * 4)
        for y in 0..<box.height {
            for x in 0..<box.width {
                let p = (box.y0 + y) * width + box.x0 + x, q = 4 * (y * box.width + x)
                guard isChanged[p] else { continue }
                for c in 0..<4 { crop[q + c] = straight[4 * p + c] }
            }
        }
        return (Pixmap(width: box.width, height: box.height, straightRGBA: crop), box)
    }

    /// `image` with the rectangle `box` replaced by `bytes` (a still WebP of that size)
    /// decoded and composited over white.
    private static func placed(_ bytes: [UInt8], crop box: PixelBounds, over image: OverWhiteImage)
        throws(WebPError) -> OverWhiteImage
    {
        let decoded = try WebPFrameCandidates.decode(bytes, width: box.width, height: box.height)
        var out = image
        for y in 0..<box.height {
            for x in 0..<box.width {
                let p = (box.y0 + y) * image.width + box.x0 + x, q = y * box.width + x
                for c in 0..<3 { out.rgb[3 * p + c] = decoded.rgb[3 * q + c] }
            }
        }
        return out
    }

    /// The pixels of `frame` that differ from the previous frame (all, for the first).
    private func changedPixels(_ frame: Pixmap) -> [Int] {
        guard let previous else { return Array(0..<(width * height)) }
        var out: [Int] = []
        frame.data.withUnsafeBufferPointer { a in
            previous.data.withUnsafeBufferPointer { b in
                for p in 0..<(width * height)
                where a[4 * p] != b[4 * p]
                    || a[4 * p + 1] != b[4 * p + 1] || a[4 * p + 2] != b[4 * p + 2]
                    || a[4 * p + 3] != b[4 * p + 3]
                {
                    out.append(p)
                }
            }
        }
        return out
    }

    /// Every pixel of the canvas-aligned 8×8 blocks that hold a pixel of `pixels`.
    private static func blocks(_ pixels: [Int], width: Int, height: Int) -> [Int] {
        let bw = (width + 7) / 8
        var marked = Set<Int>()
        for p in pixels { marked.insert((p / width) / 8 * bw + (p % width) / 8) }
        var out: [Int] = []
        for b in marked.sorted() {
            let x0 = (b % bw) * 8, y0 = (b / bw) * 8
            for y in y0..<min(height, y0 + 8) {
                for x in x0..<min(width, x0 + 8) { out.append(y * width + x) }
            }
        }
        return out
    }

    /// `screen` with `pixels` taken from `image`, its fidelity against `source` (whose
    /// `changed` pixels differ from the frame before) updated: distances at both, SSIM at
    /// every window centre within 5 pixels of them.
    private func redraw(
        _ screen: Screen, with image: OverWhiteImage, at pixels: [Int], changed: [Int],
        source: OverWhiteImage
    ) -> Screen {
        var (out, box) = redrawPixels(
            screen, with: image, at: pixels, changed: changed, source: source)
        updateSSIM(&out, around: box, source: source)
        return out
    }

    /// `screen` with `pixels` taken from `image` and its distances to `source` updated at
    /// `pixels` and `changed` (elsewhere both the screen and the frame are as before, and so
    /// are the distances); and the box of those pixels, around which the SSIM is stale.
    private func redrawPixels(
        _ screen: Screen, with image: OverWhiteImage, at pixels: [Int], changed: [Int],
        source: OverWhiteImage
    ) -> (Screen, PixelBounds) {
        var out = screen
        var box = PixelBounds(x0: width, y0: height, x1: 0, y1: 0)
        for p in pixels {
            out.image.rgb[3 * p] = image.rgb[3 * p]
            out.image.rgb[3 * p + 1] = image.rgb[3 * p + 1]
            out.image.rgb[3 * p + 2] = image.rgb[3 * p + 2]
        }
        for list in [pixels, changed] {
            for p in list {
                let x = p % width, y = p / width
                box.x0 = min(box.x0, x); box.x1 = max(box.x1, x + 1)
                box.y0 = min(box.y0, y); box.y1 = max(box.y1, y + 1)
                let d = FrameFidelity.oklabDistance(source, out.image, pixel: p)
                out.distanceSum += Double(d - out.distance[p])
                out.distance[p] = d
            }
        }
        return (out, box)
    }

    /// The SSIM of `screen` against `source` at every window centre within 5 pixels of `box`.
    private func updateSSIM(_ screen: inout Screen, around box: PixelBounds, source: OverWhiteImage)
    {
        let region = PixelBounds(x0: box.x0 - 5, y0: box.y0 - 5, x1: box.x1 + 5, y1: box.y1 + 5)
            .intersection(FrameFidelity.centres(width: width, height: height))
        guard !region.isEmpty else { return }
        var before = 0.0
        for y in region.y0..<region.y1 {
            for x in region.x0..<region.x1 { before += Double(screen.ssim[y * width + x]) }
        }
        FrameFidelity.ssim(source, screen.image, region: region, into: &screen.ssim)
        var after = 0.0
        for y in region.y0..<region.y1 {
            for x in region.x0..<region.x1 { after += Double(screen.ssim[y * width + x]) }
        }
        screen.ssimSum += after - before
    }
}
