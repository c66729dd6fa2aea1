/// Where a parse is cut into blocks: each block gets Huffman codes fitted to its own
/// counts, so a cut pays where the statistics change (a frame's transparent margin, then
/// its art; flat rows, then a gradient) and costs a header where they do not.
///
/// The search is recursive bisection, priced in the bits the writer will write
/// (``DeflateBlockCode``):
/// - A range is tried at `tries - 1` evenly spaced cuts in one pass over it (the left
///   half's counts grow as the pass goes; the right half's are the whole less the left).
/// - The best cut is refined by halving steps either side of it, down to 2–4 tokens.
/// - The halves are then priced with every smoothing the writer tries. If they cost less
///   than the range as one block, each half is searched the same way; otherwise the range
///   is a block.
/// Ranges shorter than `2 × minimumTokens` are not cut.
///
/// The search prices cuts with the exact code and only the first smoothing
/// (`pricingSmoothings`), which costs about 0.6 of all three and finds nearly the same
/// cuts. Bisection does not find the best partition (dynamic programming over every cut
/// would). The constants were measured on scenes/demo's APNG (120 frames, 374,761 bytes
/// at 10 tries, 200 tokens, exact pricing):
/// - 24 tries and 50 tokens: 374,339 bytes; 10 tries and 100 tokens: 374,480; 16 and 64:
///   374,452. With every finalist reblocked (``DeflateReblocker``'s callers), the
///   reblocking took 7.3 %, 5.4 % and 6.0 % of the render's CPU (perf samples);
/// - pricing with no smoothing: 374,509; with all three: 374,311 at about 1.7 times the
///   cost.
enum DeflateBlockSplitter {
    static let tries = 24
    static let minimumTokens = 50
    static let pricingSmoothings = 1

    /// The blocks of `tokens`, in order, covering all of it (one empty block for none).
    static func blocks(_ tokens: [DeflateToken]) -> [Range<Int>] {
        let whole = DeflateHistogram(tokens[...])
        var blocks: [Range<Int>] = []
        split(tokens, 0..<tokens.count, whole, DeflateBlockCode.bits(whole), into: &blocks)
        return blocks
    }

    private static func split(
        _ tokens: [DeflateToken], _ range: Range<Int>, _ whole: DeflateHistogram, _ cost: Int,
        into blocks: inout [Range<Int>]
    ) {
        guard range.count >= 2 * minimumTokens, let cut = bestCut(tokens, range, whole) else {
            blocks.append(range)
            return
        }
        let right = cut.left.complement(in: whole)
        let leftCost = DeflateBlockCode.bits(cut.left), rightCost = DeflateBlockCode.bits(right)
        guard leftCost + rightCost < cost else {
            blocks.append(range)
            return
        }
        split(tokens, range.lowerBound..<cut.at, cut.left, leftCost, into: &blocks)
        split(tokens, cut.at..<range.upperBound, right, rightCost, into: &blocks)
    }

    /// A cut at token `at`: the left half's counts, and both halves' price.
    private struct Cut {
        var at: Int
        var left: DeflateHistogram
        var cost: Int
    }

    private static func price(_ left: DeflateHistogram, at: Int, _ whole: DeflateHistogram) -> Cut {
        let leftCost = DeflateBlockCode.bits(left, smoothings: pricingSmoothings)
        let rightCost = DeflateBlockCode.bits(
            left.complement(in: whole), smoothings: pricingSmoothings)
        return Cut(at: at, left: left, cost: leftCost + rightCost)
    }

    private static func bestCut(
        _ tokens: [DeflateToken], _ range: Range<Int>, _ whole: DeflateHistogram
    ) -> Cut? {
        let lo = range.lowerBound, count = range.count
        var best: Cut?
        var left = DeflateHistogram()
        var end = lo
        for k in 1..<tries {
            let at = lo + count * k / tries
            while end < at {
                left.add(tokens[end])
                end += 1
            }
            let cut = price(left, at: at, whole)
            if best == nil || cut.cost < best!.cost { best = cut }
        }
        guard var best else { return nil }
        let lowest = lo + minimumTokens / 2, highest = range.upperBound - minimumTokens / 2
        var step = count / tries
        while step > 4 {
            step /= 2
            let base = best
            for at in [base.at - step, base.at + step] where at >= lowest && at <= highest {
                var moved = base.left
                if at > base.at {
                    for i in base.at..<at { moved.add(tokens[i]) }
                } else {
                    for i in at..<base.at { moved.remove(tokens[i]) }
                }
                let cut = price(moved, at: at, whole)
                if cut.cost < best.cost { best = cut }
            }
        }
        return best
    }
}
