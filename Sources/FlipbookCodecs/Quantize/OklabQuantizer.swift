import FlipbookGeometry

/// How a lossy frame's pixels are matched to its palette.
public enum GIFDither: String, Sendable, CaseIterable {
    /// Nearest color (smallest files, some banding on gradients).
    case none
    /// An 8×8 Bayer threshold in canvas coordinates: the same pixel always gets the same
    /// offset, so unchanged areas never crawl from frame to frame.
    case ordered
    /// Floyd–Steinberg error diffusion, confined to the pixels that changed (errors never
    /// spread into pixels kept from the previous frame).
    case diffusion
}

/// Nearest palette entry in Oklab: entries sorted by L; a query walks out from its L in both
/// directions, stopping on each side once ΔL² alone exceeds the best distance so far.
struct OklabSearch {
    private var l: [Float] = [], a: [Float] = [], b: [Float] = []
    private var index: [Int32] = []

    init(palette: [Oklab.Lab]) {
        let order = palette.indices.sorted { (palette[$0].l, $0) < (palette[$1].l, $1) }
        for i in order {
            l.append(palette[i].l); a.append(palette[i].a); b.append(palette[i].b)
            index.append(Int32(i))
        }
    }

    /// Index into the original palette and the squared distance; callers pass a palette
    /// of at least one entry (an empty one answers index 0 at infinite distance).
    func nearest(_ q: Oklab.Lab) -> (index: Int, distance: Float) {
        guard !index.isEmpty else { return (0, .infinity) }
        return l.withUnsafeBufferPointer { l in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    var lo = 0, hi = l.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if l[mid] < q.l { lo = mid + 1 } else { hi = mid }
                    }
                    var best = Float.greatestFiniteMagnitude, bestAt = 0
                    @inline(__always) func consider(_ i: Int) -> Bool {
                        let dl = l[i] - q.l
                        let dll = dl * dl
                        if dll >= best { return false }
                        let da = a[i] - q.a, db = b[i] - q.b
                        let d = dll + da * da + db * db
                        if d < best || (d == best && index[i] < index[bestAt]) {
                            best = d; bestAt = i
                        }
                        return true
                    }
                    var i = lo
                    while i < l.count && consider(i) { i += 1 }
                    i = lo - 1
                    while i >= 0 && consider(i) { i -= 1 }
                    return (Int(index[bestAt]), best)
                }
            }
        }
    }
}

/// Palette building and mapping in Oklab for frames with more colors than the palette holds.
///
/// 1. Histogram: opaque pixels binned by 6 bits per channel (262 144 cells), with counts and
///    8-bit channel sums; each non-empty cell stands at its mean color, taken to Oklab.
/// 2. Initial palette: Wu's quantizer (``WuQuantizer``), a good, deterministic start.
/// 3. k-means (Lloyd) in Oklab over the cells, weighted by pixel count: each cell goes to
///    its nearest entry, each entry moves to the Oklab mean of its cells; `passes` rounds.
/// 4. Mapping: each distinct (after dithering: perturbed) color is matched once through a
///    small direct-mapped cache keyed by the full 24-bit color.
enum OklabQuantizer {
    struct Cells {
        var count: [Int32] = []
        var lab: [Oklab.Lab] = []
    }

    static func cells(_ pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil) -> Cells {
        // 2^18 cells in 512 blocks of 512, a block allocated when a color first lands in
        // it: UI frames touch a few blocks, so a frame's histogram takes tens of KiB
        // instead of 5 MiB cleared on every frame.
        var blocks = [Int32](repeating: -1, count: 1 << 9)
        var count: [Int32] = []
        var sums: [SIMD3<Int32>] = []
        ColorQuantizer.forEachOpaqueRun(pixels, hidden: hidden) { p, run in
            let key =
                Int((p >> 2) & 0x3F) | Int((p >> 10) & 0x3F) << 6 | Int((p >> 18) & 0x3F) << 12
            var block = Int(blocks[key >> 9])
            if block < 0 {
                block = count.count >> 9
                blocks[key >> 9] = Int32(block)
                count.append(contentsOf: repeatElement(0, count: 1 << 9))
                sums.append(contentsOf: repeatElement(.zero, count: 1 << 9))
            }
            let slot = block << 9 | (key & 0x1FF)
            count[slot] += Int32(run)
            sums[slot] &+=
                SIMD3(Int32(p & 0xFF), Int32((p >> 8) & 0xFF), Int32((p >> 16) & 0xFF))
                &* Int32(run)
        }
        var out = Cells()
        // In key order, as a flat table would give them.
        for high in 0..<(1 << 9) where blocks[high] >= 0 {
            let base = Int(blocks[high]) << 9
            for low in 0..<(1 << 9) where count[base | low] > 0 {
                let n = count[base | low], s = sums[base | low], h = n / 2
                out.count.append(n)
                out.lab.append(
                    Oklab.fromSRGB(Int((s.x + h) / n), Int((s.y + h) / n), Int((s.z + h) / n)))
            }
        }
        return out
    }

