/// The codes one block is written with, and its exact size in bits: a dynamic block
/// (RFC 1951 §3.2.7) with Huffman codes fitted to the block's counts, or a fixed-code block
/// where that is smaller (short blocks, whose dynamic header would cost more than it saves).
///
/// The dynamic header sends the code lengths run-length coded: a run of zeros as 18 (11–138
/// zeros) or 17 (3–10), a run of one non-zero length as the length then 16s (3–6 repeats
/// each), anything shorter as plain lengths. The splitter prices blocks with the same
/// ``init(_:)`` the writer writes them with, so its sizes are the written sizes.
struct DeflateBlockCode {
    /// Literal/length code lengths (HLIT of them, at least 257) and distance code lengths
    /// (HDIST, at least 1); for a fixed block, the fixed code's.
    var litlen: [UInt8]
    var distance: [UInt8]
    var isFixed: Bool
    /// Dynamic blocks: the run-length coded lengths (symbol 0…18 and its extra bits' value),
    /// the code-length code's lengths (by symbol) and how many the header lists (HCLEN).
    var runs: [(symbol: UInt8, extra: UInt8)] = []
    var codeLengthLengths: [UInt8] = []
    var codeLengthCount = 0
    /// The whole block: 3 header bits, the code description, the symbols with their extra
    /// bits, and the end-of-block code.
    var bits: Int

    /// How far ``smoothedForRuns(_:within:)`` lets a count stray from its stretch's mean (a
    /// 1/d share of it) in the smoothed codes tried beside the exact one. Each divisor
    /// wins blocks the others lose. On scenes/demo's APNG, smoothing by 1/4 saved 2,268
    /// bytes over exact codes alone (377,029 → 374,761), and 1/2, 1/4 and 1/8 together 201
    /// bytes more than 1/4 alone (374,633 → 374,432; a finer search, 10 tries and 100
    /// tokens, in both).
    static let smoothingDivisors: [UInt64] = [2, 4, 8]

    /// The smallest way to write a block of `histogram`'s counts: the fixed code, or a
    /// dynamic code fitted to the counts exactly or to a smoothing of them. Fixed wins ties,
    /// then the earlier code tried.
    init(_ histogram: DeflateHistogram) {
        let (bits, variant) = Self.smallest(histogram)
        self.bits = bits
        guard variant >= 0 else {
            litlen = DeflateAlphabet.fixedLitlenLengths
            distance = DeflateAlphabet.fixedDistanceLengths
            isFixed = true
            return
        }
        (litlen, distance) = Self.lengths(histogram, variant: variant)
        isFixed = false
        let (headerBits, runCounts) = Self.header(litlen: litlen, distance: distance)
        runs = Self.runs(of: litlen + distance)
        codeLengthLengths = HuffmanCodeLengths.lengths(counts: runCounts, limit: 7)
        codeLengthCount = Self.codeLengthCount(codeLengthLengths)
        assert(headerBits + Self.dataBits(histogram, litlen, distance) == bits)
    }

    /// The size in bits of the block ``init(_:)`` makes, without making it: what the
    /// splitter prices cuts with.
    /// `smoothings` limits the smoothed codes tried to the first few divisors.
    static func bits(_ histogram: DeflateHistogram, smoothings: Int = smoothingDivisors.count)
        -> Int
    {
        smallest(histogram, smoothings: smoothings).bits
    }

    /// The smallest block's bits and its code: -1 fixed, 0 exact, k > 0 smoothed by the
    /// kth divisor.
    private static func smallest(
        _ histogram: DeflateHistogram, smoothings: Int = smoothingDivisors.count
    ) -> (bits: Int, variant: Int) {
        var best = (
            bits: 3
                + dataBits(
                    histogram, DeflateAlphabet.fixedLitlenLengths,
                    DeflateAlphabet.fixedDistanceLengths),
            variant: -1
        )
        for variant in 0...min(smoothings, smoothingDivisors.count) {
            let (litlen, distance) = lengths(histogram, variant: variant)
            let bits =
                header(litlen: litlen, distance: distance).bits
                + dataBits(histogram, litlen, distance)
            if bits < best.bits { best = (bits, variant) }
        }
        return best
    }

    /// Dynamic code lengths, trimmed to what the header sends (HLIT ≥ 257, HDIST ≥ 1).
    private static func lengths(_ histogram: DeflateHistogram, variant: Int)
        -> (litlen: [UInt8], distance: [UInt8])
    {
        var counts = histogram.litlen
        counts[DeflateAlphabet.endOfBlock] = 1
        var distanceCounts = histogram.distance
        if variant > 0 {
            let divisor = smoothingDivisors[variant - 1]
            counts = smoothedForRuns(counts, within: divisor)
            distanceCounts = smoothedForRuns(distanceCounts, within: divisor)
        }
        var litlen = HuffmanCodeLengths.lengths(counts: counts, limit: 15)
        var distance = HuffmanCodeLengths.lengths(counts: distanceCounts, limit: 15)
        litlen.removeLast(litlen.count - max(257, (litlen.lastIndex { $0 > 0 } ?? 0) + 1))
        distance.removeLast(distance.count - max(1, (distance.lastIndex { $0 > 0 } ?? 0) + 1))
        return (litlen, distance)
    }

