import FlipbookGeometry

/// Reduces an image to at most 256 palette colors, written here rather than giflib's
/// deprecated `GifQuantizeBuffer`.
///
/// Pixels are packed straight-alpha colors `r | g << 8 | b << 16` (top byte 0);
/// ``transparentPixel`` (any non-zero top byte) marks a pixel to be written transparent.
///
/// Algorithm:
/// 1. Exact path: one pass assigns palette indices in order of first appearance through a
///    small open-addressing hash table; if the image has at most `maxColors` distinct
///    values (transparent counts as one), the result is lossless.
/// 2. Otherwise Wu's variance-minimizing quantizer (``WuQuantizer``) on a 5-bit-per-channel
///    histogram in a weighted RGB space (weights r 3, g 4, b 2) builds a starting palette,
///    which `refinementPasses` rounds of k-means in Oklab (``OklabQuantizer``) refine.
///    One index is reserved for transparency when the image has transparent pixels.
/// 3. Mapping takes each pixel to the nearest palette color in Oklab, optionally dithered
///    (``GIFDither``), searching once per distinct color.
///
/// Everything is a pure function of its input, safe to run for many frames in parallel.
public enum ColorQuantizer {
    /// The packed value that marks a transparent pixel.
    public static let transparentPixel: UInt32 = 0xFF00_0000

    /// Calls `body` once per run of equal consecutive pixels that are not marked
    /// transparent nor `hidden`, with the pixel and the run's length: the histogram pass both
    /// quantizers start from (flat UI frames are long runs, so this skips most work).
    @inline(__always)
    static func forEachOpaqueRun(
        _ pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil,
        _ body: (UInt32, Int) -> Void
    ) {
        var i = 0
        // A stop request (Ctrl-C) is polled every 64 K pixels and ends the pass early: the
        // frame it belongs to is then discarded.
        var poll = 1 << 16
        guard let hidden else {
            while i < pixels.count {
                if i >= poll {
                    if RenderCancellation.shared.isCancelled { return }
                    poll = i + 1 << 16
                }
                let p = pixels[i]
                var run = 1
                while i + run < pixels.count && pixels[i + run] == p { run += 1 }
                i += run
                if p >> 24 == 0 { body(p, run) }
            }
            return
        }
        while i < pixels.count {
            if i >= poll {
                if RenderCancellation.shared.isCancelled { return }
                poll = i + 1 << 16
            }
            let p = pixels[i], h = hidden[i]
            var run = 1
            while i + run < pixels.count && pixels[i + run] == p && hidden[i + run] == h {
                run += 1
            }
            i += run
            if p >> 24 == 0 && !h { body(p, run) }
        }
    }
    /// Channel weights of the color distance (a cheap perceptual approximation).
    public static let weights = (r: 3, g: 4, b: 2)

    /// A palette and one index per input pixel.
    public struct Result: Sendable, Equatable {
        /// Packed 0x00BBGGRR colors; the transparent entry (if any) is 0.
        public var palette: [UInt32]
        public var indices: [UInt8]
        public var transparentIndex: Int?
        /// Whether every pixel kept its exact color.
        public var isExact: Bool
    }

    /// Quantizes packed pixels to at most `maxColors` (2…256) palette entries.
    ///
    /// `width`, `originX`, `originY` place the pixels on the canvas (rows of `width`, top-left
    /// at the origin) for dithering; without `width` the pixels are one row. Pixels marked in
    /// `hidden` count as transparent (the frame encoder's unchanged pixels: a mask instead
    /// of a second copy of the frame).
    public static func quantize(
        _ pixels: [UInt32], hidden: [Bool]? = nil, maxColors: Int = 256,
        refinementPasses: Int = 4, dither: GIFDither = .none, width: Int? = nil,
        originX: Int = 0, originY: Int = 0
    ) -> Result {
        precondition((2...256).contains(maxColors), "maxColors must be 2…256")
        return PackedPixels.with(pixels) { p in
            quantize(
                p, hidden: hidden, maxColors: maxColors, refinementPasses: refinementPasses,
                dither: dither,
                width: width, originX: originX, originY: originY)
        }
    }

    /// ``quantize(_:hidden:maxColors:refinementPasses:dither:width:originX:originY:)`` of
    /// packed pixels in any form.
    static func quantize(
        _ pixels: PackedPixels, hidden: [Bool]? = nil, maxColors: Int = 256,
        refinementPasses: Int = 4, dither: GIFDither = .none, width: Int? = nil,
        originX: Int = 0, originY: Int = 0
    ) -> Result {
        precondition(hidden.map { $0.count == pixels.count } ?? true, "one hidden flag per pixel")
        guard let hidden else {
            return quantize(
                pixels, nil, maxColors, refinementPasses, dither, width, originX, originY)
        }
        return hidden.withUnsafeBufferPointer {
            quantize(pixels, $0, maxColors, refinementPasses, dither, width, originX, originY)
        }
    }

