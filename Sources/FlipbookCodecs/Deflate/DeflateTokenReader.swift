/// Reads a raw deflate stream (RFC 1951) back into its LZ77 parse: the literals and matches
/// its blocks code, without the bytes they stand for.
///
/// The reblocker reads streams libdeflate has just written, but checks them as any input:
/// a bad block type, an over-subscribed or undecodable code, a distance reaching before
/// the start, a stored block whose lengths disagree or a stream that stops early give nil.
/// `maxTokens` bounds the memory: the read stops (nil) as soon as it is passed.
struct DeflateTokenReader {
    private let bytes: [UInt8]
    private var index = 0
    private var buffer: UInt64 = 0
    private var available = 0
    /// Zero bytes added past the end, so that a peek near the end has bits to look at.
    private var padding = 0
    /// Whether more bits were consumed than the stream has: it was cut short.
    private var overrun: Bool { (index + padding) * 8 - available > bytes.count * 8 }

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The parse of `stream` (raw deflate, no zlib wrapper), or nil when it is not a
    /// valid stream or has more than `maxTokens` symbols.
    static func tokens(of stream: [UInt8], maxTokens: Int) -> [DeflateToken]? {
        var reader = DeflateTokenReader(stream)
        var tokens: [DeflateToken] = []
        var produced = 0
        while true {
            let final = reader.bits(1)
            switch reader.bits(2) {
            case 0:
                guard reader.readStored(into: &tokens, produced: &produced, max: maxTokens)
                else { return nil }
            case 1:
                guard
                    let litlen = HuffmanDecoder(lengths: DeflateAlphabet.fixedLitlenLengths),
                    let distance = HuffmanDecoder(lengths: DeflateAlphabet.fixedDistanceLengths),
                    reader.readCoded(litlen, distance, &tokens, &produced, maxTokens)
                else { return nil }
            case 2:
                guard let (litlen, distance) = reader.readDynamicHeader(),
                    reader.readCoded(litlen, distance, &tokens, &produced, maxTokens)
                else { return nil }
            default:
                return nil
            }
            guard !reader.overrun else { return nil }
            if final == 1 { return tokens }
        }
    }

    private mutating func refill() {
        while available <= 56 {
            if index < bytes.count {
                buffer |= UInt64(bytes[index]) << UInt64(available)
                index += 1
            } else {
                padding += 1
            }
            available += 8
        }
    }

    private mutating func peek(_ count: Int) -> UInt32 {
        if available < count { refill() }
        return UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(count)) - 1))
    }

    private mutating func skip(_ count: Int) {
        buffer >>= UInt64(count)
        available -= count
    }

    private mutating func bits(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        let value = peek(count)
        skip(count)
        return Int(value)
    }

    private mutating func decode(_ code: HuffmanDecoder) -> Int? {
        let entry = code.table[Int(peek(code.maxLength))]
        let length = Int(entry & 15)
        guard length > 0 else { return nil }
        skip(length)
        return Int(entry >> 4)
    }

    private mutating func readStored(
        into tokens: inout [DeflateToken], produced: inout Int, max: Int
    ) -> Bool {
        skip(available % 8)  // to the byte boundary
        let length = bits(16), complement = bits(16)
        guard length ^ complement == 0xFFFF, tokens.count + length <= max else { return false }
        for _ in 0..<length { tokens.append(.literal(UInt8(bits(8)))) }
        produced += length
        return !overrun
    }

    private mutating func readDynamicHeader() -> (HuffmanDecoder, HuffmanDecoder)? {
        let litlenCount = bits(5) + 257, distanceCount = bits(5) + 1
        let codeLengthCount = bits(4) + 4
        guard litlenCount <= DeflateAlphabet.litlenCount else { return nil }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount {
            codeLengthLengths[DeflateAlphabet.codeLengthOrder[i]] = UInt8(bits(3))
        }
        guard let codeLengths = HuffmanDecoder(lengths: codeLengthLengths) else { return nil }
        var lengths: [UInt8] = []
        let total = litlenCount + distanceCount
        while lengths.count < total {
            guard let symbol = decode(codeLengths) else { return nil }
            switch symbol {
            case 0..<16: lengths.append(UInt8(symbol))
            case 16:
                guard let last = lengths.last else { return nil }
                lengths += repeatElement(last, count: 3 + bits(2))
            case 17: lengths += repeatElement(0, count: 3 + bits(3))
            default: lengths += repeatElement(0, count: 11 + bits(7))
            }
        }
        guard lengths.count == total, lengths[256] > 0,
            let litlen = HuffmanDecoder(lengths: Array(lengths[0..<litlenCount])),
            let distance = HuffmanDecoder(lengths: Array(lengths[litlenCount...]))
        else { return nil }
        return (litlen, distance)
    }

    private mutating func readCoded(
        _ litlen: HuffmanDecoder, _ distance: HuffmanDecoder,
        _ tokens: inout [DeflateToken], _ produced: inout Int, _ max: Int
    ) -> Bool {
        while true {
            guard !overrun, let symbol = decode(litlen) else { return false }
            if symbol < 256 {
                tokens.append(.literal(UInt8(symbol)))
                produced += 1
            } else if symbol == 256 {
                return true
            } else {
                guard symbol <= 285 else { return false }
                // The length's extra bits come before the distance code.
                let lengthExtra = bits(Int(DeflateAlphabet.lengthExtraBits[symbol - 257]))
                guard let d = decode(distance), d < DeflateAlphabet.distanceCount else {
                    return false
                }
                let distanceExtra = bits(Int(DeflateAlphabet.distanceExtraBits[d]))
                let reach = Int(DeflateAlphabet.distanceBase[d]) + distanceExtra
                guard reach <= produced else { return false }
                produced += Int(DeflateAlphabet.lengthBase[symbol - 257]) + lengthExtra
                tokens.append(
                    DeflateToken(
                        litlen: UInt16(symbol), distance: UInt8(d),
                        lengthExtra: UInt8(lengthExtra), distanceExtra: UInt16(distanceExtra)))
            }
            if tokens.count > max { return false }
        }
    }
}

/// A canonical Huffman code's decoding table, indexed by the next `maxLength` bits of the
/// stream (deflate sends codes first bit first, so the table holds them bit-reversed).
/// Each entry is `symbol << 4 | length`, 0 for bits that start no code.
struct HuffmanDecoder {
    let table: [UInt32]
    let maxLength: Int

    /// nil when the lengths over-subscribe the code (Kraft sum over 1). An incomplete code
    /// is accepted, as zlib accepts it: its unused bit patterns decode to nothing.
    init?(lengths: [UInt8]) {
        let maxLength = max(1, Int(lengths.max() ?? 0))
        guard maxLength <= 15 else { return nil }
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[Int(length)] += 1 }
        var room = 1
        for length in 1...15 {
            room = room * 2 - counts[length]
            guard room >= 0 else { return nil }
        }
        let codes = CanonicalCode.codes(lengths: lengths)
        var table = [UInt32](repeating: 0, count: 1 << maxLength)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let step = 1 << Int(length)
            var slot = Int(codes[symbol])
            while slot < table.count {
                table[slot] = UInt32(symbol) << 4 | UInt32(length)
                slot += step
            }
        }
        self.table = table
        self.maxLength = maxLength
    }
}
