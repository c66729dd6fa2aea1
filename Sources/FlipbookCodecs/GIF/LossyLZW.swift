import FlipbookGeometry

/// Lossy LZW (`--lossy`): the coder may extend its current string with a palette color
/// that is not the pixel's own but close enough, so strings grow longer and fewer codes are
/// written. The same idea as gifsicle's `--lossy`, written here against the SOURCE pixels
/// (gifsicle only sees an already quantized GIF).
///
/// Per pixel, in scan order, with the string so far ending at code `prefix`:
/// 1. the quantizer's own index, if the table extends `prefix` with it;
/// 2. else, of the strings extending `prefix` (the table's child list), the one whose last
///    color is nearest the pixel's target, if within the tolerance;
/// 3. else the string ends (its code is emitted, the new string added) and a new one starts
///    with the quantizer's index.
/// The target is the source color plus ¾ of the previous pixel's error (error diffusion
/// along the row, so that many small deviations do not add up to a visible shift); it is
/// reset at the start of each row. Distance is the quantizer's weighted RGB
/// (3·Δr² + 4·Δg² + 2·Δb²), compared with 9·tolerance², so `tolerance` is in 8-bit levels.
///
/// Which indices a pixel may take: a pixel unchanged from the previous frame may be
/// transparent (cost 0: the kept pixel shows) or any color within tolerance; a pixel that is
/// transparent in the source must stay transparent; any other pixel may not be transparent.
extension LZWEncoder {
    /// Compresses `indices` (the quantizer's choice) letting pixels deviate by up to
    /// `tolerance` levels. `pixels` are the packed source colors of the rectangle (rows of
    /// `width`; ``ColorQuantizer/transparentPixel`` for transparent ones); `unchanged[i]`
    /// marks pixels equal to the previous frame's. Returns the image and whether every
    /// visible pixel kept exactly the color of its quantizer index.
    public static func compressLossy(
        _ indices: [UInt8], minCodeSize: Int, width: Int, pixels: [UInt32],
        unchanged: [Bool], palette: [UInt32], transparentIndex: Int?,
        tolerance: Int
    ) -> (image: LZWImage, keptIndices: Bool) {
        PackedPixels.with(pixels) {
            compressLossy(
                indices, minCodeSize: minCodeSize, width: width, pixels: $0, unchanged: unchanged,
                palette: palette, transparentIndex: transparentIndex, tolerance: tolerance)
        }
    }

