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

    /// libdeflate level at which the candidate encodings of a frame are ranked (zlib's 6
    /// before): card-signup's 63.8 MB of chosen rows take libdeflate 6 0.12 s, zlib 9
    /// 0.63 s. Ranking at 4 instead of 6 gives 578,361 bytes instead of 577,934.
    static let trialLevel: Int32 = 6
    /// libdeflate level of the stream written: its highest, whose near-optimal parsing is
    /// smaller than zlib's level 9 (card-signup 587,253 → 577,934 bytes, 5317-fireworkds
    /// 698,480 → 659,715, scenes/bench/long-gradients 3,075,773 → 2,757,679) at up to 2.6
    /// times the writer's CPU (0.11–0.28 × apngopt's, over issue 25's 0.10 ×; but zlib 9
    /// misses that target too on long-gradients, at 0.195 ×, and 1.10 × apngopt's bytes
    /// on demo, starstrips and long-gradients; docs/formats.md). Levels 10 and 11 cost less
    /// but are larger than zlib 9 on card-signup (597,154 and 588,788 bytes).
    static let smallLevel: Int32 = 12

    /// Converts both blends of `work` to `mode`, filters each under every filter strategy,
    /// ranks the candidates by their libdeflate size and writes the smallest (SOURCE and the
    /// earlier strategy on ties), as `effort` says: `fast` ranks at ``trialLevel`` and keeps
    /// that stream, `default` ranks at ``trialLevel`` and deflates the winner again at
    /// ``smallLevel``, `small` ranks every candidate at ``smallLevel`` and keeps that stream.
    /// The strategies: the per-row choice by least sum, whole-frame None (flat UI colours and
    /// anti-aliased art on transparency deflate best unfiltered) and the per-row choice by
    /// least entropy (gradients and soft art over flat colour). Whole-frame Paeth, tried
    /// before the entropy rule came, no longer won a frame: on scenes/gradient-bench,
    /// bench/long-gradients, shadow-gradient and photo-pan dropping it left the bytes as they
    /// were (32 bytes smaller on gradient-bench) for 3–12 % less encode CPU.
    static func compress(
        _ work: APNGFrameWork, mode: APNGColorMode, effort: PNGCompression = .default
    ) throws(PNGError) -> APNGEncodedFrame {
        let bpp = mode.bytesPerPixel
        let strategies: [PNGRowFilters.Strategy] =
            mode.isIndexed
            ? [.fixed(PNGRowFilters.none), .minimumSum, .minimumEntropy]
            : [.minimumSum, .fixed(PNGRowFilters.none), .minimumEntropy]
        var blends = [(over: false, pixels: mode.convert(work.source)!)]
        if let over = work.over.flatMap(mode.convert) { blends.append((true, over)) }
        let trial = try LibDeflate(level: effort == .small ? smallLevel : trialLevel)
        var best: (over: Bool, filtered: [UInt8], stream: [UInt8])?
        for blend in blends {
            for strategy in strategies {
                let filtered = blend.pixels.withUnsafeBytes {
                    PNGRowFilters.filter(
                        $0, stride: work.width * bpp, height: work.height, bpp: bpp,
                        strategy: strategy)
                }
                let stream = try trial.compress(filtered)
                if best == nil || stream.count < best!.stream.count {
                    best = (blend.over, filtered, stream)
                }
            }
        }
        let data =
            effort == .default
            ? try LibDeflate(level: smallLevel).compress(best!.filtered) : best!.stream
        return APNGEncodedFrame(rect: work.rect, blendOver: best!.over, data: data)
    }
}
