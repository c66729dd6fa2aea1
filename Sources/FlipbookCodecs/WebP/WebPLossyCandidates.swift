import CWebP
import FlipbookRaster

/// The rectangle of a lossy frame that our animation redraws, and the pixels it may encode
/// there: a function of the frame and the one before it alone (the source frames, not what
/// the file shows), so the renderer threads work it out and the bytes do not depend on
/// `--jobs`.
struct WebPFrameCrop: Sendable {
    /// The pixels that differ from the frame before (all, for the first).
    let changed: [Int]
    /// The bounding box of `changed`, its left and top even (ANMF offsets are stored halved).
    let box: PixelBounds
    /// Every pixel of the box, straight alpha: drawn without blending, replacing what was
    /// there (always right).
    let full: Pixmap
    /// The box with its unchanged pixels transparent, blended over the canvas; nil for the
    /// first frame and unless every changed pixel becomes opaque. Blending anything else
    /// over the old pixel would mix the two, and even over a transparent one decoders round
    /// differently (libwebp's animation decoder blends straight alpha in 8.24 fixed point,
    /// a level below the source at times); an opaque pixel, or a transparent one left as it
    /// was, comes out exactly in every player.
    let blended: Pixmap?

    init(_ frame: Pixmap, previous: Pixmap?) {
        let width = frame.width, height = frame.height
        var changed: [Int] = []
        var blendable = previous != nil
        var box = PixelBounds(x0: width, y0: height, x1: 0, y1: 0)
        if let previous {
            frame.data.withUnsafeBufferPointer { a in
                previous.data.withUnsafeBufferPointer { b in
                    for p in 0..<(width * height)
                    where a[4 * p] != b[4 * p]
                        || a[4 * p + 1] != b[4 * p + 1] || a[4 * p + 2] != b[4 * p + 2]
                        || a[4 * p + 3] != b[4 * p + 3]
                    {
                        changed.append(p)
                        if a[4 * p + 3] != 255 { blendable = false }
                        let x = p % width, y = p / width
                        box.x0 = min(box.x0, x); box.x1 = max(box.x1, x + 1)
                        box.y0 = min(box.y0, y); box.y1 = max(box.y1, y + 1)
                    }
                }
            }
        } else {
            changed = Array(0..<(width * height))
            box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        }
        self.changed = changed
        guard !changed.isEmpty else {
            self.box = .empty
            full = Pixmap(width: 1, height: 1)
            blended = nil
            return
        }
        box.x0 &= ~1
        box.y0 &= ~1
        self.box = box
        let straight = frame.straightRGBA()
        var full = [UInt8](repeating: 0, count: box.width * box.height * 4)
        for y in 0..<box.height {
            let from = 4 * ((box.y0 + y) * width + box.x0)
            full[(4 * y * box.width)..<(4 * (y + 1) * box.width)] =
                straight[from..<(from + 4 * box.width)]
        }
        self.full = Pixmap(width: box.width, height: box.height, straightRGBA: full)
        guard blendable else {
            blended = nil
            return
        }
        var isChanged = [Bool](repeating: false, count: width * height)
        for p in changed { isChanged[p] = true }
        for y in 0..<box.height {
            for x in 0..<box.width where !isChanged[(box.y0 + y) * width + box.x0 + x] {
                let q = 4 * (y * box.width + x)
                full[q] = 0; full[q + 1] = 0; full[q + 2] = 0; full[q + 3] = 0
            }
        }
        blended = Pixmap(width: box.width, height: box.height, straightRGBA: full)
    }