    /// k-means in Oklab from `initial` (packed colors); returns the packed palette and the
    /// pixel-weighted RMS error in 8-bit RGB units (a scale for ordered dithering).
    /// The first `fixed` entries attract cells but do not move (exact colors kept).
    static func refine(_ initial: [UInt32], cells: Cells, passes: Int, fixed: Int = 0) -> (
        palette: [UInt32], rmsRGB: Float
    ) {
        var centers = initial.map(Oklab.fromPacked)
        for _ in 0..<passes {
            let search = OklabSearch(palette: centers)
            var sum = [SIMD3<Double>](repeating: .zero, count: centers.count)
            var weight = [Double](repeating: 0, count: centers.count)
            for c in 0..<cells.count.count {
                let q = cells.lab[c]
                let j = search.nearest(q).index
                let w = Double(cells.count[c])
                weight[j] += w
                sum[j] += SIMD3(Double(q.l), Double(q.a), Double(q.b)) * w
            }
            for j in centers.indices where j >= fixed && weight[j] > 0 {
                let m = sum[j] / weight[j]
                centers[j] = Oklab.Lab(l: Float(m.x), a: Float(m.y), b: Float(m.z))
            }
        }
        // Round to 8-bit colors (deduplicated, so no two entries are the same).
        var palette: [UInt32] = []
        var seen = Set<UInt32>()
        for c in centers {
            let p = Oklab.toPacked(c)
            if seen.insert(p).inserted { palette.append(p) }
        }
        // RMS error in RGB, measured at the cells against the rounded palette.
        let labs = palette.map(Oklab.fromPacked)
        let search = OklabSearch(palette: labs)
        var err = 0.0, n = 0.0
        for c in 0..<cells.count.count {
            let j = search.nearest(cells.lab[c]).index
            let (r0, g0, b0) = Oklab.toLinear(cells.lab[c]), (r1, g1, b1) = Oklab.toLinear(labs[j])
            // Linear-light difference scaled to 8-bit units: a rough but monotone measure.
            let d = (r0 - r1) * (r0 - r1) + (g0 - g1) * (g0 - g1) + (b0 - b1) * (b0 - b1)
            err += Double(d) * Double(cells.count[c]); n += Double(cells.count[c])
        }
        return (palette, Float((err / max(n, 1)).squareRoot() * 255))
    }

    /// 8×8 Bayer matrix, values 0…63.
    static let bayer: [Int32] = [
        0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
    ]

