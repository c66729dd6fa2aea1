import FlipbookGeometry

/// An 8-bit coverage mask on a pixmap's pixel grid: clip paths, layer masks, group alpha.
///
/// Rules:
/// - 0 is "nothing passes", 255 "everything passes"; combining masks multiplies
///   coverages with exact rounding (div255).
/// - `bounds` is always the tight box of the non-zero pixels, so every user can skip the
///   rest of the grid.
public struct Mask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width * height` bytes. Any change clears ``openRuns``.
    public internal(set) var data: [UInt8] { didSet { openRuns = [] } }
    /// Tight box of the non-zero coverage (empty when there is none).
    public internal(set) var bounds: PixelBounds
    /// Per row, a run of pixels that are all exactly 255 (the clip passes everything
    /// there): row y's run is `openRuns[2y] ..< openRuns[2y + 1]` (empty when x0 ≥ x1).
    /// Empty when none is known. Recorded while a path is rasterized into the mask, so
    /// that ``ClipPainter`` hands rows inside it on untouched and fills lying wholly in
    /// the open part skip the clip (a precomposition's bounds, turned or not).
    public internal(set) var openRuns: [Int32] = []

    /// Equal coverage (``openRuns`` is a derived hint, not compared).
    public static func == (a: Mask, b: Mask) -> Bool {
        a.width == b.width && a.height == b.height && a.bounds == b.bounds && a.data == b.data
    }

    /// An all-zero mask.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative mask size")
        self.width = width
        self.height = height
        data = [UInt8](repeating: 0, count: width * height)
        bounds = .empty
    }

    /// The coverage of `path` mapped through `transform`, anti-aliased.
    public static func path(
        _ path: Path, transform: AffineTransform, rule: FillRule,
        width: Int, height: Int
    ) -> Mask {
        var mask = Mask(width: width, height: height)
        let box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        guard let area = Rasterizer.deviceBounds(of: path, transform: transform, within: box) else {
            return mask
        }
        var runs = [Int32](repeating: 0, count: 2 * height)
        var painter = MaskPainter(width: width)
        mask.data.withUnsafeMutableBufferPointer { buf in
            runs.withUnsafeMutableBufferPointer { r in
                painter.data = buf.baseAddress!
                painter.runs = r.baseAddress!
                Rasterizer.rasterize(
                    path, transform: transform, rule: rule, area: area,
                    clip: nil, painter: &painter)
            }
        }
        mask.bounds = painter.written
        if painter.foundRun { mask.openRuns = runs }
        return mask
    }

    /// Whether every pixel of row `y` from `x0` up to `x1` is known to be 255.
    @inline(__always)
    public func isOpen(row y: Int, from x0: Int, to x1: Int) -> Bool {
        guard !openRuns.isEmpty, y >= 0, y < height else { return false }
        return openRuns.withUnsafeBufferPointer { r in
            Int(r[2 * y]) <= x0 && x1 <= Int(r[2 * y + 1])
        }
    }

    /// Whether every pixel of `box` is known to be 255: a fill inside it needs no clip.
    public func isOpen(_ box: PixelBounds) -> Bool {
        guard !openRuns.isEmpty, !box.isEmpty, box.y0 >= 0, box.y1 <= height else { return false }
        return openRuns.withUnsafeBufferPointer { r in
            for y in box.y0..<box.y1 where Int(r[2 * y]) > box.x0 || Int(r[2 * y + 1]) < box.x1 {
                return false
            }
            return true
        }
    }

    /// The alpha channel of a pixmap.
    public init(alphaOf pixmap: Pixmap) {
        self.init(width: pixmap.width, height: pixmap.height)
        let w = width, h = height
        var box = BoxBuilder()
        pixmap.data.withUnsafeBufferPointer { src in
            data.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                for y in 0..<h {
                    // The row is copied with its bytes OR-ed together, so that an empty
                    // row, the common case around a matte, costs no scan; eight pixels
                    // at a time (a byte loop with a stride of four does not vectorize).
                    let row = y * w
                    var any: UInt8 = 0
                    let source = UnsafeRawPointer(s + 4 * row)
                    let target = UnsafeMutableRawPointer(d + row)
                    var x = 0
                    var anyWide = SIMD8<UInt8>.zero
                    while x + 8 <= w {
                        let pixels = source.loadUnaligned(
                            fromByteOffset: 4 * x, as: SIMD8<UInt32>.self)
                        let alpha = SIMD8<UInt8>(truncatingIfNeeded: pixels &>> 24)
                        target.storeBytes(of: alpha, toByteOffset: x, as: SIMD8<UInt8>.self)
                        anyWide |= alpha
                        x += 8
                    }
                    if anyWide != .zero { any = 1 }
                    while x < w {
                        let a = s[4 * (row + x) + 3]
                        d[row + x] = a
                        any |= a
                        x += 1
                    }
                    if any != 0, let run = Mask.extent(of: d + row, from: 0, to: w) {
                        box.add(row: y, run)
                    }
                }
            }
        }
        bounds = box.bounds
    }

    /// Multiplies this mask by `other` (same size) pixel by pixel.
    public mutating func intersect(_ other: Mask) {
        precondition(other.width == width && other.height == height, "mask sizes differ")
        let keep = bounds.intersection(other.bounds)
        let w = width
        let old = bounds
        // 255 · 255 / 255 = 255: where both rows are open, the product is.
        var open: [Int32] = []
        if !openRuns.isEmpty, !other.openRuns.isEmpty {
            open = openRuns
            for i in stride(from: 0, to: open.count, by: 2) {
                open[i] = max(open[i], other.openRuns[i])
                open[i + 1] = min(open[i + 1], other.openRuns[i + 1])
            }
        }
        data.withUnsafeMutableBufferPointer { dst in
            other.data.withUnsafeBufferPointer { src in
                for y in old.y0..<old.y1 {
                    let row = y * w
                    if y < keep.y0 || y >= keep.y1 {
                        for x in old.x0..<old.x1 { dst[row + x] = 0 }
                        continue
                    }
                    for x in old.x0..<old.x1 {
                        if x < keep.x0 || x >= keep.x1 {
                            dst[row + x] = 0
                        } else {
                            let v = UInt32(dst[row + x]) * UInt32(src[row + x])
                            dst[row + x] = UInt8(Compositing.div255(v))
                        }
                    }
                }
            }
        }
        bounds = tightBounds(within: keep)
        openRuns = open
    }

    /// Multiplies every coverage by `factor` (clamped to 0…1).
    public mutating func scale(by factor: Double) {
        let f = factor.isNaN ? 0 : min(max(factor, 0), 1)
        if f >= 1 { return }
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8((Double(v) * f).rounded()) }
        let b = bounds, w = width
        data.withUnsafeMutableBufferPointer { dst in
            for y in b.y0..<b.y1 {
                for x in b.x0..<b.x1 { dst[y * w + x] = table[Int(dst[y * w + x])] }
            }
        }
        bounds = tightBounds(within: b)
    }

    /// Hardens a blurred edge: every coverage divided by 1 − `fraction` (clamped to 255),
    /// so the outer `fraction` of the falloff becomes solid; at 1 any coverage is full.
    /// A layer style's spread (choke) applied to its blurred shadow matte.
    public mutating func spread(_ fraction: Double) {
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        guard f > 0 else { return }
        var table = [UInt8](repeating: 255, count: 256)
        table[0] = 0
        if f < 1 {
            for v in 1..<256 { table[v] = UInt8(min(Double(v) / (1 - f), 255).rounded()) }
        }
        let b = bounds, w = width
        data.withUnsafeMutableBufferPointer { dst in
            for y in b.y0..<b.y1 {
                for x in b.x0..<b.x1 { dst[y * w + x] = table[Int(dst[y * w + x])] }
            }
        }
    }

    /// Coverage at a pixel; 0 outside the mask.
    public func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return data[y * width + x]
    }

    func tightBounds(within box: PixelBounds) -> PixelBounds {
        guard !box.isEmpty else { return .empty }
        var result = BoxBuilder()
        data.withUnsafeBufferPointer { d in
            guard let base = d.baseAddress else { return }
            for y in box.y0..<box.y1 {
                if let run = Mask.extent(of: base + y * width, from: box.x0, to: box.x1) {
                    result.add(row: y, run)
                }
            }
        }
        return result.bounds
    }

    /// The first and one past the last non-zero byte of `row[x0 ..< x1]`, nil when all are
    /// zero. Zero bytes are skipped eight at a time (a mask is mostly empty or full).
    @inline(__always)
    static func extent(of row: UnsafePointer<UInt8>, from x0: Int, to x1: Int) -> (Int, Int)? {
        let raw = UnsafeRawPointer(row)
        var x = x0
        while x + 8 <= x1 && raw.loadUnaligned(fromByteOffset: x, as: UInt64.self) == 0 { x += 8 }
        while x < x1 && row[x] == 0 { x += 1 }
        if x == x1 { return nil }
        var end = x1
        while end - 8 >= x && raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) == 0 {
            end -= 8
        }
        while row[end - 1] == 0 { end -= 1 }
        return (x, end)
    }
}

/// The union of per-row runs, kept as four numbers rather than a box per row: the same
/// box ``PixelBounds/union(_:)`` of the rows' boxes gives.
struct BoxBuilder {
    private var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min

    @inline(__always)
    mutating func add(row y: Int, _ run: (Int, Int)) {
        x0 = min(x0, run.0); x1 = max(x1, run.1)
        y0 = min(y0, y); y1 = max(y1, y + 1)
    }

    var bounds: PixelBounds {
        x0 < x1 && y0 < y1 ? PixelBounds(x0: x0, y0: y0, x1: x1, y1: y1) : .empty
    }
}
