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
