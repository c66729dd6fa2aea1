#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// PNG filtering done by us rather than by libpng: for the APNG frames, whose image data
/// (fdAT) libpng cannot write. The per-row choice extends ``RowFilterChoice``'s Sub-or-Up
/// heuristic (same cost: the sum of |Int8(difference)|, libpng's own) to all five filters.
enum PNGRowFilters {
    /// PNG filter types as written before each row.
    static let none: UInt8 = 0, sub: UInt8 = 1, up: UInt8 = 2, average: UInt8 = 3, paeth: UInt8 = 4

    /// How the rows of an image are filtered.
    enum Strategy: Sendable, Equatable {
        /// Each row by the smallest sum of absolute signed bytes
        /// (``choose(_:_:count:bpp:firstRow:)``).
        case minimumSum
        /// Each row by the least entropy of its bytes (``LeastEntropyChoice``).
        case minimumEntropy
        /// Each row by the fewest bytes it adds to a fast deflate of the rows before it
        /// (``LeastDeflateChoice``).
        case leastDeflate
        /// That filter type on every row.
        case fixed(UInt8)
    }

    /// `rows` (height rows of `stride` bytes, `bpp` bytes a pixel) filtered as `strategy`
    /// says: each row preceded by its filter type. The result is what deflate compresses
    /// for IDAT/fdAT.
    static func filter(
        _ rows: UnsafeRawBufferPointer, stride: Int, height: Int, bpp: Int, strategy: Strategy
    ) throws(PNGError) -> [UInt8] {
        switch strategy {
        case .leastDeflate:
            return try LeastDeflateChoice.filter(rows, stride: stride, height: height, bpp: bpp)
        case .minimumSum:
            return filterRows(rows, stride: stride, height: height, bpp: bpp) {
                choose($0, $1, count: stride, bpp: bpp, firstRow: $2)
            }
        case .minimumEntropy:
            let chooser = LeastEntropyChoice(stride: stride, bpp: bpp)
            return filterRows(rows, stride: stride, height: height, bpp: bpp) {
                chooser.choose($0, $1, firstRow: $2)
            }
        case .fixed(let kind):
            return filterRows(rows, stride: stride, height: height, bpp: bpp) { _, _, _ in kind }
        }
    }

    /// `rows` filtered row by row, each row preceded by the filter type that `kind` picks
    /// for it (given the row, the row above and whether it is the first). Row 0 filters
    /// against a row of zeros (PNG's rule for the first row).
    private static func filterRows(
        _ rows: UnsafeRawBufferPointer, stride: Int, height: Int, bpp: Int,
        kind: (UnsafeRawPointer, UnsafeRawPointer, Bool) -> UInt8
    ) -> [UInt8] {
        let lineSize = stride + 1
        return [UInt8](unsafeUninitializedCapacity: lineSize * height) { out, initialized in
            guard let base = rows.baseAddress else { initialized = 0; return }
            let zeros = [UInt8](repeating: 0, count: stride)
            zeros.withUnsafeBytes { zeroRow in
                for y in 0..<height {
                    let row = base + y * stride
                    let above = y == 0 ? zeroRow.baseAddress! : base + (y - 1) * stride
                    let chosen = kind(row, above, y == 0)
                    let line = out.baseAddress! + y * lineSize
                    line[0] = chosen
                    apply(chosen, row, above, into: line + 1, count: stride, bpp: bpp)
                }
            }
            initialized = lineSize * height
        }
    }

    /// The filter whose output has the smallest sum of absolute signed bytes. A row equal
    /// to the one above takes Up (all zeros) without measuring.
    static func choose(
        _ row: UnsafeRawPointer, _ above: UnsafeRawPointer, count: Int, bpp: Int, firstRow: Bool
    ) -> UInt8 {
        if !firstRow && memcmp(row, above, count) == 0 { return up }
        let (upCost, subCost) = RowFilterChoice.costs(row, above, count: count, bpp: bpp)
        var best = firstRow ? sub : (upCost <= subCost ? up : sub)
        var bestCost = firstRow ? subCost : min(upCost, subCost)
        if bestCost == 0 { return best }
        let (noneCost, averageCost, paethCost) = otherCosts(
            row, above, count: count, bpp: bpp, firstRow: firstRow)
        if paethCost < bestCost { best = paeth; bestCost = paethCost }
        if averageCost < bestCost { best = average; bestCost = averageCost }
        if noneCost < bestCost { best = none }
        return best
    }

    /// Costs of None, Average and Paeth for one row (Average and Paeth skipped on the
    /// first row, where they equal Sub and nearly so).
    private static func otherCosts(
        _ row: UnsafeRawPointer, _ above: UnsafeRawPointer, count: Int, bpp: Int,
        firstRow: Bool
    ) -> (Int, Int, Int) {
        let r = row.assumingMemoryBound(to: UInt8.self),
            b = above.assumingMemoryBound(to: UInt8.self)
        var noneCost = 0, averageCost = 0, paethCost = 0
        @inline(__always) func cost(_ d: UInt8) -> Int { Int(min(d, 0 &- d)) }
        if firstRow {
            for i in 0..<count { noneCost += cost(r[i]) }
            return (noneCost, .max, .max)
        }
        for i in 0..<min(bpp, count) {
            noneCost += cost(r[i])
            averageCost += cost(r[i] &- b[i] >> 1)
            paethCost += cost(r[i] &- b[i])
        }
        var i = bpp
        while i < count {
            let c = r[i], left = r[i - bpp], up = b[i], upLeft = b[i - bpp]
            noneCost += cost(c)
            averageCost += cost(c &- UInt8((Int(left) + Int(up)) >> 1))
            paethCost += cost(c &- predictor(left, up, upLeft))
            i += 1
        }
        return (noneCost, averageCost, paethCost)
    }

    /// The Paeth predictor (PNG spec 9.4).
    @inline(__always)
    static func predictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Writes `row` filtered by `kind` (against `above`) into `out`.
    static func apply(
        _ kind: UInt8, _ row: UnsafeRawPointer, _ above: UnsafeRawPointer,
        into out: UnsafeMutablePointer<UInt8>,
        count: Int, bpp: Int
    ) {
        let r = row.assumingMemoryBound(to: UInt8.self),
            b = above.assumingMemoryBound(to: UInt8.self)
        let head = min(bpp, count)
        switch kind {
        case sub:
            for i in 0..<head { out[i] = r[i] }
            var i = bpp
            while i < count { out[i] = r[i] &- r[i - bpp]; i += 1 }
        case up:
            for i in 0..<count { out[i] = r[i] &- b[i] }
        case average:
            for i in 0..<head { out[i] = r[i] &- b[i] >> 1 }
            var i = bpp
            while i < count { out[i] = r[i] &- UInt8((Int(r[i - bpp]) + Int(b[i])) >> 1); i += 1 }
        case paeth:
            for i in 0..<head { out[i] = r[i] &- b[i] }
            var i = bpp
            while i < count { out[i] = r[i] &- predictor(r[i - bpp], b[i], b[i - bpp]); i += 1 }
        default:
            out.update(from: r, count: count)
        }
    }
}
