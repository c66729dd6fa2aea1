import Foundation

/// The per-row filter choice by least entropy: each row takes the filter whose output bytes
/// have the smallest Shannon entropy (for a row of n bytes whose values occur c times each,
/// n·H = n·log₂n − Σ c·log₂c), the heuristic zopflipng calls "entropy".
///
/// The sum-of-absolute-differences rule (``PNGRowFilters/choose(_:_:count:bpp:firstRow:)``)
/// prefers small residuals; deflate's Huffman codes care about how few distinct values there
/// are. On UI frames whose changed region holds gradients, shadows and anti-aliased art over
/// flat colour, the least-entropy rows deflate smaller. Ranked beside the APNG writer's other
/// candidates it took scenes/demo's APNG from 399,802 to 388,261 bytes, the lolo_walk Lottie
/// at 256×256 from 312,145 to 310,657, and the gradient scenes of
/// scenes/bench by about 2 % (long-gradients 2,757,679 → 2,702,312); on flat UI it rarely
/// wins and changes nothing.
extension PNGRowFilters {
    /// `rows` filtered row by row by least entropy, each row preceded by its filter type.
    static func filterByEntropy(
        _ rows: UnsafeRawBufferPointer, stride: Int, height: Int, bpp: Int
    ) -> [UInt8] {
        let lineSize = stride + 1
        // c·log₂c for every count a row can hold.
        let weights = (0...stride).map { c in c < 2 ? 0 : Double(c) * log2(Double(c)) }
        var scratch = [UInt8](repeating: 0, count: stride)
        var counts = [Int32](repeating: 0, count: 256)
        let zeros = [UInt8](repeating: 0, count: stride)
        return [UInt8](unsafeUninitializedCapacity: lineSize * height) { out, initialized in
            guard let base = rows.baseAddress else { initialized = 0; return }
            zeros.withUnsafeBytes { zeroRow in
                scratch.withUnsafeMutableBufferPointer { s in
                    counts.withUnsafeMutableBufferPointer { histogram in
                        weights.withUnsafeBufferPointer { w in
                            for y in 0..<height {
                                let row = base + y * stride
                                let above = y == 0 ? zeroRow.baseAddress! : base + (y - 1) * stride
                                // No shortcut to Up for a row equal to the one above (the
                                // least-sum rule has one): when the row is flat, None also
                                // gives a single value, the tie goes to None, and that
                                // deflated smaller beside the other None rows (scenes/demo
                                // 395,976 bytes with the shortcut, 388,261 without).
                                let kind = leastEntropy(
                                    row, above, count: stride, bpp: bpp, firstRow: y == 0,
                                    scratch: s.baseAddress!, histogram: histogram, weights: w)
                                let line = out.baseAddress! + y * lineSize
                                line[0] = kind
                                apply(kind, row, above, into: line + 1, count: stride, bpp: bpp)
                            }
                        }
                    }
                }
            }
            initialized = lineSize * height
        }
    }

    private static let allKinds: [UInt8] = [none, sub, up, average, paeth]
    private static let firstRowKinds: [UInt8] = [none, sub, average]

    /// The filter of least entropy for one row; ties go to the earlier of None, Sub, Up,
    /// Average, Paeth. On the first row Up equals None and Paeth Sub, so they are skipped.
    private static func leastEntropy(
        _ row: UnsafeRawPointer, _ above: UnsafeRawPointer, count: Int, bpp: Int,
        firstRow: Bool, scratch: UnsafeMutablePointer<UInt8>,
        histogram: UnsafeMutableBufferPointer<Int32>, weights: UnsafeBufferPointer<Double>
    ) -> UInt8 {
        var best = none
        // Maximising Σ c·log₂c minimises the entropy (n is the same for every filter).
        var bestScore = -Double.infinity
        for kind in firstRow ? firstRowKinds : allKinds {
            apply(kind, row, above, into: scratch, count: count, bpp: bpp)
            histogram.update(repeating: 0)
            for i in 0..<count { histogram[Int(scratch[i])] &+= 1 }
            var score = 0.0
            for c in histogram where c > 1 { score += weights[Int(c)] }
            if score > bestScore { bestScore = score; best = kind }
        }
        return best
    }
}
