import CWebP
import FlipbookRaster

/// How one frame of a lossy animated WebP is compressed.
public enum WebPFrameMode: Sendable, Hashable {
    /// VP8 (lossy, sharp RGB→YUV) at `quality` (one of ``WebPEncodingOptions/vp8Ladder``):
    /// small, but 4:2:0 chroma blurs coloured edges.
    case vp8(quality: Int)
    /// Near-lossless VP8L: every channel within a power of two of the source.
    case nearLossless
    /// Exact VP8L (as `--lossless`): for frames where near-lossless's rounding would leave
    /// the picture below our GIF's fidelity (flat UI, which the GIF draws almost exactly).
    case exact
}

/// A lossy frame as the file holds it: its box, blended over the canvas or replacing it,
/// encoded in `mode` as `bytes` (a still WebP).
package struct WebPLossyFrame: Sendable {
    package let box: PixelBounds
    package let blend: Bool
    package let bytes: [UInt8]
    package let mode: WebPFrameMode

    init(_ crop: WebPFrameCrop, _ drawn: WebPDrawnFrame, mode: WebPFrameMode) {
        box = crop.box
        blend = drawn.blend
        bytes = drawn.bytes
        self.mode = mode
    }
}

/// Chooses VP8, near-lossless or exact for each frame of a lossy WebP, frame by frame in
/// display order (one per encoder, so the bytes depend on the frames alone).
///
/// It keeps two simulated screens: what the WebP shows so far and what our default GIF
/// would show, frame by frame through our own GIF frame encoder (both redraw only what
/// changed, so pixels that stay the same keep the error they were drawn with). The WebP
/// screen is exact: each frame's box (``WebPFrameCrop``) is encoded, decoded and drawn as
/// the file will say, and ``WebPLossyAnimation`` writes those very bytes. A mode may draw
/// a frame when the WebP screen with that frame on it has at least the SSIM and at most the
/// mean Oklab ΔE of the GIF screen: the quality floor is what our GIF achieves on that
/// frame, and slack left by earlier frames may be spent. VP8, at the lowest quality of its
/// ladder that passes, is taken when it is smaller than the other mode's frame;
/// near-lossless when it passes; otherwise exact VP8L, which draws the frame's own pixels
/// (the GIF screen can still be ahead where our GIF redrew unchanged pixels with a better
/// palette). The first frame is never VP8.
package final class WebPLossyChooser {
    private let width: Int, height: Int
    private let exactConfig: WebPConfig
    private var gifEncoder: GIFFrameEncoder
    /// The GIF frame GIFWriter would hold before writing it: the last one not identical to
    /// the frame before.
    private var gifHeld: GIFPreparedFrame?
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

        /// Pixel `p`'s distance to `source` measured again, and the sum moved with it.
        mutating func remeasure(_ p: Int, against source: OverWhiteImage) {
            let d = FrameFidelity.oklabDistance(source, image, pixel: p)
            distanceSum += Double(d - distance[p])
            distance[p] = d
        }
    }

    /// What the WebP shows after the frames chosen so far, over white (exactly what a
    /// player draws from the frames ``choose(_:_:)`` returned).
    var shown: OverWhiteImage { webp.image }
    /// What our GIF of the same frames shows so far, over white: the floor.
    var gifShown: OverWhiteImage { gif.image }

    package init(width: Int, height: Int, options: WebPEncodingOptions) throws(WebPError) {
        self.width = width
        self.height = height
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

    /// How `frame` (whose candidates are `candidates`) is written: its box encoded in the
    /// chosen mode, or nil when it repeats the frame before; the screens move on.
    package func choose(_ frame: Pixmap, _ candidates: WebPFrameCandidates) throws(WebPError)
        -> WebPLossyFrame?
    {
        let changed = candidates.crop.changed
        let first = previous == nil
        defer { previous = frame }
        var gifFrame: GIFPreparedFrame
        var cleared: PixelBounds?
        if let previous {
            gifFrame = gifEncoder.prepare(frame, previous: previous)
            // As GIFWriter does when visible pixels vanish on a transparent canvas: the
            // frame before is disposed to background over its rectangle and the vanishing
            // pixels' box, and this frame redraws that region (without it, the screen kept
            // the vanished pixels and its fidelity sank: lolo_walk's counted SSIM 0.79
            // against the file's 0.99, which let the WebP fall below the real GIF).
            if gifFrame.needsClearedCanvas, let held = gifHeld {
                let region = GIFFrameEncoder.union(
                    gifFrame.vanishing,
                    PixelBounds(
                        x0: held.left, y0: held.top, x1: held.left + held.width,
                        y1: held.top + held.height))!
                gifFrame = gifEncoder.prepare(frame, previous: previous, redraw: region)
                cleared = region
            }
        } else {
            (gifEncoder, gifFrame) = gifEncoder.prepareFirst(frame)
        }
        if !gifFrame.isIdenticalToPrevious { gifHeld = gifFrame }
        guard let nearLossless = candidates.nearLossless else { return nil }
        let (gifPixels, gifImage) = drawn(gifFrame, first: first, cleared: cleared)
        gif = redraw(
            gif, with: gifImage, at: gifPixels, changed: changed, source: candidates.source)
        // Every candidate is judged on the pixels a player draws for it (the box encoded,
        // decoded and blended as the file says): near-lossless moves channels at edges, and
        // on flat UI, which our GIF draws almost exactly, that alone left whole scenes below
        // the GIF's fidelity.
        let nearScreen = passing(nearLossless, changed: changed, candidates)
        // The first frame is never VP8: its pixels stay wherever later frames change
        // nothing, while our GIF redraws regions with better palettes as it goes (on
        // scenes/demo.yaml a VP8 first frame passed its floor and left the whole animation
        // at ΔE 0.123 against the GIF's 0.121). The ladder's top first: when even it falls
        // short of the GIF screen, the lower rungs are not tried; otherwise the lowest rung
        // that passes, the smallest in practice.
        var exactBytes: [UInt8]?
        if let top = candidates.vp8.last,
            let topScreen = passing(top.frame, changed: changed, candidates)
        {
            var chosen = (rung: top, screen: topScreen)
            for rung in candidates.vp8.dropLast() {
                if let screen = passing(rung.frame, changed: changed, candidates) {
                    chosen = (rung, screen)
                    break
                }
            }
            // Against the frame the other modes would write: near-lossless when it passes,
            // else exact (only encoded when near-lossless, never larger than exact in
            // practice, is not already larger than VP8).
            let size = chosen.rung.frame.bytes.count
            var smaller = size < nearLossless.bytes.count
            if !smaller && nearScreen == nil {
                exactBytes = try encodeExactly(candidates)
                smaller = size < exactBytes!.count
            }
            if smaller {
                webp = chosen.screen
                return WebPLossyFrame(
                    candidates.crop, chosen.rung.frame, mode: .vp8(quality: chosen.rung.quality))
            }
        }
        if let nearScreen {
            webp = nearScreen
            return WebPLossyFrame(candidates.crop, nearLossless, mode: .nearLossless)
        }
        if exactBytes == nil { exactBytes = try encodeExactly(candidates) }
        let exact = candidates.crop.drawnExactly(
            exactBytes!, blend: candidates.crop.blended != nil, source: candidates.source)
        var (screen, box) = redrawBox(
            webp, with: exact, changed: changed, source: candidates.source)
        updateSSIM(&screen, around: box, source: candidates.source)
        webp = screen
        return WebPLossyFrame(candidates.crop, exact, mode: .exact)
    }

    /// The box of `candidates` encoded exactly.
    private func encodeExactly(_ candidates: WebPFrameCandidates) throws(WebPError) -> [UInt8] {
        try WebPAnimationEncoder.encodeStill(
            candidates.crop.blended ?? candidates.crop.full, config: exactConfig)
    }

    /// The WebP screen with `drawn` on it, when it has at least the GIF screen's SSIM and
    /// at most its Oklab distance; the SSIM is worked out only when the distance passes
    /// (the test needs both).
    private func passing(
        _ drawn: WebPDrawnFrame, changed: [Int], _ candidates: WebPFrameCandidates
    ) -> Screen? {
        var (screen, box) = redrawBox(
            webp, with: drawn, changed: changed, source: candidates.source)
        guard screen.distanceSum <= gif.distanceSum else { return nil }
        updateSSIM(&screen, around: box, source: candidates.source)
        return screen.ssimSum >= gif.ssimSum ? screen : nil
    }

    /// The pixels the GIF frame draws (and those of the region `cleared` before it), and the
    /// screen's image with them drawn.
    private func drawn(_ frame: GIFPreparedFrame, first: Bool, cleared: PixelBounds?)
        -> ([Int], OverWhiteImage)
    {
        guard !frame.isIdenticalToPrevious else { return ([], gif.image) }
        var image = gif.image
        var pixels: [Int] = []
        if let cleared {
            for y in cleared.y0..<cleared.y1 {
                for x in cleared.x0..<cleared.x1 {
                    let p = y * width + x
                    image.rgb[3 * p] = 255; image.rgb[3 * p + 1] = 255; image.rgb[3 * p + 2] = 255
                    pixels.append(p)
                }
            }
        }
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
                out.remeasure(p, against: source)
            }
        }
        return (out, box)
    }

    /// `screen` with the box of `frame` drawn on it and its distances to `source` updated
    /// there and at `changed` (pixels of the box, as in ``redrawPixels``); and the box.
    private func redrawBox(
        _ screen: Screen, with frame: WebPDrawnFrame, changed: [Int], source: OverWhiteImage
    ) -> (Screen, PixelBounds) {
        var out = screen
        let box = frame.box
        for y in 0..<box.height {
            for x in 0..<box.width {
                let q = y * box.width + x
                if let drawn = frame.drawn, !drawn[q] { continue }
                let p = (box.y0 + y) * width + box.x0 + x
                for c in 0..<3 { out.image.rgb[3 * p + c] = frame.rgb[3 * q + c] }
                out.remeasure(p, against: source)
            }
        }
        for p in changed { out.remeasure(p, against: source) }
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
