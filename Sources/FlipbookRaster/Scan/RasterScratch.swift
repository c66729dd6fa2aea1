/// Per-thread working memory of the rasterizer: cell records, row heads, a row of sums with
/// its bits and touched x's, spans and coverage bytes.
///
/// Why: a Lottie frame fills hundreds of small paths, and allocating six arrays per fill
/// (with Swift's uniqueness and bounds checks on every cell) cost more than the
/// coverage arithmetic. Each thread keeps one arena that only grows; buffers are raw and
/// uninitialised, and every user writes before it reads.
///
/// Rules:
/// - ``acquire()`` hands out the thread's arena, or a fresh one when the thread's arena
///   is already in use (a fill started while another is being swept on the same thread);
///   ``release()`` gives it back. The arena is never shared between threads.
/// - Buffers grow geometrically (``reserve``), keeping what they hold.
/// - The row of sums (``rowSums``) and of bits (``rowBits``) are all zeros between sweeps:
///   the sweep sets back every sum and bit it reads, and a grown row starts zeroed.
///
/// Its stored properties skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
/// every fill reads them, and with hundreds of tiny fills per frame the checks' runtime
/// calls were a few percent of a Lottie frame. That is safe because an arena belongs to
/// one thread and one fill at a time (``acquire()``), and no access to one property
/// overlaps another access to the same property.
final class RasterScratch {
    @exclusivity(unchecked) private(set) var cells: UnsafeMutablePointer<CoverageAccumulator.Cell>
    @exclusivity(unchecked) private(set) var cellCapacity: Int
    @exclusivity(unchecked) private(set) var rowHeads: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private(set) var rowCapacity: Int
    /// One row's sums by x (``CoverageAccumulator``'s sweep), `widthCapacity` long, zeros
    /// between sweeps.
    @exclusivity(unchecked) private(set) var rowSums: UnsafeMutablePointer<RowSum>
    /// One bit per x of the row of sums, set when its sum leaves zero (and kept should it
    /// return there): `(widthCapacity + 63) / 64` words, zeros between sweeps.
    @exclusivity(unchecked) private(set) var rowBits: UnsafeMutablePointer<UInt64>
    /// The x's a row's sweep touched, `widthCapacity` long.
    @exclusivity(unchecked) private(set) var rowXs: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private(set) var widthCapacity: Int
    @exclusivity(unchecked) private(set) var spans: UnsafeMutablePointer<Span>
    @exclusivity(unchecked) private(set) var clippedSpans: UnsafeMutablePointer<Span>
    @exclusivity(unchecked) private(set) var spanCapacity: Int
    @exclusivity(unchecked) private(set) var coverage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var coverageCapacity: Int
    @exclusivity(unchecked) private var inUse = false

    private init() {
        cellCapacity = 1024; rowCapacity = 256; widthCapacity = 256
        spanCapacity = 64
        coverageCapacity = 256
        cells = .allocate(capacity: cellCapacity)
        rowHeads = .allocate(capacity: rowCapacity)
        rowSums = .allocate(capacity: widthCapacity)
        rowSums.initialize(repeating: RowSum(), count: widthCapacity)
        rowXs = .allocate(capacity: widthCapacity)
        rowBits = Self.zeroedBits(for: widthCapacity)
        spans = .allocate(capacity: spanCapacity)
        clippedSpans = .allocate(capacity: spanCapacity)
        coverage = .allocate(capacity: coverageCapacity)
    }

    deinit {
        cells.deallocate(); rowHeads.deallocate(); rowSums.deallocate(); rowXs.deallocate()
        rowBits.deallocate()
        spans.deallocate(); clippedSpans.deallocate(); coverage.deallocate()
    }

    /// The calling thread's arena (or a private one if that is busy), marked in use.
    static func acquire() -> RasterScratch {
        var scratch = threadLocal.value
        if scratch.inUse { scratch = RasterScratch() }
        scratch.inUse = true
        return scratch
    }

    func release() { inUse = false }

    /// Grows the cell buffer to at least `count` records, keeping the first `used`.
    func reserveCells(_ count: Int, keeping used: Int) {
        Self.grow(&cells, &cellCapacity, to: count, keeping: used)
    }

    /// Makes room for `rows` row heads, and rows `width` wide.
    func reserve(rows: Int, width: Int) {
        if rows > rowCapacity {
            rowHeads.deallocate()
            rowCapacity = max(rows, rowCapacity * 2)
            rowHeads = .allocate(capacity: rowCapacity)
        }
        if width > widthCapacity {
            rowSums.deallocate(); rowXs.deallocate(); rowBits.deallocate()
            widthCapacity = max(width, widthCapacity * 2)
            rowSums = .allocate(capacity: widthCapacity)
            rowSums.initialize(repeating: RowSum(), count: widthCapacity)
            rowXs = .allocate(capacity: widthCapacity)
            rowBits = Self.zeroedBits(for: widthCapacity)
        }
        // A row has at most one span per cell plus one run between cells.
        if 2 * width + 2 > spanCapacity {
            spans.deallocate(); clippedSpans.deallocate()
            spanCapacity = max(2 * width + 2, spanCapacity * 2)
            spans = .allocate(capacity: spanCapacity)
            clippedSpans = .allocate(capacity: spanCapacity)
        }
        if width + 1 > coverageCapacity {
            coverage.deallocate()
            coverageCapacity = max(width + 1, coverageCapacity * 2)
            coverage = .allocate(capacity: coverageCapacity)
        }
    }

    /// A row of bits for `width` x's, all zero.
    private static func zeroedBits(for width: Int) -> UnsafeMutablePointer<UInt64> {
        let words = (width + 63) / 64
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        bits.initialize(repeating: 0, count: words)
        return bits
    }

    /// Reallocates `buffer` to at least `count` elements (at least doubling), moving the
    /// first `used` across.
    private static func grow<T>(
        _ buffer: inout UnsafeMutablePointer<T>, _ capacity: inout Int,
        to count: Int, keeping used: Int
    ) {
        guard count > capacity else { return }
        let newCapacity = max(count, capacity * 2)
        let grown = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: buffer, count: used)
        buffer.deallocate()
        buffer = grown
        capacity = newCapacity
    }

    private static let threadLocal = PerThread { RasterScratch() }
}
