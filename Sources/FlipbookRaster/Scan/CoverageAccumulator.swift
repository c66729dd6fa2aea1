import FlipbookGeometry

/// The scanline rasterizer: exact area coverage from signed area and cover accumulated
/// per pixel cell, in the manner of FreeType's "gray" rasterizer.
///
/// Algorithm and rules:
/// - Every flattened edge is walked row by row and, inside a row, cell by cell. For the
///   piece of edge inside a cell with vertical extent `dy` (signed, +down) and horizontal
///   extent [u0, u1] (cell-local 0…1) the cell gets `cover += dy` and
///   `area += dy · (1 − (u0 + u1)/2)`: `area` is the signed part of this pixel to the
///   edge's right, `cover` is what the edge adds to every pixel further right.
/// - Cells live sparsely: an array of (x, cover, area) records, each row's linked newest
///   first (a new cell is pushed at its row's head). The sweep adds a row's cells, in that
///   order, into a dense row of sums by x (so among cells at one x the newest comes first:
///   the order every sum has always been taken in), then reads the touched x's in
///   increasing order from a row of bits set as sums left zero (see
///   ``sweep(rule:painter:)``). It keeps the running winding `acc` (sum of covers to the
///   left); a cell pixel's fractional winding is `acc + area`, and the pixels between two
///   cells all share the winding `acc`, so they form one constant-coverage span.
/// - The fill rule is applied to that accumulated fractional winding w: non-zero gives
///   min(|w|, 1), even-odd folds |w| mod 2 (a value above 1 becomes 2 − value). This is
///   exact for non-overlapping edges and correct inside self-overlapping paths.
/// - Work is bounded to a clip box [x0, x1) × [y0, y1): edges are clipped vertically,
///   parts right of the box are dropped, parts left of it are clamped onto its left side
///   (which keeps the winding of every visible pixel).
/// - Output: per row a list of spans, constant coverage or per-pixel coverage in a
///   scratch row, handed to a ``SpanPainter`` (a clip mask is one: ``ClipPainter``).

struct CoverageAccumulator: FlattenSink {
    struct Cell {
        var x: Int32
        var next: Int32
        var cover: Float
        var area: Float
    }

    let x0: Int, y0: Int, x1: Int, y1: Int
    /// The thread's working memory (``RasterScratch``); cells and row heads live there.
    private let scratch: RasterScratch
    private var cells: UnsafeMutablePointer<Cell>
    private var cellCapacity: Int
    private var cellCount = 0
    private let rowHeads: UnsafeMutablePointer<Int32>
    private var lastCell = -1
    private var lastX = Int.min, lastY = Int.min
    private var minRow = Int.max, maxRow = Int.min
    private var contourStart = Point.zero
    private var current = Point.zero

    /// Works in `scratch` (acquired by the caller, who releases it after the sweep).
    init(x0: Int, y0: Int, x1: Int, y1: Int, scratch: RasterScratch) {
        let limit = Self.coordinateLimit
        precondition(
            abs(x0) <= limit && abs(y0) <= limit && abs(x1) <= limit && abs(y1) <= limit,
            "work box beyond the rasterizer's coordinate range")
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        self.scratch = scratch
        let rows = max(0, y1 - y0)
        scratch.reserve(rows: rows, width: max(0, x1 - x0))
        scratch.reserveCells(4 * rows + 64, keeping: 0)
        rowHeads = scratch.rowHeads
        rowHeads.update(repeating: -1, count: rows)
        cells = scratch.cells
        cellCapacity = scratch.cellCapacity
    }

    var cullBox: CullBox {
        CullBox(minX: Double(x0), minY: Double(y0), maxX: Double(x1), maxY: Double(y1))
    }

    // MARK: FlattenSink (contours are always closed for filling)

    mutating func beginContour(at p: Point) { contourStart = p; current = p }
    mutating func lineTo(_ p: Point) { addLine(current, p); current = p }
    mutating func endContour(closed: Bool) {
        addLine(current, contourStart); current = contourStart
    }

    // MARK: Edges

