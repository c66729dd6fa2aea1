import Testing

@testable import FlipbookCodecs

/// The deflate reblocker, checked with zlib's own inflate (an independent decoder): every
/// stream it writes inflates to exactly what the stream it was given inflates to, is never
/// longer, and is shorter where the statistics change inside one of libdeflate's blocks.
@Suite struct DeflateReblockerTests {
    static func inflate(_ stream: [UInt8], count: Int) -> [UInt8]? {
        APNGDeflateTests.inflate(stream, count: count)
    }

    /// Bytes drawn from `alphabet` with a skew (low symbols more often), so that a
    /// Huffman code fitted to them is far from the fixed code.
    static func skewed(_ count: Int, alphabet: [UInt8], seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            let r = Int(state >> 16) % (alphabet.count * alphabet.count)
            return alphabet[Int(Double(r).squareRoot())]
        }
    }

    /// Two halves with different statistics (lower-case letters, then digits and
    /// punctuation), each made of short repeats and fresh bytes, as a frame's transparent
    /// margin and its art are.
    static let twoHalves: [UInt8] = {
        let letters = Array("etaoinshrdlucmfwypvbgkqjxz".utf8)
        let symbols = Array("0123456789+-*/=<>()[]{}".utf8)
        return skewed(40_000, alphabet: letters, seed: 1)
            + skewed(40_000, alphabet: symbols, seed: 2)
    }()

    static var inputs: [[UInt8]] { APNGDeflateTests.inputs + [twoHalves] }

    @Test(arguments: [Int32(1), 6, 12])
    func reblockedStreamsInflateToTheirInputAndAreNeverLonger(level: Int32) throws {
        let compressor = try LibDeflate(level: level)
        for (i, input) in Self.inputs.enumerated() {
            let stream = try compressor.compress(input)
            let reblocked = DeflateReblocker.reblock(stream)
            #expect(Self.inflate(reblocked, count: input.count) == input, "input \(i)")
            #expect(reblocked.count <= stream.count, "input \(i)")
        }
    }

    /// The parse read back and written again in new blocks: every token survives the trip
    /// (literals, matches of every length and distance symbol, stored blocks' bytes), even
    /// where the rewrite is longer and `reblock` would keep the original.
    @Test func everyParseIsWrittenBackToTheSameBytes() throws {
        for level in [Int32(0), 1, 12] {
            let compressor = try LibDeflate(level: level)
            for (i, input) in Self.inputs.enumerated() {
                let stream = try compressor.compress(input)
                let tokens = try #require(
                    DeflateTokenReader.tokens(
                        of: Array(stream[2..<(stream.count - 4)]), maxTokens: 1 << 20))
                let raw = DeflateReblocker.deflate(tokens)
                let rewrapped = Array(stream[0..<2]) + raw + Array(stream.suffix(4))
                #expect(
                    Self.inflate(rewrapped, count: input.count) == input,
                    "level \(level), input \(i)")
            }
        }
    }

    /// Letters, then digits and punctuation, as literals: the cut falls where the alphabet
    /// changes (the refinement ends at steps of 2–4 tokens), and the two blocks cost less
    /// than one.
    @Test func aChangeOfStatisticsIsCutWhereItHappens() {
        let tokens = Self.twoHalves.map(DeflateToken.literal)
        let blocks = DeflateBlockSplitter.blocks(tokens)
        #expect(blocks.count >= 2)
        #expect(blocks.contains { abs($0.lowerBound - 40_000) <= 8 }, "\(blocks)")
        let whole = DeflateBlockCode.bits(DeflateHistogram(tokens[...]))
        let parts = blocks.reduce(0) { $0 + DeflateBlockCode.bits(DeflateHistogram(tokens[$1])) }
        #expect(parts < whole - 1000)
        #expect(DeflateReblocker.deflate(tokens).count * 8 < whole)
    }

    /// One steady alphabet throughout: no cut pays for its header, so one block.
    @Test func aSteadyParseStaysOneBlock() {
        let letters = Array("etaoinshrdlucmfwypvbgkqjxz".utf8)
        let tokens = Self.skewed(30_000, alphabet: letters, seed: 3).map(DeflateToken.literal)
        #expect(DeflateBlockSplitter.blocks(tokens) == [0..<30_000])
    }

    /// The size the splitter prices a block at is the size the writer writes: a final
    /// block alone, padded to a byte, is `(bits + 7) / 8` bytes, for many random blocks
    /// (short ones, which take the fixed code, and long ones, which take dynamic codes).
    @Test func aBlocksPriceIsItsWrittenSize() throws {
        let stream = try LibDeflate(level: 12).compress(APNGDeflateTests.inputs[5])
        let tokens = try #require(
            DeflateTokenReader.tokens(of: Array(stream[2..<(stream.count - 4)]), maxTokens: 1 << 20)
        )
        var state: UInt32 = 9
        var fixed = 0, dynamic = 0
        for _ in 0..<200 {
            state = state &* 1_103_515_245 &+ 12345
            let start = Int(state >> 8) % tokens.count
            state = state &* 1_103_515_245 &+ 12345
            // Half short blocks (up to 60 tokens), half up to 3000.
            let longest = state & 0x100 == 0 ? 60 : 3000
            let count = 1 + Int(state >> 9) % min(longest, tokens.count - start)
            let slice = tokens[start..<(start + count)]
            let code = DeflateBlockCode(DeflateHistogram(slice))
            #expect(code.bits == DeflateBlockCode.bits(DeflateHistogram(slice)))
            var writer = DeflateBitWriter()
            writer.write(slice, code: code, final: true)
            #expect(writer.finish().count == (code.bits + 7) / 8)
            if code.isFixed { fixed += 1 } else { dynamic += 1 }
        }
        #expect(fixed > 10 && dynamic > 10, "fixed \(fixed), dynamic \(dynamic)")
    }

    /// What is not a deflate stream this can read comes back as it was: a preset
    /// dictionary, a reserved block type, a cut stream, a distance before the start, and
    /// a parse longer than the limit.
    @Test func unreadableStreamsComeBackUnchanged() throws {
        let stream = try LibDeflate(level: 12).compress(APNGDeflateTests.inputs[5])
        var dictionary = stream
        dictionary[1] |= 0x20
        // BFINAL 1, BTYPE 3 (reserved).
        let reserved: [UInt8] = [0x78, 0x9C, 0x07, 0, 0, 0, 0, 0]
        // A fixed block whose first symbol is a match (length 3, distance 1): 257 is 7 bits
        // 0000001, distance 0 is 5 bits 00000.
        var writer = DeflateBitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.write(0b1000000, bits: 7)
        writer.write(0, bits: 5)
        writer.write(0, bits: 7)
        let early = [0x78, 0x9C] + writer.finish() + [0, 0, 0, 1]
        let cut = Array(stream.prefix(stream.count / 2)) + Array(stream.suffix(4))
        for bad in [dictionary, reserved, early, cut] {
            #expect(DeflateReblocker.reblock(bad) == bad)
        }
        #expect(DeflateReblocker.reblock(stream, maxTokens: 100) == stream)
        #expect(
            DeflateTokenReader.tokens(of: Array(early[2..<(early.count - 4)]), maxTokens: 100)
                == nil)
    }
}