    /// What a player draws for the box encoded as `bytes`, blended over the canvas or not:
    /// with blending, every pixel of the box that decodes transparent keeps the canvas;
    /// without, all are drawn.
    func drawn(_ bytes: [UInt8], blend: Bool) throws(WebPError) -> WebPDrawnFrame {
        var straight = [UInt8](repeating: 0, count: box.width * box.height * 4)
        let decoded = bytes.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                WebPDecodeRGBAInto(
                    src.baseAddress, src.count, dst.baseAddress, dst.count, Int32(box.width * 4))
            }
        }
        guard decoded != nil else { throw WebPError.cannotDecodeOwnFrame }
        return WebPDrawnFrame(
            bytes: bytes, blend: blend, box: box,
            rgb: OverWhiteImage(width: box.width, height: box.height, straightRGBA: straight).rgb,
            drawn: blend ? Self.opaqueMask(straight) : nil)
    }

    /// What a player draws for the box encoded exactly as `bytes`: the frame's own pixels
    /// (`source`, the frame over white), at every pixel of the box that is not left
    /// transparent for blending.
    func drawnExactly(_ bytes: [UInt8], blend: Bool, source: OverWhiteImage) -> WebPDrawnFrame {
        var rgb = [UInt8](repeating: 0, count: box.width * box.height * 3)
        for y in 0..<box.height {
            let from = 3 * ((box.y0 + y) * source.width + box.x0)
            rgb[(3 * y * box.width)..<(3 * (y + 1) * box.width)] =
                source.rgb[from..<(from + 3 * box.width)]
        }
        // With blending the box is `blended`, whose alpha an exact frame keeps.
        return WebPDrawnFrame(
            bytes: bytes, blend: blend, box: box, rgb: rgb,
            drawn: blend ? blended.map { Self.opaqueMask($0.data) } : nil)
    }

    /// Per pixel of RGBA (straight or premultiplied: the alpha byte is the same): not fully
    /// transparent.
    private static func opaqueMask(_ rgba: [UInt8]) -> [Bool] {
        (0..<(rgba.count / 4)).map { rgba[4 * $0 + 3] != 0 }
    }
}

/// One encoding of a frame's box and what a player draws for it: the bytes (a still WebP),
/// whether the box is blended, and the box's pixels over white as shown where drawn.
struct WebPDrawnFrame: Sendable {
    let bytes: [UInt8]
    let blend: Bool
    let box: PixelBounds
    /// Three bytes per pixel of the box, row by row.
    let rgb: [UInt8]
    /// Which pixels of the box are drawn (nil: all of them).
    let drawn: [Bool]?
}

/// What a lossy frame could look like, worked out on a renderer thread before the frame
/// reaches the (one-threaded) chooser: the frame over white, its box, and the box encoded
/// near-losslessly and as VP8 at each quality of the ladder, each decoded as a player
/// draws it.
public struct WebPFrameCandidates: Sendable {
    let source: OverWhiteImage
    let crop: WebPFrameCrop
    /// nil for a frame identical to the one before (the file shows the earlier one longer).
    let nearLossless: WebPDrawnFrame?
    /// At each quality of ``WebPEncodingOptions/vp8Ladder``, lowest first; empty for the
    /// first frame (never VP8) and a frame identical to the one before.
    let vp8: [(quality: Int, frame: WebPDrawnFrame)]

    /// The candidates of `frame`, which follows `previous` (nil for a chooser's first
    /// frame), under `options`: a pure function of the two frames, so the choice does not
    /// depend on which thread made them.
    public init(_ frame: Pixmap, previous: Pixmap?, options: WebPEncodingOptions)
        throws(WebPError)
    {
        source = OverWhiteImage(frame)
        crop = WebPFrameCrop(frame, previous: previous)
        guard !crop.changed.isEmpty else {
            nearLossless = nil
            vp8 = []
            return
        }
        // VP8L frames blend where they may (unchanged pixels left transparent cost almost
        // nothing there); VP8 frames never: an alpha plane costs more than the box's
        // unchanged pixels redrawn, and VP8 pays for the transparent holes at their edges.
        let vp8l = crop.blended ?? crop.full
        nearLossless = try crop.drawn(
            WebPAnimationEncoder.encodeStill(vp8l, config: options.config()),
            blend: crop.blended != nil)
        guard previous != nil else {
            vp8 = []
            return
        }
        var vp8: [(quality: Int, frame: WebPDrawnFrame)] = []
        for quality in options.vp8Ladder {
            let bytes = try WebPAnimationEncoder.encodeStill(
                crop.full, config: options.vp8Config(quality: quality))
            vp8.append((quality, try crop.drawn(bytes, blend: false)))
        }
        self.vp8 = vp8
    }
}
