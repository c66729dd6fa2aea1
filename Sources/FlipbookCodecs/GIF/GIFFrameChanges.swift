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
    /// The first half of ``prepare(_:previous:redraw:)``, the only one that reads `previous`:
    /// what changed, as packed pixels and a mask. A parallel exporter lets go of `previous`
    /// (4 MB at 750×1334) once this returns, before the quantizing and compressing that
    /// take most of a frame's time; ``prepare(_:_:)`` finishes the frame.
    package func changes(_ frame: Pixmap, previous: Pixmap?, redraw: PixelBounds? = nil)
        -> GIFFrameChanges
    {
        precondition(
            frame.width == width && frame.height == height, "frame size differs from the GIF's")
        // In a cleared region only the visible pixels need drawing (the rest is transparent
        // already): keeps the next frame's clear, and this frame, small.
        let drawn = redraw.flatMap { background == nil ? Self.visibleRect(frame, in: $0) : $0 }
        var rect = drawn ?? redraw ?? PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        var diffed = false
        if let previous, previous.width == width, previous.height == height {
            let changed = Self.changedRect(frame, previous)
            guard changed != nil || redraw != nil else {
                return .done(
                    GIFPreparedFrame(
                        source: kept(frame), isIdenticalToPrevious: true, left: 0, top: 0, width: 0,
                        height: 0, palette: [],
                        image: LZWImage(minCodeSize: 2, blocks: [], indices: []),
                        transparentIndex: nil, needsClearedCanvas: false, isExact: true))
            }
            if redraw == nil, background == nil, let changed,
                let lost = Self.vanishingRect(frame, previous, in: changed)
            {
                // Visible pixels vanish: the previous frame must be disposed to background
                // over a rectangle that only the writer knows (its own and `lost`), and
                // this frame drawn again over it; see ``GIFWriter``.
                var placeholder = GIFPreparedFrame(
                    source: kept(frame), isIdenticalToPrevious: false, left: 0, top: 0, width: 0,
                    height: 0, palette: [],
                    image: LZWImage(minCodeSize: 2, blocks: [], indices: []),
                    transparentIndex: nil, needsClearedCanvas: true, isExact: true)
                placeholder.vanishing = lost
                return .done(placeholder)
            }
            rect = Self.union(changed, drawn) ?? redraw!
            diffed = true
        }
        // A rectangle of whole rows is read from the frame as it is (``PackedPixels``);
        // another is packed into an array of its own.
        let packed = rect.x0 == 0 && rect.x1 == width ? nil : packedPixels(frame, rect)
        // Unchanged pixels may take either the transparent index or their own color; the
        // local palette is made for the others. A mask, not a copy of the frame with those
        // pixels transparent: 1 byte a pixel instead of 4 per worker.
        if diffed, let previous {
            // Inside a cleared region nothing is kept: every pixel is drawn.
            let (unchanged, count) = withPixels(frame, rect, packed: packed) {
                unchangedPixels($0, frame, previous, rect, redraw: redraw)
            }
            return .changed(
                GIFFrameChanges.Changed(
                    rect: rect, pixels: packed, unchanged: unchanged, unchangedCount: count))
        }
        return .changed(
            GIFFrameChanges.Changed(
                rect: rect, pixels: packed,
                unchanged: [Bool](
                    repeating: false, count: (rect.x1 - rect.x0) * (rect.y1 - rect.y0)),
                unchangedCount: 0))
    }

    /// Calls `body` with the packed pixels of `rect` in `frame`: `packed` when given, else
    /// (a rectangle of whole rows) the frame's own rows, packed as they are read.
    func withPixels<R>(
        _ frame: Pixmap, _ rect: PixelBounds, packed: [UInt32]?, _ body: (PackedPixels) -> R
    ) -> R {
        if let packed { return PackedPixels.with(packed, body) }
        precondition(rect.x0 == 0 && rect.x1 == frame.width, "only whole rows are read in place")
        let packer = PixelPacker(background: background, matte: options.matte)
        return frame.data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt32.self) { all in
                body(
                    PackedPixels(
                        premultiplied: UnsafeBufferPointer(
                            rebasing: all[rect.y0 * frame.width..<rect.y1 * frame.width]),
                        packer: packer))
            }
        }
    }

    /// The pixels of `rect` as packed straight colors (``ColorQuantizer/transparentPixel``
    /// for transparent ones).
    func packedPixels(_ frame: Pixmap, _ rect: PixelBounds) -> [UInt32] {
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        let packer = PixelPacker(background: background, matte: options.matte)
        return [UInt32](unsafeUninitializedCapacity: w * h) { out, count in
            frame.data.withUnsafeBytes { raw in
                raw.withMemoryRebound(to: UInt32.self) { src in
                    var o = 0
                    for y in rect.y0..<rect.y1 {
                        let row = y * frame.width
                        for x in rect.x0..<rect.x1 {
                            out[o] = packer.pack(UInt32(littleEndian: src[row + x]))
                            o += 1
                        }
                    }
                }
            }
            count = w * h
        }
    }

    /// Which of `pixels` (the packed pixels of `rect` in `frame`) are unchanged: visible, with
    /// the packed color `previous` has there, and outside `redraw` (a cleared region keeps
    /// nothing); and how many. Reads `previous` in place: no second frame of packed pixels.
    func unchangedPixels(
        _ pixels: PackedPixels, _ frame: Pixmap, _ previous: Pixmap, _ rect: PixelBounds,
        redraw: PixelBounds?
    ) -> (mask: [Bool], count: Int) {
        var mask = [Bool](repeating: false, count: pixels.count)
        var unchanged = 0
        let packer = PixelPacker(background: background, matte: options.matte)
        let w = rect.x1 - rect.x0
        let packed = pixels
        mask.withUnsafeMutableBufferPointer { out in
            frame.data.withUnsafeBytes { ra in
                previous.data.withUnsafeBytes { rb in
                    ra.withMemoryRebound(to: UInt32.self) { pa in
                        rb.withMemoryRebound(to: UInt32.self) { pb in
                            for y in rect.y0..<rect.y1 {
                                let row = y * frame.width + rect.x0, o = (y - rect.y0) * w
                                let inRedraw = redraw.map { y >= $0.y0 && y < $0.y1 } ?? false
                                for x in 0..<w {
                                    let p = packed[o + x]
                                    guard p >> 24 == 0 else { continue }
                                    // Equal raw pixels pack equally; different ones may too
                                    // (compositing over the background rounds).
                                    let a = pa[row + x], b = pb[row + x]
                                    guard a == b || packer.pack(UInt32(littleEndian: b)) == p else {
                                        continue
                                    }
                                    if inRedraw, let r = redraw,
                                        rect.x0 + x >= r.x0 && rect.x0 + x < r.x1
                                    {
                                        continue
                                    }
                                    out[o + x] = true
                                    unchanged += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (mask, unchanged)
    }

    /// The bounding box (exclusive upper bounds) of the pixels that differ, or nil.
    static func changedRect(_ a: Pixmap, _ b: Pixmap) -> PixelBounds? {
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
                            if memcmp(pa.baseAddress! + row, pb.baseAddress! + row, w * 4) == 0 {
                                continue
                            }
                            var l = 0
                            while l < w && pa[row + l] == pb[row + l] { l += 1 }
                            var r = w
                            while r > l && pa[row + r - 1] == pb[row + r - 1] { r -= 1 }
                            if y0 < 0 { y0 = y }
                            y1 = y + 1
                            x0 = min(x0, l); x1 = max(x1, r)
                        }
                        return y0 < 0 ? nil : PixelBounds(x0: x0, y0: y0, x1: x1, y1: y1)
                    }
                }
            }
        }
    }

    /// The bounding box of the pixels in `rect` that are visible (alpha ≥ 128) in
    /// `previous` but not in `frame`, or nil when none are.
    static func vanishingRect(_ frame: Pixmap, _ previous: Pixmap, in rect: PixelBounds)
        -> PixelBounds?
    {
        var out: PixelBounds?
        for y in rect.y0..<rect.y1 {
            var i = (y * frame.width + rect.x0) * 4 + 3
            for x in rect.x0..<rect.x1 {
                if frame.data[i] < 128 && previous.data[i] >= 128 {
                    out = union(out, PixelBounds(x0: x, y0: y, x1: x + 1, y1: y + 1))
                }
                i += 4
            }
        }
        return out
    }

    /// The bounding box of the visible (alpha ≥ 128) pixels in `rect`, or nil.
    static func visibleRect(_ frame: Pixmap, in rect: PixelBounds) -> PixelBounds? {
        var out: PixelBounds?
        for y in rect.y0..<rect.y1 {
            var i = (y * frame.width + rect.x0) * 4 + 3
            var first = -1, last = -1
            for x in rect.x0..<rect.x1 {
                if frame.data[i] >= 128 { if first < 0 { first = x }; last = x }
                i += 4
            }
            if first >= 0 {
                out = union(out, PixelBounds(x0: first, y0: y, x1: last + 1, y1: y + 1))
            }
        }
        return out
    }

    /// The smallest rectangle holding both (nil when both are nil).
    package static func union(_ a: PixelBounds?, _ b: PixelBounds?) -> PixelBounds? {
        guard let a else { return b }
        guard let b else { return a }
        return PixelBounds(
            x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1))
    }
}