    /// Adds one edge, clipped to the box as described in the file comment.
    mutating func addLine(_ a: Point, _ b: Point) {
        var (ax, ay, bx, by) = (a.x, a.y, b.x, b.y)
        guard ay != by, ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite else { return }
        let top = Double(y0), bottom = Double(y1)
        if (ay <= top && by <= top) || (ay >= bottom && by >= bottom) { return }
        if ay < top {
            ax += (bx - ax) * (top - ay) / (by - ay); ay = top
        } else if ay > bottom {
            ax += (bx - ax) * (bottom - ay) / (by - ay); ay = bottom
        }
        if by < top {
            bx = ax + (bx - ax) * (top - ay) / (by - ay); by = top
        } else if by > bottom {
            bx = ax + (bx - ax) * (bottom - ay) / (by - ay); by = bottom
        }
        guard ay != by else { return }

        let left = Double(x0), right = Double(x1)
        if ax >= right && bx >= right { return }
        if ax <= left && bx <= left { walk(left, ay, left, by); return }
        if ax >= left && bx >= left && ax <= right && bx <= right { walk(ax, ay, bx, by); return }
        // Split where the edge crosses the box's left and right sides (at most three
        // pieces), then clamp or drop each piece by the side it lies on.
        var t1 = 2.0, t2 = 2.0
        if (ax < left) != (bx < left) { t1 = (left - ax) / (bx - ax) }
        if (ax > right) != (bx > right) { t2 = (right - ax) / (bx - ax) }
        if t2 < t1 { swap(&t1, &t2) }
        var ts0 = 0.0
        for piece in 0..<3 {
            let tEnd = piece == 0 ? t1 : piece == 1 ? t2 : 1.0
            guard tEnd <= 1 && tEnd > ts0 else { continue }
            let pxa = ax + (bx - ax) * ts0, pya = ay + (by - ay) * ts0
            let pxb = ax + (bx - ax) * tEnd, pyb = ay + (by - ay) * tEnd
            let mid = (pxa + pxb) / 2
            if mid < left {
                walk(left, pya, left, pyb)
            } else if mid <= right {
                walk(min(max(pxa, left), right), pya, min(max(pxb, left), right), pyb)
            }
            ts0 = tEnd
        }
    }

    /// Walks an edge already inside the box row by row.
    private mutating func walk(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double) {
        if ya == yb { return }
        let sign: Double = yb > ya ? 1 : -1
        let (sx, sy, ex, ey) = yb > ya ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        let firstRow = Self.floorToInt(sy)
        if ey <= Double(firstRow + 1) {
            // Inside one row (most chords of a flattened curve): the loop below would
            // make exactly this one call, without needing the slope.
            if firstRow < y1 { addRowPiece(firstRow, sx, ex, (ey - sy) * sign) }
            return
        }
        let dxdy = (ex - sx) / (ey - sy)
        let (lo, hi) = (min(sx, ex), max(sx, ex))
        var y = sy, x = sx
        var row = Self.floorToInt(y)
        while y < ey && row < y1 {
            let rowEnd = min(Double(row + 1), ey)
            // Clamped to the edge's x range: dxdy may overflow for edges of denormal height.
            let nx = rowEnd == ey ? ex : min(max(sx + dxdy * (rowEnd - sy), lo), hi)
            addRowPiece(row, x, nx, (rowEnd - y) * sign)
            y = rowEnd; x = nx; row += 1
        }
    }

    /// One edge piece inside a single row, spanning x from `xa` to `xb`.
    private mutating func addRowPiece(_ row: Int, _ xa: Double, _ xb: Double, _ dy: Double) {
        // What addCell would check for every cell, once for the piece: all its cells share
        // the row, and none lies left of the first.
        if row < y0 || row >= y1 { return }
        let (xl, xr) = xa < xb ? (xa, xb) : (xb, xa)
        let cl = Self.floorToInt(xl), cr = Self.floorToInt(xr)
        if cl >= x1 { return }
        if row < minRow { minRow = row }
        if row > maxRow { maxRow = row }
        if cl == cr {
            addCell(cl, row, area: dy * (Double(cl + 1) - (xl + xr) / 2), cover: dy)
            return
        }
        let slope = dy / (xr - xl)
        let firstWidth = Double(cl + 1) - xl
        let d0 = firstWidth * slope
        addCell(cl, row, area: d0 * firstWidth / 2, cover: d0)
        let lastFull = min(cr - 1, x1 - 1)
        if cl + 1 <= lastFull {
            if cl >= x0 {
                addFullCells(cl + 1, through: lastFull, row, area: slope / 2, cover: slope)
            } else {
                for cx in (cl + 1)...lastFull { addCell(cx, row, area: slope / 2, cover: slope) }
            }
        }
        let lastWidth = xr - Double(cr)
        if lastWidth > 0 {
            let d = lastWidth * slope
            addCell(cr, row, area: d * (1 - lastWidth / 2), cover: d)
        }
    }

