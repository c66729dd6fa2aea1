/// The per-row filter choice by trial deflate (``PNGRowFilters/Strategy/leastDeflate``):
/// each row takes the filter under which it adds the fewest bytes to a fast deflate of the
/// rows just before it, zopflipng's "brute force" idea with a window of a few rows.
///
/// The sum and entropy rules judge a row alone; deflate codes a row by what came before it
/// (a row of a flat panel repeats the row above under any filter, but its bytes match the
/// previous rows only under the filter those rows took). Weighing each filter by what the
/// row costs after the ``window`` rows already chosen captures that, at five fast deflates
/// of (window + 1) rows per row. Measured on our own files' rows (each frame's chosen blend
/// refiltered, libdeflate 12 written), ranked beside the other strategies it took
/// card-signup's frame data 568,152 → 559,050 bytes and scenes/demo's 381,612 → 374,960.
enum LeastDeflateChoice {
    /// Rows before the one being chosen that each trial deflate includes.
    static let window = 6
    /// libdeflate's fastest level: the trials rank filters, they are not kept.
    static let trialLevel: Int32 = 1

    private static let allKinds: [UInt8] = [
        PNGRowFilters.none, PNGRowFilters.sub, PNGRowFilters.up, PNGRowFilters.average,
        PNGRowFilters.paeth,
    ]
    /// On the first row Up equals None and Paeth Sub (PNG filters it against zeros).
    private static let firstRowKinds: [UInt8] = [
        PNGRowFilters.none, PNGRowFilters.sub, PNGRowFilters.average,
    ]

    /// `rows` (height rows of `stride` bytes) filtered with each row's least-deflate filter,
    /// each preceded by its filter type; ties go to the earlier of None, Sub, Up, Average,
    /// Paeth.
    static func filter(
        _ rows: UnsafeRawBufferPointer, stride: Int, height: Int, bpp: Int
    ) throws(PNGError) -> [UInt8] {
        let lineSize = stride + 1
        guard let base = rows.baseAddress, height > 0 else { return [] }
        let deflate = try LibDeflate(level: trialLevel)
        let capacity = deflate.deflateBound((window + 1) * lineSize)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { scratch.deallocate() }
        let zeros = [UInt8](repeating: 0, count: stride)
        return [UInt8](unsafeUninitializedCapacity: lineSize * height) { out, initialized in
            let start = UnsafeMutableRawPointer(out.baseAddress!)
            zeros.withUnsafeBytes { zeroRow in
                for y in 0..<height {
                    let row = base + y * stride
                    let above = y == 0 ? zeroRow.baseAddress! : base + (y - 1) * stride
                    let line = start + y * lineSize
                    let first = max(0, y - window)
                    let trial = start + first * lineSize
                    let trialCount = (y + 1 - first) * lineSize
                    var best = PNGRowFilters.none, bestSize = Int.max
                    // Each candidate is written in place, after the rows chosen so far,
                    // and deflated with them; the winner is written again at the end.
                    for kind in y == 0 ? firstRowKinds : allKinds {
                        line.storeBytes(of: kind, as: UInt8.self)
                        PNGRowFilters.apply(
                            kind, row, above,
                            into: (line + 1).assumingMemoryBound(to: UInt8.self),
                            count: stride, bpp: bpp)
                        let size = deflate.deflatedSize(
                            trial, count: trialCount, scratch: scratch, capacity: capacity)
                        if size < bestSize { bestSize = size; best = kind }
                    }
                    line.storeBytes(of: best, as: UInt8.self)
                    PNGRowFilters.apply(
                        best, row, above, into: (line + 1).assumingMemoryBound(to: UInt8.self),
                        count: stride, bpp: bpp)
                }
            }
            initialized = lineSize * height
        }
    }
}