/// The limited Huffman code lengths: complete codes (Kraft sum exactly 1) within the limit,
/// and, where the limit does not bind, exactly as short in total as Huffman's own code.
@Suite struct HuffmanCodeLengthsTests {
    /// Huffman's total cost for `counts` (the sum of every merge), computed the textbook
    /// way with a sorted list: the independent expectation for an unlimited code.
    static func optimalCost(_ counts: [UInt32]) -> Int {
        var weights = counts.filter { $0 > 0 }.map(Int.init).sorted()
        guard weights.count > 1 else { return weights.isEmpty ? 0 : weights[0] }
        var cost = 0
        while weights.count > 1 {
            let merged = weights.removeFirst() + weights.removeFirst()
            cost += merged
            weights.insert(merged, at: weights.firstIndex { $0 >= merged } ?? weights.count)
        }
        return cost
    }

    static func kraftSum(_ lengths: [UInt8]) -> Double {
        lengths.filter { $0 > 0 }.reduce(0) { $0 + 1 / Double(1 << Int($1)) }
    }

    @Test func randomCountsGetOptimalCompleteCodes() {
        var state: UInt32 = 77
        for trial in 0..<200 {
            var counts = [UInt32](repeating: 0, count: 286)
            for i in counts.indices {
                state = state &* 1_103_515_245 &+ 12345
                counts[i] = (state >> 16) % 4 == 0 ? (state >> 8) % 1000 : 0
            }
            let lengths = HuffmanCodeLengths.lengths(counts: counts, limit: 15)
            let cost = zip(counts, lengths).reduce(0) { $0 + Int($1.0) * Int($1.1) }
            #expect(cost == Self.optimalCost(counts), "trial \(trial)")
            #expect(Self.kraftSum(lengths) == 1, "trial \(trial)")
            #expect(zip(counts, lengths).allSatisfy { ($0 > 0) == ($1 > 0) }, "trial \(trial)")
        }
    }

    /// Fibonacci counts make Huffman's tree as deep as it can be (one more level per
    /// symbol): the limit binds and the repaired code is still complete.
    @Test func skewedCountsAreLimitedAndComplete() {
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 19 {
            fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2])
        }
        for limit in [7, 15] {
            let lengths = HuffmanCodeLengths.lengths(counts: fibonacci, limit: limit)
            #expect(lengths.max()! == UInt8(min(limit, 18)))
            #expect(Self.kraftSum(lengths) == 1)
            // The most frequent symbol never has a longer code than a rarer one.
            #expect(zip(lengths, lengths.dropFirst()).allSatisfy { $0 >= $1 })
        }
    }

    /// Fewer than two used symbols still make a complete code of two (every decoder
    /// accepts it), and the lengths decode through ``HuffmanDecoder``.
    @Test func oneOrNoSymbolStillMakesTwoCodes() {
        #expect(HuffmanCodeLengths.lengths(counts: [0, 0, 5, 0], limit: 15) == [1, 0, 1, 0])
        #expect(HuffmanCodeLengths.lengths(counts: [0, 0, 0], limit: 15) == [1, 1, 0])
        #expect(HuffmanDecoder(lengths: [1, 0, 1, 0]) != nil)
        // Over-subscribed: three codes of one bit.
        #expect(HuffmanDecoder(lengths: [1, 1, 1]) == nil)
    }
}
