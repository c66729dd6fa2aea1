/// Nearest palette color under the weighted RGB distance of ``ColorQuantizer/weights``.
///
/// Entries are sorted by green (the heaviest channel); a query starts at the binary-search
/// position of its green value and walks outwards in both directions, stopping on each
/// side as soon as the green difference alone costs more than the best match so far.
/// ``map(_:transparentIndex:)`` adds a cache keyed by the 18-bit color (6 bits per channel),
/// so each distinct 18-bit color is searched once per frame.
struct PaletteSearch {
    private var g: [Int32] = []
    private var r: [Int32] = []
    private var b: [Int32] = []
    private var index: [Int32] = []

    /// `palette` holds packed 0x00BBGGRR colors.
    init(palette: [UInt32]) {
        let order = palette.indices.sorted { (palette[$0] >> 8) & 0xFF < (palette[$1] >> 8) & 0xFF }
        for i in order {
            let c = palette[i]
            r.append(Int32(c & 0xFF)); g.append(Int32((c >> 8) & 0xFF));
            b.append(Int32((c >> 16) & 0xFF))
            index.append(Int32(i))
        }
    }

    /// The index (into the original palette) of the color nearest to (qr, qg, qb).
    func nearest(_ qr: Int32, _ qg: Int32, _ qb: Int32) -> Int {
        let k = ColorQuantizer.weights
        let kr = Int32(k.r), kg = Int32(k.g), kb = Int32(k.b)
        return g.withUnsafeBufferPointer { g in
            r.withUnsafeBufferPointer { r in
                b.withUnsafeBufferPointer { b in
                    var lo = 0, hi = g.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if g[mid] < qg { lo = mid + 1 } else { hi = mid }
                    }
                    var best = Int32.max, bestAt = 0
                    /// Scores entry i; false once green alone rules it (and all further out) out.
                    @inline(__always) func consider(_ i: Int) -> Bool {
                        let dg = g[i] - qg
                        let dgg = kg * dg * dg
                        if dgg >= best { return false }
                        let dr = r[i] - qr, db = b[i] - qb
                        let d = dgg + kr * dr * dr + kb * db * db
                        if d < best { best = d; bestAt = i }
                        return true
                    }
                    var i = lo
                    while i < g.count && consider(i) { i += 1 }
                    i = lo - 1
                    while i >= 0 && consider(i) { i -= 1 }
                    return Int(index[bestAt])
                }
            }
        }
    }

    /// Palette indices for packed pixels; pixels with a non-zero top byte (transparent)
    /// get `transparentIndex`. Each 18-bit color is matched by its cell's center.
    func map(_ pixels: UnsafeBufferPointer<UInt32>, transparentIndex: Int?) -> [UInt8] {
        var cache = [UInt16](repeating: .max, count: 1 << 18)
        let clear = UInt8(transparentIndex ?? 0)
        return [UInt8](unsafeUninitializedCapacity: pixels.count) { out, count in
            cache.withUnsafeMutableBufferPointer { cache in
                var last: UInt32 = .max, lastIndex: UInt8 = 0
                for i in 0..<pixels.count {
                    let p = pixels[i]
                    if p != last {
                        last = p
                        if p >> 24 != 0 {
                            lastIndex = clear
                        } else {
                            let key =
                                Int((p >> 2) & 0x3F) | Int((p >> 10) & 0x3F) << 6 | Int(
                                    (p >> 18) & 0x3F) << 12
                            var found = cache[key]
                            if found == .max {
                                let center = { (v: UInt32) in Int32(v & 0xFC) | 2 }
                                found = UInt16(nearest(center(p), center(p >> 8), center(p >> 16)))
                                cache[key] = found
                            }
                            lastIndex = UInt8(truncatingIfNeeded: found)
                        }
                    }
                    out[i] = lastIndex
                }
            }
            count = pixels.count
        }
    }
}