    /// The cells `first...last` of `row` that an edge crosses whole, right after the
    /// piece's first cell (`lastCell`, at x = first − 1): what ``addCell`` would do for
    /// each in turn, without its checks. Every x is new (none equals the previous).
    private mutating func addFullCells(
        _ first: Int, through last: Int, _ row: Int, area: Double, cover: Double
    ) {
        let count = last - first + 1
        if cellCount + count > cellCapacity {
            scratch.reserveCells(cellCount + count, keeping: cellCount)
            cells = scratch.cells; cellCapacity = scratch.cellCapacity
        }
        let (a, c) = (Float(area), Float(cover))
        let r = row - y0
        for x in first...last {
            (cells + cellCount).initialize(to: Cell(x: Int32(x), next: -1, cover: c, area: a))
            link(cellCount, row: r)
            cellCount += 1
        }
        lastCell = cellCount - 1
        lastX = last; lastY = row
    }

    /// The box's sides as the walk's coordinates may reach them: within ±2³⁰, so that
    /// ``floorToInt(_:)`` is exact on every value it is given (the rasterizer's work areas
    /// lie within ±10⁹, see ``Rasterizer/deviceBounds(of:transform:within:)``).
    static let coordinateLimit = 1 << 30

    /// `Int(v.rounded(.down))` for |v| < 2³¹, without a call into libm's `floor` (the
    /// baseline x86-64 target has no rounding instruction) and without the range checks of
    /// `Int(v)` (a third of a row piece's time): adding 1.5 · 2⁵² rounds v to the nearest
    /// integer in the sum's low mantissa bits, read back as an Int32; one lower when that
    /// rounded up. Every value the walk floors lies inside the box (see ``coordinateLimit``).
    @inline(__always)
    static func floorToInt(_ v: Double) -> Int {
        let nearest = Int32(truncatingIfNeeded: (v + 6_755_399_441_055_744.0).bitPattern)
        return Int(Double(nearest) > v ? nearest &- 1 : nearest)
    }

    @inline(__always)
    private mutating func addCell(_ xIn: Int, _ y: Int, area: Double, cover: Double) {
        // The row lies in [y0, y1) (``addRowPiece`` checked it and counted it in
        // minRow...maxRow).
        if xIn >= x1 { return }
        let x = max(xIn, x0)
        if x == lastX && y == lastY {
            cells[lastCell].area += Float(area)
            cells[lastCell].cover += Float(cover)
            return
        }
        let r = y - y0
        if cellCount == cellCapacity {
            scratch.reserveCells(cellCount + 1, keeping: cellCount)
            cells = scratch.cells; cellCapacity = scratch.cellCapacity
        }
        (cells + cellCount).initialize(
            to: Cell(x: Int32(x), next: -1, cover: Float(cover), area: Float(area)))
        link(cellCount, row: r)
        lastCell = cellCount
        cellCount += 1
        lastX = x; lastY = y
    }

    /// Puts the new cell `k` at the head of row `r`'s list (row `r` counted from `y0`):
    /// a row's list runs newest first.
    @inline(__always)
    private mutating func link(_ k: Int, row r: Int) {
        cells[k].next = rowHeads[r]
        rowHeads[r] = Int32(k)
    }

    // MARK: Sweep

    @inline(__always)
    static func coverage(_ winding: Float, _ rule: FillRule) -> Int {
        var w = abs(winding)
        switch rule {
        case .nonZero:
            if w > 1 { w = 1 }
        case .evenOdd:
            if w >= 2 { w -= 2 * (w / 2).rounded(.down) }
            if w > 1 { w = 2 - w }
        }
        return Int(w * 255 + 0.5)
    }

