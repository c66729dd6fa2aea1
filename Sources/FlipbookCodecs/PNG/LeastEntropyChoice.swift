import Foundation

/// The per-row filter choice by least entropy (``PNGRowFilters/Strategy/minimumEntropy``):
/// each row takes the filter whose output bytes have the smallest Shannon entropy (for a
/// row of n bytes whose values occur c times each, n·H = n·log₂n − Σ c·log₂c), the
/// heuristic zopflipng calls "entropy".
///
/// The sum-of-absolute-differences rule (``PNGRowFilters/choose(_:_:count:bpp:firstRow:)``)
/// prefers small residuals; deflate's Huffman codes care about how few distinct values there
/// are. On UI frames whose changed region holds gradients, shadows and anti-aliased art over
/// flat colour, the least-entropy rows deflate smaller. Ranked beside the APNG writer's other
/// candidates it took scenes/demo's APNG from 399,802 to 388,261 bytes, the lolo_walk Lottie
/// at 256×256 from 312,145 to 310,657, and the gradient scenes of
/// scenes/bench by about 2 % (long-gradients 2,757,679 → 2,702,312); on flat UI it rarely
/// wins and changes nothing.
final class LeastEntropyChoice {
    private let stride: Int, bpp: Int
    /// c·log₂c for every count a row can hold.
    private let weights: UnsafeMutableBufferPointer<Double>
    /// One row filtered by the filter being measured.
    private let scratch: UnsafeMutablePointer<UInt8>
    private let histogram: UnsafeMutableBufferPointer<Int32>

    init(stride: Int, bpp: Int) {
        self.stride = stride
        self.bpp = bpp
        weights = .allocate(capacity: stride + 1)
        for c in 0...stride { weights[c] = c < 2 ? 0 : Double(c) * log2(Double(c)) }
        scratch = .allocate(capacity: max(1, stride))
        histogram = .allocate(capacity: 256)
    }

    deinit {
        weights.deallocate()
        scratch.deallocate()
        histogram.deallocate()
    }

    private static let allKinds: [UInt8] = [
        PNGRowFilters.none, PNGRowFilters.sub, PNGRowFilters.up, PNGRowFilters.average,
        PNGRowFilters.paeth,
    ]
    private static let firstRowKinds: [UInt8] = [
        PNGRowFilters.none, PNGRowFilters.sub, PNGRowFilters.average,
    ]

    /// The filter of least entropy for `row`; ties go to the earlier of None, Sub, Up,
    /// Average, Paeth. On the first row Up equals None and Paeth Sub, so they are skipped.
    /// There is no shortcut to Up for a row equal to the one above (the least-sum rule has
    /// one): when the row is flat, None also gives a single value, the tie goes to None, and
    /// that deflated smaller beside the other None rows (scenes/demo 395,976 bytes with the
    /// shortcut, 388,261 without).
    func choose(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, firstRow: Bool) -> UInt8 {
        var best = PNGRowFilters.none
        // Maximising Σ c·log₂c minimises the entropy (n is the same for every filter).
        var bestScore = -Double.infinity
        for kind in firstRow ? Self.firstRowKinds : Self.allKinds {
            PNGRowFilters.apply(kind, row, above, into: scratch, count: stride, bpp: bpp)
            histogram.update(repeating: 0)
            for i in 0..<stride { histogram[Int(scratch[i])] &+= 1 }
            var score = 0.0
            for c in histogram where c > 1 { score += weights[Int(c)] }
            if score > bestScore { bestScore = score; best = kind }
        }
        return best
    }
}
