/// Code lengths for a block's symbol counts: a Huffman code limited to `limit` bits, as
/// deflate needs (15 bits for literal/lengths and distances, 7 for the code-length code).
///
/// The algorithm: a Huffman tree over the used symbols sorted by count (two queues, leaves
/// and merged nodes, both in increasing weight), which gives each symbol its depth. When a
/// depth passes `limit`, the deep codes are folded to `limit` and the Kraft sum, now over
/// one, is brought back by the usual repair: take one code from the longest length and
/// lengthen the longest shorter code by one (two codes where there was one), until the
/// code is complete. Lengths are then dealt out again by count, the most frequent symbols
/// taking the shortest. The repair is not the optimal limited code (package-merge is), but
/// it only runs when a depth passes the limit, which takes very skewed counts (a Fibonacci
/// run of them, `HuffmanCodeLengthsTests`).
enum HuffmanCodeLengths {
    /// Lengths for `counts` (0 for unused symbols). One used symbol gets length 1; with
    /// `minimumCodes` 2, a second (the lowest other symbol) is given length 1 too, so the
    /// code is complete, which every decoder accepts.
    static func lengths(counts: [UInt32], limit: Int, minimumCodes: Int = 2) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: counts.count)
        lengths.withUnsafeMutableBufferPointer { out in
            counts.withUnsafeBufferPointer { counts in
                fill(out, counts: counts, limit: limit, minimumCodes: minimumCodes)
            }
        }
        return lengths
    }

    /// ``lengths(counts:limit:minimumCodes:)`` into `out`, in scratch memory of its own: the
    /// splitter prices thousands of blocks, so no array is made here.
    private static func fill(
        _ out: UnsafeMutableBufferPointer<UInt8>, counts: UnsafeBufferPointer<UInt32>,
        limit: Int, minimumCodes: Int
    ) {
        let n = counts.count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 5 * n + 16) { space in
            // Used symbols sorted by (count, symbol), one integer key each; unused symbols
            // given a code to reach `minimumCodes` sort first (count 0) and weigh as 1.
            let keys = space.baseAddress!
            var used = 0
            for symbol in 0..<n where counts[symbol] > 0 {
                keys[used] = UInt64(counts[symbol]) << 16 | UInt64(symbol)
                used += 1
            }
            for symbol in 0..<n where used < minimumCodes && counts[symbol] == 0 {
                keys[used] = UInt64(symbol)
                used += 1
            }
            guard used > 1 else {
                if used == 1 { out[Int(keys[0] & 0xFFFF)] = 1 }
                return
            }
            var sorted = UnsafeMutableBufferPointer(start: keys, count: used)
            sorted.sort()
            let weight = keys + n, slot = keys + 3 * n
            for i in 0..<used { weight[i] = max(keys[i] >> 16, 1) }
            treeDepths(weight: weight, slot: slot, leaves: used)
            // Code counts by length, the deep codes folded into `limit`, then repaired.
            let perLength = keys + 5 * n
            for length in 0...limit { perLength[length] = 0 }
            var deepest = 0
            for i in 0..<used {
                deepest = max(deepest, Int(slot[i]))
                perLength[min(Int(slot[i]), limit)] += 1
            }
            if deepest > limit { repairKraftSum(perLength, limit: limit) }
            // Deal lengths out: the rarest symbols (first in `keys`) take the longest codes.
            var next = 0
            for length in stride(from: limit, through: 1, by: -1) {
                for _ in 0..<perLength[length] {
                    out[Int(keys[next] & 0xFFFF)] = UInt8(length)
                    next += 1
                }
            }
        }
    }

    /// The depth of each leaf of a Huffman tree over `weight[0..<leaves]` (sorted
    /// increasing), left in `slot[0..<leaves]`. Nodes 0..<leaves are the leaves and the
    /// merged nodes follow in the order they are made, so each node's parent comes after
    /// it: `slot` first holds parents, then, from the root down, depths in place.
    private static func treeDepths(
        weight: UnsafeMutablePointer<UInt64>, slot: UnsafeMutablePointer<UInt64>, leaves n: Int
    ) {
        var leaf = 0, merged = n, made = n
        func takeLightest() -> Int {
            if leaf < n && (merged >= made || weight[leaf] <= weight[merged]) {
                leaf += 1
                return leaf - 1
            }
            merged += 1
            return merged - 1
        }
        while made < 2 * n - 1 {
            let a = takeLightest(), b = takeLightest()
            weight[made] = weight[a] + weight[b]
            slot[a] = UInt64(made)
            slot[b] = UInt64(made)
            made += 1
        }
        slot[2 * n - 2] = 0
        for node in stride(from: 2 * n - 3, through: 0, by: -1) {
            slot[node] = slot[Int(slot[node])] + 1
        }
    }

    /// Brings the Kraft sum of `perLength[1...limit]` (over 1 once deep codes were folded
    /// into `limit`) back to exactly 1: take one code from `limit` and split the longest
    /// shorter code in two one bit longer, each step lowering the sum by 2^-limit.
    private static func repairKraftSum(_ perLength: UnsafeMutablePointer<UInt64>, limit: Int) {
        var total: UInt64 = 0
        for length in 1...limit { total += perLength[length] << UInt64(limit - length) }
        while total > 1 << UInt64(limit) {
            perLength[limit] -= 1
            for length in stride(from: limit - 1, through: 1, by: -1) where perLength[length] > 0 {
                perLength[length] -= 1
                perLength[length + 1] += 2
                break
            }
            total -= 1
        }
    }
}

/// Canonical Huffman codes (RFC 1951 §3.2.2) from code lengths, bit-reversed, as deflate
/// writes them (a code's first bit is the stream's next bit).
enum CanonicalCode {
    static func codes(lengths: [UInt8]) -> [UInt16] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1...15 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where value & (1 << bit) != 0 {
                reversed |= 1 << (Int(length) - 1 - bit)
            }
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }
}