    /// Palette indices for `pixels` (a `width`-wide rectangle whose top-left pixel sits at
    /// canvas (originX, originY)). Transparent pixels, and those marked in `hidden`, get
    /// `transparentIndex` (and no diffused error). `spread` is the ordered-dither amplitude
    /// in 8-bit units.
    static func map(
        _ pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil, width: Int,
        originX: Int, originY: Int, palette: [UInt32], transparentIndex: Int?, dither: GIFDither,
        spread: Float
    ) -> [UInt8] {
        let search = OklabSearch(palette: palette.map(Oklab.fromPacked))
        let cacheBits = 16
        // The nearest-color memo and the output are reached through raw pointers: the loops
        // below run once per pixel, and a closure mutating captured arrays paid a uniqueness
        // and a bounds check on every lookup.
        let cacheKey = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << cacheBits)
        cacheKey.initialize(repeating: .max, count: 1 << cacheBits)
        let cacheValue = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << cacheBits)
        cacheValue.initialize(repeating: 0, count: 1 << cacheBits)
        defer { cacheKey.deallocate(); cacheValue.deallocate() }
        let clear = UInt8(transparentIndex ?? 0)
        let height = width > 0 ? pixels.count / width : 0
        @inline(__always) func lookup(_ p: UInt32) -> UInt8 {
            let slot = Int((p &* 0x9E37_79B1) >> UInt32(32 - cacheBits))
            if cacheKey[slot] == p { return cacheValue[slot] }
            let j = UInt8(search.nearest(Oklab.fromPacked(p)).index)
            cacheKey[slot] = p
            cacheValue[slot] = j
            return j
        }
        @inline(__always) func pack(_ r: Float, _ g: Float, _ b: Float) -> UInt32 {
            UInt32(min(255, max(0, r.rounded()))) | UInt32(min(255, max(0, g.rounded()))) << 8
                | UInt32(min(255, max(0, b.rounded()))) << 16
        }
        var out = [UInt8](repeating: clear, count: pixels.count)
        @inline(__always) func skipped(_ i: Int) -> Bool {
            pixels[i] >> 24 != 0 || hidden?[i] == true
        }
        switch dither {
        case .none:
            out.withUnsafeMutableBufferPointer { out in
                var last: UInt32 = .max, lastIndex: UInt8 = 0
                for i in 0..<pixels.count {
                    // A stop request (Ctrl-C), polled every 64 K pixels, ends the mapping
                    // early; the frame is then discarded.
                    if i & 0xFFFF == 0xFFFF && RenderCancellation.shared.isCancelled { return }
                    let p = pixels[i]
                    if let hidden, hidden[i] { out[i] = clear; continue }
                    if p != last {
                        last = p
                        lastIndex = p >> 24 != 0 ? clear : lookup(p)
                    }
                    out[i] = lastIndex
                }
            }
        case .ordered:
            for y in 0..<height {
                if y & 63 == 63 && RenderCancellation.shared.isCancelled { break }
                let by = ((originY + y) & 7) << 3
                for x in 0..<width {
                    let p = pixels[y * width + x]
                    if skipped(y * width + x) { continue }
                    let t = (Float(bayer[by | ((originX + x) & 7)]) + 0.5) / 64 - 0.5
                    let d = t * spread
                    out[y * width + x] = lookup(
                        pack(
                            Float(p & 0xFF) + d, Float((p >> 8) & 0xFF) + d,
                            Float((p >> 16) & 0xFF) + d))
                }
            }
        case .diffusion:
            // Floyd–Steinberg, left to right; error only flows into opaque (changed) pixels and
            // is damped (×7/8) and clamped so it cannot streak across flat areas.
            var errCur = [SIMD3<Float>](repeating: .zero, count: width + 2)
            var errNext = errCur
            for y in 0..<height {
                if y & 63 == 63 && RenderCancellation.shared.isCancelled { break }
                for x in 0..<width {
                    let p = pixels[y * width + x]
                    if skipped(y * width + x) { continue }
                    let src = SIMD3(
                        Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF))
                    var want = src + errCur[x + 1]
                    want = want.clamped(
                        lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
                    let j = lookup(pack(want.x, want.y, want.z))
                    out[y * width + x] = j
                    let c = palette[Int(j)]
                    let got = SIMD3(
                        Float(c & 0xFF), Float((c >> 8) & 0xFF), Float((c >> 16) & 0xFF))
                    var e = (want - got) * 0.875
                    e = e.clamped(
                        lowerBound: SIMD3(repeating: -32), upperBound: SIMD3(repeating: 32))
                    @inline(__always) func opaque(_ xx: Int, _ yy: Int) -> Bool {
                        xx >= 0 && xx < width && yy < height && !skipped(yy * width + xx)
                    }
                    if opaque(x + 1, y) { errCur[x + 2] += e * (7 / 16) }
                    if opaque(x - 1, y + 1) { errNext[x] += e * (3 / 16) }
                    if opaque(x, y + 1) { errNext[x + 1] += e * (5 / 16) }
                    if opaque(x + 1, y + 1) { errNext[x + 2] += e * (1 / 16) }
                }
                swap(&errCur, &errNext)
                for k in errNext.indices { errNext[k] = .zero }
            }
        }
        return out
    }
}
