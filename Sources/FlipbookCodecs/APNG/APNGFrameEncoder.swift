import FlipbookGeometry
import FlipbookRaster

/// One APNG frame before compression: the region of the canvas it covers and its straight
/// RGBA pixels for each blend it may be written with.
struct APNGFrameWork: Sendable {
    var rect: PixelBounds
    /// The frame's own pixels in `rect`, for blend_op SOURCE.
    var source: [UInt8]
    /// The same with every pixel equal to the canvas below made transparent, for blend_op
    /// OVER; nil when a changed pixel is not opaque. (OVER of a translucent pixel onto a
    /// transparent one is exact by the specification and in browsers, but Pillow (13.0) pastes
    /// it with its own alpha as the mask, squaring the alpha; apngasm and ffmpeg keep
    /// OVER for opaque pixels too.)
    var over: [UInt8]?

    var width: Int { rect.x1 - rect.x0 }
    var height: Int { rect.y1 - rect.y0 }
}

/// One compressed APNG frame: its region, its blend and its zlib stream (IDAT or fdAT data).
struct APNGEncodedFrame: Sendable {
    var rect: PixelBounds
    var blendOver: Bool
    var data: [UInt8]
}

/// The frame-by-frame half of APNG writing: what changed against the canvas a decoder
/// holds, and the compression of that region.
///
/// A decoder's canvas before frame k is frame k − 1 exactly (every frame is written
/// exactly), with frame k − 1's region cleared when its dispose_op is BACKGROUND. So the
/// region of frame k is the bounding box of the pixels that differ from that canvas.
enum APNGFrameEncoder {
    /// The bounding box of the pixels where `frame` differs from `base`, whose pixels in
    /// `cleared` count as transparent (a BACKGROUND disposal); nil when none differ.
    static func changedRect(_ frame: Pixmap, _ base: Pixmap, cleared: PixelBounds?) -> PixelBounds?
    {
        guard let cleared else { return GIFFrameEncoder.changedRect(frame, base) }
        var out = GIFFrameEncoder.changedRect(frame, base).flatMap {
            outside($0, cleared, frame, base)
        }
        // Inside the cleared region the canvas is transparent: any visible pixel differs.
        out = GIFFrameEncoder.union(out, visibleRect(frame, in: cleared))
        return out
    }

    /// The bounding box of the differing pixels of `rect` that lie outside `cleared`.
    private static func outside(
        _ rect: PixelBounds, _ cleared: PixelBounds, _ a: Pixmap, _ b: Pixmap
    ) -> PixelBounds? {
        var out: PixelBounds?
        a.data.withUnsafeBytes { ra in
            b.data.withUnsafeBytes { rb in
                let pa = ra.bindMemory(to: UInt32.self), pb = rb.bindMemory(to: UInt32.self)
                for y in rect.y0..<rect.y1 {
                    let row = y * a.width
                    let rowCleared = y >= cleared.y0 && y < cleared.y1
                    for x in rect.x0..<rect.x1 where pa[row + x] != pb[row + x] {
                        if rowCleared && x >= cleared.x0 && x < cleared.x1 { continue }
                        out = GIFFrameEncoder.union(
                            out, PixelBounds(x0: x, y0: y, x1: x + 1, y1: y + 1))
                    }
                }
            }
        }
        return out
    }

    /// The bounding box of the pixels of `rect` with any alpha at all.
    private static func visibleRect(_ frame: Pixmap, in rect: PixelBounds) -> PixelBounds? {
        var out: PixelBounds?
        frame.data.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt32.self)
            for y in rect.y0..<rect.y1 {
                let row = y * frame.width
                var first = -1, last = -1
                for x in rect.x0..<rect.x1 where p[row + x] != 0 {
                    if first < 0 { first = x }
                    last = x
                }
                if first >= 0 {
                    out = GIFFrameEncoder.union(
                        out, PixelBounds(x0: first, y0: y, x1: last + 1, y1: y + 1))
                }
            }
        }
        return out
    }

    /// The straight RGBA pixels of `rect` in `frame`, and (when `base` is given) the OVER
    /// variant against `base` with `cleared` transparent. `opaque`: nil when a pixel is not
    /// opaque (the animation was declared opaque). The format written (``APNGColorMode``) is
    /// chosen later, from every frame's work.
    static func work(
        _ frame: Pixmap, base: Pixmap?, cleared: PixelBounds?, rect: PixelBounds,
        opaque: Bool = false
    ) -> APNGFrameWork? {
        let w = rect.x1 - rect.x0, h = rect.y1 - rect.y0
        var source = [UInt8](repeating: 0, count: w * h * 4)
        var over: [UInt8]? = base == nil ? nil : [UInt8](repeating: 0, count: w * h * 4)
        var overPossible = base != nil
        var alphaAll: UInt32 = 0xFF
        StraightAlpha.table.withUnsafeBufferPointer { t in
            frame.data.withUnsafeBytes { rf in
                let pf = rf.bindMemory(to: UInt32.self)
                // Without a base (the first frame) only SOURCE is made and `pb` is not read.
                (base ?? frame).data.withUnsafeBytes { rb in
                    let pb = rb.bindMemory(to: UInt32.self)
                    source.withUnsafeMutableBufferPointer { src in
                        for y in rect.y0..<rect.y1 {
                            let row = y * frame.width
                            let rowCleared = cleared.map { y >= $0.y0 && y < $0.y1 } ?? false
                            for x in rect.x0..<rect.x1 {
                                let f = UInt32(littleEndian: pf[row + x])
                                let o = ((y - rect.y0) * w + (x - rect.x0)) * 4
                                let straight = straightWord(f, t)
                                alphaAll &= f >> 24
                                src[o] = UInt8(truncatingIfNeeded: straight)
                                src[o + 1] = UInt8(truncatingIfNeeded: straight >> 8)
                                src[o + 2] = UInt8(truncatingIfNeeded: straight >> 16)
                                src[o + 3] = UInt8(truncatingIfNeeded: straight >> 24)
                                guard overPossible else { continue }
                                let inCleared = rowCleared && x >= cleared!.x0 && x < cleared!.x1
                                let b = inCleared ? 0 : UInt32(littleEndian: pb[row + x])
                                // stays transparent: the canvas shows through
                                if f == b { continue }
                                guard f >> 24 == 255 else {
                                    overPossible = false; continue
                                }
                                over![o] = src[o]; over![o + 1] = src[o + 1];
                                over![o + 2] = src[o + 2]; over![o + 3] = src[o + 3]
                            }
                        }
                    }
                }
            }
        }
        if opaque && alphaAll != 0xFF { return nil }
        return APNGFrameWork(rect: rect, source: source, over: overPossible ? over : nil)
    }

    /// A premultiplied pixel word (0xAABBGGRR) as straight alpha, through ``StraightAlpha/table``.
    @inline(__always)
    private static func straightWord(_ p: UInt32, _ t: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let a = p >> 24
        if a == 255 || a == 0 { return p }
        let row = Int(a) << 8
        return UInt32(t[row | Int(p & 0xFF)]) | UInt32(t[row | Int((p >> 8) & 0xFF)]) << 8
            | UInt32(t[row | Int((p >> 16) & 0xFF)]) << 16 | a << 24
    }
}
