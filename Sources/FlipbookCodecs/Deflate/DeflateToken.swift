/// One symbol of a deflate stream's LZ77 parse (RFC 1951 §3.2.5), as the reblocker keeps it:
/// a literal byte or a match, already in deflate's alphabets, so counting a block's
/// symbols and writing them out need no table lookups.
///
/// - `litlen` is the literal/length symbol: 0…255 a literal, 257…285 a match length
///   (256, end of block, is never stored: each block adds its own).
/// - For a match, `lengthExtra` holds the value of the length's extra bits, `distance`
///   the distance symbol (0…29) and `distanceExtra` the value of its extra bits. How many
///   extra bits each takes is fixed by the symbol (``DeflateAlphabet``).
struct DeflateToken: Equatable {
    var litlen: UInt16
    var distance: UInt8
    var lengthExtra: UInt8
    var distanceExtra: UInt16

    static func literal(_ byte: UInt8) -> DeflateToken {
        DeflateToken(litlen: UInt16(byte), distance: 0, lengthExtra: 0, distanceExtra: 0)
    }

    var isMatch: Bool { litlen > 256 }

    /// A match's extra bits, length and distance together.
    var extraBits: Int {
        Int(DeflateAlphabet.lengthExtraBits[Int(litlen) - 257])
            + Int(DeflateAlphabet.distanceExtraBits[Int(distance)])
    }
}

/// Deflate's fixed tables: the base value and extra-bit count of every length and distance
/// symbol, and the code lengths of the fixed Huffman code (RFC 1951 §3.2.5–3.2.6).
enum DeflateAlphabet {
    /// Literal/length symbols, end of block included (HLIT counts up to 286).
    static let litlenCount = 286
    static let distanceCount = 30
    static let endOfBlock = 256

    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
        115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
        1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13, 13,
    ]

    /// Extra bits a literal/length symbol carries (0 for literals and end of block).
    static func extraBits(litlen: Int) -> Int {
        litlen > 256 ? Int(lengthExtraBits[litlen - 257]) : 0
    }

    /// The fixed code's literal/length lengths (288 symbols; 286 and 287 never occur).
    static let fixedLitlenLengths: [UInt8] =
        Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
        + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8)
    /// The fixed code's distance lengths.
    static let fixedDistanceLengths: [UInt8] = Array(repeating: 5, count: 30)

    /// The order in which a dynamic block's header lists the code-length code's lengths.
    static let codeLengthOrder: [Int] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ]
}