    private static func quantize(
        _ pixels: PackedPixels, _ hidden: UnsafeBufferPointer<Bool>?,
        _ maxColors: Int, _ refinementPasses: Int, _ dither: GIFDither, _ width: Int?,
        _ originX: Int, _ originY: Int
    ) -> Result {
        do {
            if let exact = exactColors(pixels, hidden: hidden, limit: maxColors) { return exact }
            // A stop request (Ctrl-C) is polled between the stages (and inside their pixel
            // loops): the frame is then discarded, so any palette does.
            if RenderCancellation.shared.isCancelled { return abandoned(pixels.count) }
            var hasTransparent = pixels.contains { $0 >> 24 != 0 }
            if let hidden, !hasTransparent { hasTransparent = hidden.contains(true) }
            let slots = hasTransparent ? maxColors - 1 : maxColors
            // Flat areas keep their exact colors: the frequent ones take palette entries of
            // their own, and Wu's quantizer and k-means share the rest among the other pixels.
            let anchors = frequentColors(pixels, hidden: hidden, limit: slots / 2)
            if RenderCancellation.shared.isCancelled { return abandoned(pixels.count) }
            var rest: [Bool] = []
            if !anchors.isEmpty {
                let anchorSet = PaletteLookup(anchors, skipping: nil)
                rest = [Bool](unsafeUninitializedCapacity: pixels.count) { out, count in
                    for i in 0..<pixels.count {
                        out[i] =
                            hidden?[i] == true
                            || (pixels[i] >> 24 == 0 && anchorSet.index(of: pixels[i]) != nil)
                    }
                    count = pixels.count
                }
            }
            if RenderCancellation.shared.isCancelled { return abandoned(pixels.count) }
            let refined = rest.withUnsafeBufferPointer { restPointer in
                let others = anchors.isEmpty ? hidden : restPointer
                let wu = WuQuantizer(pixels: pixels, hidden: others)
                if RenderCancellation.shared.isCancelled {
                    return (palette: [UInt32(0)], rmsRGB: Float(0))
                }
                var palette = anchors + wu.palette(maxColors: slots - anchors.count)
                if palette.isEmpty { palette = [0] }
                return OklabQuantizer.refine(
                    palette, cells: OklabQuantizer.cells(pixels, hidden: others),
                    passes: refinementPasses, fixed: anchors.count)
            }
            if RenderCancellation.shared.isCancelled { return abandoned(pixels.count) }
            var palette = refined.palette
            let transparentIndex = hasTransparent ? palette.count : nil
            let spread = min(64, max(2, 2 * refined.rmsRGB))
            let indices = OklabQuantizer.map(
                pixels, hidden: hidden, width: width ?? pixels.count, originX: originX,
                originY: originY, palette: palette, transparentIndex: transparentIndex,
                dither: dither, spread: spread)
            if hasTransparent { palette.append(0) }
            return Result(
                palette: palette, indices: indices, transparentIndex: transparentIndex,
                isExact: false)
        }
    }

    /// What a quantizing stopped by a stop request returns: one color, every pixel on it.
    private static func abandoned(_ count: Int) -> Result {
        Result(
            palette: [0], indices: [UInt8](repeating: 0, count: count), transparentIndex: nil,
            isExact: false)
    }

    /// Up to `limit` colors that each cover at least 1/128 of the opaque pixels (and 16
    /// pixels; 1/512 kept 128 steps of a long gradient too, and made demo's GIF 5 % larger), most frequent first (ties: smaller value first, so the result is a pure
    /// function of the pixels).
    static func frequentColors(
        _ pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil,
        limit: Int
    ) -> [UInt32] {
        guard limit > 0 else { return [] }
        var counts: [UInt32: Int] = [:]
        var opaque = 0
        forEachOpaqueRun(pixels, hidden: hidden) { p, run in
            counts[p, default: 0] += run
            opaque += run
        }
        let threshold = max(16, opaque / 128)
        let frequent = counts.filter { $0.value >= threshold }.sorted {
            ($0.value, $1.key) > ($1.value, $0.key)
        }
        return frequent.prefix(limit).map(\.key)
    }

    /// The lossless palette and indices, or nil when there are more than `limit` values
    /// (`hidden` pixels count as transparent).
    static func exactColors(
        _ pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil,
        limit: Int
    ) -> Result? {
        let bits = 11, empty = UInt32.max
        var keys = [UInt32](repeating: empty, count: 1 << bits)
        var values = [UInt8](repeating: 0, count: 1 << bits)
        var palette: [UInt32] = []
        var transparentIndex: Int?
        var overflow = false
        let indices = [UInt8](unsafeUninitializedCapacity: pixels.count) { out, count in
            count = 0
            keys.withUnsafeMutableBufferPointer { keys in
                values.withUnsafeMutableBufferPointer { values in
                    var last = empty, lastIndex: UInt8 = 0
                    for i in 0..<pixels.count {
                        var p = pixels[i]
                        if p >> 24 != 0 || hidden?[i] == true { p = transparentPixel }
                        if p != last {
                            var slot = Int((p &* 0x9E37_79B1) >> UInt32(32 - bits))
                            while keys[slot] != p && keys[slot] != empty {
                                slot = (slot + 1) & ((1 << bits) - 1)
                            }
                            if keys[slot] == empty {
                                guard palette.count < limit else { overflow = true; return }
                                keys[slot] = p
                                values[slot] = UInt8(palette.count)
                                if p == transparentPixel { transparentIndex = palette.count }
                                palette.append(p == transparentPixel ? 0 : p)
                            }
                            last = p
                            lastIndex = values[slot]
                        }
                        out[i] = lastIndex
                    }
                    count = pixels.count
                }
            }
        }
        if overflow { return nil }
        if palette.isEmpty { palette = [0] }
        return Result(
            palette: palette, indices: indices, transparentIndex: transparentIndex, isExact: true)
    }
}