    /// Sweeps all touched rows, handing spans to `painter`.
    ///
    /// Each row's cells are added into the scratch's row of sums, newest first; an x whose
    /// sum leaves zero sets its bit in the scratch's row of bits. The set bits are then read
    /// word by word in increasing x (a step per 64 pixels of the row's range plus one per
    /// touched x, where sorting the x's cost a few steps per x and scanning the sums one per
    /// pixel), and every bit and sum is set back to zero as it is read, so both rows are all
    /// zeros again for the next row and the next fill. A sum that returns to exactly zero
    /// keeps its bit: its pixel is then a cell pixel of the coverage the run around it has.
    mutating func sweep<P: SpanPainter>(rule: FillRule, painter: inout P) {
        guard minRow <= maxRow else { return }
        let spans = scratch.spans
        let cov = scratch.coverage
        let sums = scratch.rowSums
        let bits = scratch.rowBits
        let xs = scratch.rowXs
        for y in minRow...maxRow {
            // A stop request (Ctrl-C) is polled every 64 rows; the fill is then left
            // incomplete, and the frame it belongs to is discarded.
            if (y - minRow) & 63 == 63 && RenderCancellation.shared.isCancelled { return }
            var idx = Int(rowHeads[y - y0])
            if idx < 0 { continue }
            var lo = Int.max, hi = Int.min
            while idx >= 0 {
                let cell = cells[idx]
                let i = Int(cell.x) - x0
                if sums[i].isZero { bits[i &>> 6] |= 1 &<< UInt64(i & 63) }
                sums[i].area += cell.area
                sums[i].cover += cell.cover
                if i < lo { lo = i }
                if i > hi { hi = i }
                idx = Int(cell.next)
            }
            var n = 0
            for w in (lo &>> 6)...(hi &>> 6) {
                var word = bits[w]
                if word == 0 { continue }
                bits[w] = 0
                let base = Int32(truncatingIfNeeded: w &<< 6)
                repeat {
                    xs[n] = base &+ Int32(truncatingIfNeeded: word.trailingZeroBitCount)
                    n &+= 1
                    word &= word &- 1
                } while word != 0
            }
            var spanCount = 0
            var acc: Float = 0
            // Where the last span ends when it is a per-pixel one (a cell pixel right there
            // extends it), else Int.min: kept here rather than read back from the spans.
            var openEnd = Int.min
            for k in 0..<n {
                let i = Int(xs[k])
                let x = i + x0
                let area = sums[i].area, cover = sums[i].cover
                sums[i] = RowSum()
                let c = Self.coverage(acc + area, rule)
                if c > 0 {
                    cov[i] = UInt8(c)
                    if openEnd == x {
                        spans[spanCount - 1].count += 1
                    } else {
                        spans[spanCount] = Span(x: x, count: 1, coverage: -1)
                        spanCount += 1
                    }
                    openEnd = x + 1
                }
                acc += cover
                let nextX = k + 1 < n ? Int(xs[k + 1]) + x0 : x1
                if nextX > x + 1 {
                    let runCoverage = Self.coverage(acc, rule)
                    if runCoverage > 0 {
                        spans[spanCount] = Span(
                            x: x + 1, count: nextX - x - 1, coverage: runCoverage)
                        spanCount += 1
                        openEnd = Int.min
                    }
                }
            }
            if spanCount == 0 { continue }
            painter.paintRow(
                y: y, spans: UnsafeBufferPointer(start: spans, count: spanCount),
                coverage: cov, originX: x0)
        }
    }

    // MARK: Inspection (tests)

    /// Row `y`'s cells (indices in creation order), in the order its list holds them.
    func rowList(_ y: Int) -> [Int] {
        var result: [Int] = []
        var idx = Int(rowHeads[y - y0])
        while idx >= 0 {
            result.append(idx)
            idx = Int(cells[idx].next)
        }
        return result
    }

    /// The cell created `index`-th, and how many there are.
    func cell(_ index: Int) -> Cell { cells[index] }
    var count: Int { cellCount }
}

/// One pixel's sums in the sweep's row (``CoverageAccumulator/sweep(rule:painter:)``).
struct RowSum {
    var area: Float = 0
    var cover: Float = 0

    /// Both sums are +0 (what an untouched sum holds).
    @inline(__always)
    var isZero: Bool { area.bitPattern | cover.bitPattern == 0 }
}