    /// ``compressLossy(_:minCodeSize:width:pixels:unchanged:palette:transparentIndex:tolerance:)``
    /// of packed pixels in any form.
    static func compressLossy(
        _ indices: [UInt8], minCodeSize: Int, width: Int, pixels: PackedPixels,
        unchanged: [Bool], palette: [UInt32], transparentIndex: Int?,
        tolerance: Int
    ) -> (image: LZWImage, keptIndices: Bool) {
        precondition(indices.count == pixels.count && unchanged.count == pixels.count && width > 0)
        var coder = LZWCoder(minCodeSize: minCodeSize, capacity: indices.count / 16 + 64)
        guard !indices.isEmpty else { return (coder.finish(prefix: nil, indices: []), true) }
        let limit = 9 * tolerance * tolerance
        let clear = transparentIndex ?? -1
        // Red, green, blue of every palette entry, one run each (and one spare, so that the
        // buffer is never empty).
        let rgb =
            palette.map { Int($0 & 0xFF) } + palette.map { Int(($0 >> 8) & 0xFF) }
            + palette.map { Int(($0 >> 16) & 0xFF) } + [0]
        var kept = true
        let table = coder.table
        // Raw views of the per-pixel inputs and the palette: this loop runs once per pixel of
        // every lossy candidate, and array bounds checks were a good part of it.
        let chosen = indices.withUnsafeBufferPointer { indices in
            unchanged.withUnsafeBufferPointer { unchanged in
                palette.withUnsafeBufferPointer { palette in
                    rgb.withUnsafeBufferPointer { rgb in
                        [UInt8](unsafeUninitializedCapacity: indices.count) { chosen, count in
                            let n = palette.count
                            let r = rgb.baseAddress!, g = r + n, b = g + n
                            var prefix = Int(indices[0])
                            chosen[0] = indices[0]
                            var er = 0, eg = 0, eb = 0
                            func settle(_ i: Int, _ index: Int, _ tr: Int, _ tg: Int, _ tb: Int) {
                                if index == clear || pixels[i] >> 24 != 0 {
                                    er = 0; eg = 0; eb = 0
                                } else {
                                    er = tr - r[index]; eg = tg - g[index]; eb = tb - b[index]
                                }
                            }
                            let p0 = pixels[0]
                            settle(
                                0, prefix, Int(p0 & 0xFF), Int((p0 >> 8) & 0xFF),
                                Int((p0 >> 16) & 0xFF))
                            var x = 1
                            for i in 1..<indices.count {
                                // A stop request (Ctrl-C), polled every 64 K pixels, ends the
                                // image early; the frame it belongs to is then discarded.
                                if i & 0xFFFF == 0 && RenderCancellation.shared.isCancelled {
                                    break
                                }
                                if x == width { x = 0; er = 0; eg = 0; eb = 0 }
                                x += 1
                                let a = Int(indices[i])
                                let p = pixels[i]
                                let visible = p >> 24 == 0
                                if let code = table.find(prefix << 8 | a) {
                                    prefix = code
                                    chosen[i] = UInt8(truncatingIfNeeded: a)
                                    // No error carried and the pixel's own color (or transparent): the error
                                    // stays 0, as `settle` would find (most pixels of flat frames).
                                    if er | eg | eb == 0
                                        && (a == clear || !visible || palette[a] == p)
                                    {
                                        continue
                                    }
                                    settle(
                                        i, a, min(255, max(0, Int(p & 0xFF) + er * 3 / 4)),
                                        min(255, max(0, Int((p >> 8) & 0xFF) + eg * 3 / 4)),
                                        min(255, max(0, Int((p >> 16) & 0xFF) + eb * 3 / 4)))
                                    continue
                                }
                                let tr = min(255, max(0, Int(p & 0xFF) + er * 3 / 4))
                                let tg = min(255, max(0, Int((p >> 8) & 0xFF) + eg * 3 / 4))
                                let tb = min(255, max(0, Int((p >> 16) & 0xFF) + eb * 3 / 4))
                                // The nearest extension within tolerance.
                                var best = -1, bestCost = limit + 1
                                var child = Int(table.firstChild[prefix])
                                while child >= 0 {
                                    let s = Int(table.suffix[child])
                                    let cost: Int
                                    if s == clear {
                                        cost = unchanged[i] || !visible ? 0 : Int.max
                                    } else if !visible {
                                        cost = Int.max
                                    } else {
                                        let dr = tr - r[s], dg = tg - g[s], db = tb - b[s]
                                        cost = 3 * dr * dr + 4 * dg * dg + 2 * db * db
                                    }
                                    if cost < bestCost { bestCost = cost; best = child }
                                    child = Int(table.nextSibling[child])
                                }
                                if best >= 0 {
                                    let s = Int(table.suffix[best])
                                    prefix = best
                                    chosen[i] = UInt8(truncatingIfNeeded: s)
                                    if s != a && !(s == clear && unchanged[i]) { kept = false }
                                    settle(i, s, tr, tg, tb)
                                    continue
                                }
                                coder.miss(prefix: prefix, next: a)
                                prefix = a
                                chosen[i] = UInt8(truncatingIfNeeded: a)
                                settle(i, a, tr, tg, tb)
                            }
                            coder.lastPrefix = prefix
                            count = indices.count
                        }
                    }
                }
            }
        }
        return (coder.finish(prefix: coder.lastPrefix, indices: chosen), kept)
    }
}
