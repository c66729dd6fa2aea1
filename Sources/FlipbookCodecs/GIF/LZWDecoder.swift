/// LZW decoding of GIF image data, for ``GIFGlobalMapOrder`` (which renumbers codes and,
/// where that cannot fit, decodes and compresses an image again). Reading GIFs for display
/// goes through giflib (``GIFReader``).
enum LZWDecoder {
    /// The `pixels` indices an image's LZW data decodes to (a GIF decoder's table: the
    /// strings as prefix code and last index, and each string's first index).
    static func decode(_ data: [UInt8], codeSize: Int, pixels: Int) throws -> [UInt8] {
        var bits = LZWBitReader(data)
        var widths = LZWCodeWidths(codeSize: codeSize)
        var prefix = [Int](repeating: -1, count: 4096)
        var last = [UInt8](repeating: 0, count: 4096), first = last
        for c in 0..<widths.clear { last[c] = UInt8(c); first[c] = UInt8(c) }
        var out = [UInt8]()
        out.reserveCapacity(pixels)
        var string = [UInt8]()
        var previous = -1
        while out.count < pixels, let code = bits.next(widths.bits) {
            if code == widths.clear {
                previous = -1
                widths.advance(code)
                continue
            }
            if code == widths.clear + 1 { break }
            let known =
                code < widths.clear
                || (previous >= 0 && code > widths.clear + 1 && code < widths.next)
            guard known || (previous >= 0 && code == widths.next && code < 4096) else {
                throw GIFError.lzwCodeNotInTable(code)
            }
            // The string, last index first; an unknown code is the previous string and its
            // own first index.
            string.removeAll(keepingCapacity: true)
            if !known { string.append(first[previous]) }
            var c = known ? code : previous
            while c >= 0 {
                string.append(last[c])
                c = prefix[c]
            }
            out.append(contentsOf: string.reversed())
            if previous >= 0 && widths.next < 4096 {
                prefix[widths.next] = previous
                last[widths.next] = string.last!
                first[widths.next] = first[previous]
            }
            widths.advance(code)
            previous = code
        }
        guard out.count >= pixels else {
            throw GIFError.lzwDataEnds(decoded: out.count, pixels: pixels)
        }
        return Array(out.prefix(pixels))
    }
}

/// The code width a GIF decoder reads next: `codeSize + 1` bits after a clear, one more
/// each time the table (which gains a string with every code but the first after a clear)
/// reaches the width's limit, at most 12 (a full table stops growing).
struct LZWCodeWidths {
    let codeSize: Int
    let clear: Int
    /// The next string code the table will assign.
    var next: Int
    var bits: Int
    var hasPrevious = false

    init(codeSize: Int) {
        self.codeSize = codeSize
        clear = 1 << codeSize
        next = clear + 2
        bits = codeSize + 1
    }

    @inline(__always) mutating func advance(_ code: Int) {
        if code == clear {
            next = clear + 2
            bits = codeSize + 1
            hasPrevious = false
            return
        }
        if hasPrevious && next < 4096 { next += 1 }
        hasPrevious = true
        if next >= 1 << bits && bits < 12 { bits += 1 }
    }
}

/// Reads LZW codes least significant bit first from an image's concatenated sub-blocks.
struct LZWBitReader {
    private let data: [UInt8]
    private var offset = 0
    private var accumulator: UInt64 = 0
    private var count = 0

    init(_ data: [UInt8]) { self.data = data }

    /// The next `bits`-bit code, nil at the end of the data.
    @inline(__always) mutating func next(_ bits: Int) -> Int? {
        while count < bits {
            guard offset < data.count else { return nil }
            accumulator |= UInt64(data[offset]) << UInt64(count)
            offset += 1
            count += 8
        }
        let code = Int(accumulator & ((1 << UInt64(bits)) - 1))
        accumulator >>= UInt64(bits)
        count -= bits
        return code
    }
}
