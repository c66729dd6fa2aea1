/// Rewrites a zlib stream with better block boundaries: the same LZ77 parse, so the same
/// bytes when inflated, cut into blocks where the symbol statistics change and each block
/// coded with Huffman codes fitted to its own counts.
///
/// Why: libdeflate's highest level parses near-optimally but cuts blocks by a quick
/// heuristic while it parses. On APNG frames, which are mostly long matches with bursts of
/// literals, finding the cuts afterwards on the whole parse (``DeflateBlockSplitter``) and
/// smoothing each block's counts so its header's code lengths run-length code well
/// (``DeflateBlockCode``) made the default APNGs 0.6–2.7 % smaller: scenes/demo 384,527 →
/// 374,289 bytes, owl-login 266,452 → 259,980, and at 256 px the Lottie files masking
/// 499,010 → 489,799, starstrips 241,846 → 238,368, 5317-fireworkds 659,691 → 653,942 and
/// confetti2 536,189 → 532,957. That took these six below Debian's apngasm, whose 7-Zip
/// deflate they had trailed by 0.02–2.7 %. It costs 3.7 % of starstrips' render CPU and
/// about 7 % of demo's, where most frames have two or three finalists to reblock.
///
/// The result is never longer than the input: when the rewrite does not save a byte, or
/// the input is not a zlib stream this can read (a preset dictionary, a broken stream, over
/// `maxTokens` symbols), the input comes back unchanged. The zlib header and the Adler-32
/// trailer are kept as they were, since the data they describe is the same.
package enum DeflateReblocker {
    /// Symbols read at most (6 bytes each): 24 MB, a 1000 × 1000 RGBA frame of noise.
    package static let maxTokens = 1 << 22

    package static func reblock(_ stream: [UInt8], maxTokens: Int = maxTokens) -> [UInt8] {
        // CM 8 (deflate) and no preset dictionary (FDICT, bit 5 of FLG).
        guard stream.count > 6, stream[0] & 0x0F == 8, stream[1] & 0x20 == 0 else {
            return stream
        }
        let raw = Array(stream[2..<(stream.count - 4)])
        guard let tokens = DeflateTokenReader.tokens(of: raw, maxTokens: maxTokens) else {
            return stream
        }
        let body = deflate(tokens)
        guard body.count < raw.count else { return stream }
        return Array(stream[0..<2]) + body + Array(stream.suffix(4))
    }

    /// `tokens` as a raw deflate stream, in the blocks ``DeflateBlockSplitter`` chooses.
    static func deflate(_ tokens: [DeflateToken]) -> [UInt8] {
        let blocks = DeflateBlockSplitter.blocks(tokens)
        var writer = DeflateBitWriter()
        for (i, block) in blocks.enumerated() {
            let slice = tokens[block]
            writer.write(
                slice, code: DeflateBlockCode(DeflateHistogram(slice)), final: i == blocks.count - 1
            )
        }
        return writer.finish()
    }
}

/// Deflate's bit order: values are packed from each byte's least significant bit up, and
/// Huffman codes go in bit-reversed (``CanonicalCode``).
struct DeflateBitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    mutating func write(_ value: Int, bits: Int) {
        buffer |= UInt64(truncatingIfNeeded: value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// The bytes written, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
        return bytes
    }

    /// One block: its header, code description (dynamic blocks), symbols and end of block.
    mutating func write(_ tokens: ArraySlice<DeflateToken>, code: DeflateBlockCode, final: Bool) {
        write(final ? 1 : 0, bits: 1)
        write(code.isFixed ? 1 : 2, bits: 2)
        if !code.isFixed {
            write(code.litlen.count - 257, bits: 5)
            write(code.distance.count - 1, bits: 5)
            write(code.codeLengthCount - 4, bits: 4)
            for symbol in DeflateAlphabet.codeLengthOrder.prefix(code.codeLengthCount) {
                write(Int(code.codeLengthLengths[symbol]), bits: 3)
            }
            let runCodes = CanonicalCode.codes(lengths: code.codeLengthLengths)
            for run in code.runs {
                let symbol = Int(run.symbol)
                write(Int(runCodes[symbol]), bits: Int(code.codeLengthLengths[symbol]))
                write(Int(run.extra), bits: DeflateBlockCode.extraBits(run: run.symbol))
            }
        }
        let litlenCodes = CanonicalCode.codes(lengths: code.litlen)
        let distanceCodes = CanonicalCode.codes(lengths: code.distance)
        for token in tokens {
            let symbol = Int(token.litlen)
            write(Int(litlenCodes[symbol]), bits: Int(code.litlen[symbol]))
            guard token.isMatch else { continue }
            write(Int(token.lengthExtra), bits: DeflateAlphabet.extraBits(litlen: symbol))
            let distance = Int(token.distance)
            write(Int(distanceCodes[distance]), bits: Int(code.distance[distance]))
            write(
                Int(token.distanceExtra), bits: Int(DeflateAlphabet.distanceExtraBits[distance]))
        }
        let end = DeflateAlphabet.endOfBlock
        write(Int(litlenCodes[end]), bits: Int(code.litlen[end]))
    }
}