/// What ``GIFFrameEncoder/changes(_:previous:redraw:)`` found: a frame already prepared
/// (identical to the previous one, or a placeholder for the writer), or the rectangle to
/// encode with its packed pixels and which of them are unchanged.
package enum GIFFrameChanges: Sendable {
    case done(GIFPreparedFrame)
    case changed(Changed)

    /// The rectangle to encode: its pixels packed (``GIFFrameEncoder/packedPixels(_:_:)``)
    /// and the mask of those equal to the previous frame's (``GIFFrameEncoder/unchangedPixels(_:_:_:_:redraw:)``).
    package struct Changed: Sendable {
        let rect: PixelBounds
        /// nil for a rectangle of whole rows, read from the frame itself.
        let pixels: [UInt32]?
        let unchanged: [Bool]
        let unchangedCount: Int
    }
}

/// Premultiplied RGBA (as the renderer stores it, little-endian 0xAABBGGRR) to the packed
/// straight color a GIF encodes: opaque pixels as they are; on an opaque canvas, others
/// composited over its background; on a transparent one, alpha < 128 transparent and the
/// rest unpremultiplied (or composited over the matte).
struct PixelPacker {
    private let bg: (r: UInt32, g: UInt32, b: UInt32)?
    private let matte: (r: UInt32, g: UInt32, b: UInt32)?

    init(background: Color?, matte: Color?) {
        func bytes(_ c: Color) -> (r: UInt32, g: UInt32, b: UInt32) {
            (
                UInt32((c.red * 255).rounded()), UInt32((c.green * 255).rounded()),
                UInt32((c.blue * 255).rounded())
            )
        }
        bg = background.map(bytes)
        self.matte = background == nil ? matte.map(bytes) : nil
    }

    @inline(__always) func pack(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p & 0xFF_FFFF }
        let r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
        if let bg {
            let k = 255 - a
            return min(255, r + (bg.r * k + 127) / 255) | min(255, g + (bg.g * k + 127) / 255) << 8
                | min(255, b + (bg.b * k + 127) / 255) << 16
        }
        if a < 128 { return ColorQuantizer.transparentPixel }
        if let bg = matte {
            let k = 255 - a
            return min(255, r + (bg.r * k + 127) / 255) | min(255, g + (bg.g * k + 127) / 255) << 8
                | min(255, b + (bg.b * k + 127) / 255) << 16
        }
        return min(255, (r * 255 + a / 2) / a) | min(255, (g * 255 + a / 2) / a) << 8
            | min(255, (b * 255 + a / 2) / a) << 16
    }
}