    /// The symbols' bits under the given lengths: codes, extra bits and end of block.
    private static func dataBits(
        _ histogram: DeflateHistogram, _ litlen: [UInt8], _ distance: [UInt8]
    ) -> Int {
        var bits = histogram.extraBits + Int(litlen[DeflateAlphabet.endOfBlock])
        for (count, length) in zip(histogram.litlen, litlen) { bits += Int(count) * Int(length) }
        for (count, length) in zip(histogram.distance, distance) {
            bits += Int(count) * Int(length)
        }
        return bits
    }

    /// A dynamic block's header bits (block header included) for the given lengths, and
    /// how often each run-length symbol occurs in it.
    private static func header(litlen: [UInt8], distance: [UInt8])
        -> (bits: Int, runCounts: [UInt32])
    {
        var runCounts = [UInt32](repeating: 0, count: 19)
        var extra = 0
        forEachRun(of: litlen + distance) { symbol, _ in
            runCounts[Int(symbol)] += 1
            extra += extraBits(run: symbol)
        }
        let codeLengthLengths = HuffmanCodeLengths.lengths(counts: runCounts, limit: 7)
        var bits = 3 + 14 + 3 * codeLengthCount(codeLengthLengths) + extra
        for (count, length) in zip(runCounts, codeLengthLengths) {
            bits += Int(count) * Int(length)
        }
        return (bits, runCounts)
    }

    /// HCLEN: the code-length code's lengths up to the last non-zero one in the header's
    /// order, at least 4.
    private static func codeLengthCount(_ lengths: [UInt8]) -> Int {
        max(4, (DeflateAlphabet.codeLengthOrder.lastIndex { lengths[$0] > 0 } ?? 0) + 1)
    }

    /// `counts` with stretches of similar counts replaced by their mean, so that their
    /// symbols come out with equal code lengths, which the header sends as one run (the
    /// idea of zopfli's and Brotli's RLE optimisation). Used symbols stay used and unused
    /// ones unused; stretches of equal counts already long enough for a run are kept.
    static func smoothedForRuns(_ counts: [UInt32], within divisor: UInt64) -> [UInt32] {
        var out = counts
        var start = 0
        while start < counts.count {
            var end = start + 1
            var sum = UInt64(counts[start])
            let used = counts[start] > 0
            while end < counts.count, (counts[end] > 0) == used {
                let mean = (sum + UInt64(end - start) / 2) / UInt64(end - start)
                let count = UInt64(counts[end])
                // Within 1/divisor of the stretch's mean so far (at least 4).
                let limit = max(4, mean / divisor)
                guard count + limit >= mean, count <= mean + limit else { break }
                sum += count
                end += 1
            }
            let length = end - start
            if used && length >= 4 {
                let mean = UInt32(max(1, (sum + UInt64(length) / 2) / UInt64(length)))
                for i in start..<end { out[i] = mean }
            }
            start = end
        }
        return out
    }

    /// Extra bits after a run-length symbol: 16 repeats 3–6 times (2 bits), 17 and 18 give
    /// 3–10 and 11–138 zeros (3 and 7 bits).
    static func extraBits(run symbol: UInt8) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    /// The run-length coding of a header's code lengths (see the type's summary).
    static func runs(of lengths: [UInt8]) -> [(symbol: UInt8, extra: UInt8)] {
        var runs: [(symbol: UInt8, extra: UInt8)] = []
        forEachRun(of: lengths) { runs.append(($0, $1)) }
        return runs
    }

    /// Calls `body` with each run-length symbol of `lengths` and its extra bits' value.
    private static func forEachRun(of lengths: [UInt8], _ body: (UInt8, UInt8) -> Void) {
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var end = i + 1
            while end < lengths.count && lengths[end] == value { end += 1 }
            var left = end - i
            if value == 0 {
                while left >= 11 {
                    let n = min(left, 138)
                    body(18, UInt8(n - 11))
                    left -= n
                }
                if left >= 3 {
                    body(17, UInt8(left - 3))
                    left = 0
                }
            } else {
                body(value, 0)
                left -= 1
                while left >= 3 {
                    let n = min(left, 6)
                    body(16, UInt8(n - 3))
                    left -= n
                }
            }
            for _ in 0..<left { body(value, 0) }
            i = end
        }
    }
}
