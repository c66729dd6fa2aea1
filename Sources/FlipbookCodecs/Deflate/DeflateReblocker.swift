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
enum DeflateReblocker {
    /// Symbols read at most (6 bytes each): 24 MB, a 1000 × 1000 RGBA frame of noise.
    static let maxTokens = 1 << 22

    /// `stream` (a zlib stream) reblocked, or `stream` itself when that saves nothing or
    /// it cannot be read.
    static func reblock(_ stream: [UInt8], maxTokens: Int = maxTokens) -> [UInt8] {
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
