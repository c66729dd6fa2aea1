import Testing

@testable import FlipbookCodecs

/// The APNG writer's row filter strategies, checked with a reference unfilter written from
/// the PNG specification (section 9): every strategy's output reverses to its input, and the
/// least-entropy choice picks what its definition says where the least-sum rule does not,
/// and the least-deflate choice repeats the filter of an earlier equal row.
@Suite struct PNGRowFilterStrategyTests {
    /// PNG's reconstruction of `filtered` (filter byte + `stride` bytes per row).
    static func unfilter(_ filtered: [UInt8], stride: Int, bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        var above = [UInt8](repeating: 0, count: stride)
        for start in Swift.stride(from: 0, to: filtered.count, by: stride + 1) {
            let kind = filtered[start]
            var row = Array(filtered[(start + 1)...(start + stride)])
            for i in 0..<stride {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(above[i])
                let c = i >= bpp ? Int(above[i - bpp]) : 0
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                let paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                let prediction = [0, a, b, (a + b) / 2, paeth][Int(kind)]
                row[i] = row[i] &+ UInt8(prediction)
            }
            out += row
            above = row
        }
        return out
    }

    /// Pseudo-random bytes, with smooth ramps, flat runs and noise among them.
    static func image(width: Int, height: Int, bpp: Int) -> [UInt8] {
        var seed: UInt32 = 99
        return (0..<(width * height * bpp)).map { i in
            seed = seed &* 1_103_515_245 &+ 12345
            let x = (i / bpp) % width, y = i / (bpp * width)
            switch y % 4 {
            case 0: return UInt8(truncatingIfNeeded: x * 3 + y)
            case 1: return x < width / 2 ? 200 : 17
            case 2: return UInt8(truncatingIfNeeded: seed >> 16)
            default: return UInt8(truncatingIfNeeded: 120 + Int(seed >> 29))
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyStrategyReversesToItsRows(bpp: Int) throws {
        let width = 37, height = 12
        let pixels = Self.image(width: width, height: height, bpp: bpp)
        let strategies: [PNGRowFilters.Strategy] =
            [.minimumSum, .minimumEntropy, .leastDeflate] + (0...4).map { .fixed(UInt8($0)) }
        for strategy in strategies {
            let filtered = try Self.filter(
                pixels, stride: width * bpp, height: height, bpp: bpp, strategy: strategy)
            #expect(filtered.count == (width * bpp + 1) * height)
            #expect(
                Self.unfilter(filtered, stride: width * bpp, bpp: bpp) == pixels, "\(strategy)")
        }
    }

    /// A row of 60s and 61s in no order, under a row of zeros: unfiltered it holds two byte
    /// values (1 bit each), Sub (and Paeth, whose prediction over zeros is the left byte)
    /// three (0, 1 and 255: about 1.5 bits), Average more. The least-sum rule takes Sub
    /// (residuals of 0 and ±1 against 60 and 61); least entropy takes None.
    @Test func leastEntropyPrefersFewValuesToSmallOnes() throws {
        var seed: UInt32 = 7
        let width = 64
        let row = (0..<width).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return 60 + UInt8(seed >> 31)
        }
        let pixels = [UInt8](repeating: 0, count: width) + row
        let filtered = { (strategy: PNGRowFilters.Strategy) in
            try Self.filter(pixels, stride: width, height: 2, bpp: 1, strategy: strategy)
        }
        #expect(try filtered(.minimumSum)[width + 1] == PNGRowFilters.sub)
        #expect(try filtered(.minimumEntropy)[width + 1] == PNGRowFilters.none)
        // A row equal to the one above: Up, all zeros, under both rules.
        let up = try Self.filter(
            row + row, stride: width, height: 2, bpp: 1, strategy: .minimumEntropy)
        #expect(up[width + 1] == PNGRowFilters.up && up[(width + 2)...].allSatisfy { $0 == 0 })
    }

    /// Rows of noise where the third repeats the first: the row alone says nothing (its
    /// bytes are as random under every filter, so the sum and entropy rules choose by
    /// chance), but deflate codes it as one match of the first row if it takes the first
    /// row's filter and so repeats its filtered bytes. The least-deflate rule must see that:
    /// the third filtered line, filter byte included, equals the first.
    @Test func leastDeflateRepeatsTheFilterOfAnEarlierEqualRow() throws {
        var seed: UInt32 = 11
        let width = 96
        let noise = {
            (0..<width).map { _ -> UInt8 in
                seed = seed &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: seed >> 16)
            }
        }
        let first = noise(), second = noise()
        let filtered = try Self.filter(
            first + second + first, stride: width, height: 3, bpp: 1, strategy: .leastDeflate)
        let line = width + 1
        #expect(Array(filtered[(2 * line)...]) == Array(filtered[..<line]))
    }

    /// ``PNGRowFilters/filter(_:stride:height:bpp:strategy:)`` on an array.
    static func filter(
        _ pixels: [UInt8], stride: Int, height: Int, bpp: Int, strategy: PNGRowFilters.Strategy
    ) throws -> [UInt8] {
        try pixels.withUnsafeBytes { raw in
            try Result { () throws(PNGError) in
                try PNGRowFilters.filter(
                    raw, stride: stride, height: height, bpp: bpp, strategy: strategy)
            }.get()
        }
    }
}
