import Testing
import FlipbookCodecs

/// The chunk layout of our APNGs checked against the APNG specification by a parser of
/// the tests' own (not the reader under test), CRCs by a bitwise CRC-32.
struct APNGLayout {
    struct Control {
        var sequence, width, height, x, y, delayNumerator, delayDenominator: Int;
        var dispose, blend: UInt8
    }
    var types: [String] = []
    var controls: [Control] = []
    var sequences: [Int] = []
    var ihdr: [UInt8] = []
    var frameCount = -1, plays = -1
    var text: String?
    var crcsValid = true

    init(_ b: [UInt8]) throws {
        try #require(Array(b.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be(_ i: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 << 8 | Int(b[i + $1]) } }
        var i = 8
        while i + 12 <= b.count {
            let length = be(i, 4)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let data = Array(b[(i + 8)..<(i + 8 + length)])
            if Self.crc(Array(b[(i + 4)..<(i + 8)]) + data) != UInt32(be(i + 8 + length, 4)) {
                crcsValid = false
            }
            types.append(type)
            let d = i + 8
            switch type {
            case "IHDR": ihdr = data
            case "acTL": frameCount = be(d, 4); plays = be(d + 4, 4)
            case "tEXt": text = String(decoding: data, as: UTF8.self)
            case "fcTL":
                controls.append(
                    Control(
                        sequence: be(d, 4), width: be(d + 4, 4), height: be(d + 8, 4),
                        x: be(d + 12, 4),
                        y: be(d + 16, 4), delayNumerator: be(d + 20, 2),
                        delayDenominator: be(d + 22, 2),
                        dispose: b[d + 24], blend: b[d + 25]))
                sequences.append(be(d, 4))
            case "fdAT": sequences.append(be(d, 4))
            default: break
            }
            i += 12 + length
        }
    }

    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

@Suite struct APNGChunkLayoutTests {
    @Test func chunksFollowTheSpecification() throws {
        let layout = try APNGLayout(try APNGSamples.encoded())
        #expect(layout.crcsValid)
        // IHDR first, IEND last; acTL and the tEXt before the first IDAT; fcTL 0 before IDAT.
        #expect(layout.types.first == "IHDR" && layout.types.last == "IEND")
        let firstIDAT = try #require(layout.types.firstIndex(of: "IDAT"))
        #expect(layout.types.firstIndex(of: "acTL")! < firstIDAT)
        #expect(layout.types.firstIndex(of: "tEXt")! < firstIDAT)
        #expect(layout.types.firstIndex(of: "fcTL")! < firstIDAT)
        #expect(!layout.types[..<firstIDAT].contains("fdAT"))
        #expect(layout.text == "flipbook-hash\0abc")
        // 48×32, 8-bit indexed (the samples hold under 256 colours), deflate, adaptive
        // filters, not interlaced; PLTE and tRNS (the samples have transparent pixels) before IDAT.
        #expect(layout.ihdr == [0, 0, 0, 48, 0, 0, 0, 32, 8, 3, 0, 0, 0])
        #expect(layout.types.firstIndex(of: "PLTE")! < layout.types.firstIndex(of: "tRNS")!)
        #expect(layout.types.firstIndex(of: "tRNS")! < firstIDAT)
        #expect(layout.frameCount == layout.controls.count && layout.plays == 0)
        // fcTL and fdAT share one sequence: 0, 1, 2, … without gaps, in file order.
        #expect(layout.sequences == Array(0..<layout.sequences.count))
        // Each fcTL is followed by its data (IDAT for frame 0, fdAT after).
        for (index, type) in layout.types.enumerated() where type == "fcTL" {
            #expect(["IDAT", "fdAT"].contains(layout.types[index + 1]))
        }
        let first = try #require(layout.controls.first)
        #expect(first.width == 48 && first.height == 32 && first.x == 0 && first.y == 0)
        for c in layout.controls {
            #expect(c.width > 0 && c.height > 0 && c.x + c.width <= 48 && c.y + c.height <= 32)
            #expect(c.delayDenominator == 30 && c.delayNumerator >= 1)
            #expect(c.dispose <= 2 && c.blend <= 1)
        }
        // Frames 4 and 5 are one frame of 2/30 s.
        #expect(layout.controls.map(\.delayNumerator) == [1, 1, 1, 1, 2, 1, 1, 1])
    }

    @Test func readerRefusesBrokenFiles() throws {
        let good = try APNGSamples.encoded()
        let layout = try APNGLayout(good)
        #expect(throws: PNGError.self) {
            try APNGReader.decode(Array(good.prefix(good.count - 20)))
        }
        // A flipped byte inside the first fdAT's data: its CRC no longer matches.
        var corrupt = good
        let fdAT = try #require(Self.offset(of: "fdAT", in: good))
        corrupt[fdAT + 12] ^= 0xFF
        #expect(throws: PNGError.self) { try APNGReader.decode(corrupt) }
        // A frame control whose region leaves the canvas, with a valid CRC.
        var outside = good
        let fcTL = try #require(Self.offset(of: "fcTL", in: good, skipping: 1))
        outside[fcTL + 8 + 12 + 3] = 200  // x_offset = 200
        let crc = APNGLayout.crc(Array(outside[(fcTL + 4)..<(fcTL + 8 + 26)]))
        for k in 0..<4 {
            outside[fcTL + 34 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k)))
        }
        #expect(throws: PNGError.self) { try APNGReader.decode(outside) }
        #expect(layout.controls.count > 2)
    }

    /// The data of the first chunk of `type`.
    static func chunkData(_ type: String, in b: [UInt8]) -> [UInt8]? {
        guard let i = offset(of: type, in: b) else { return nil }
        let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        return Array(b[(i + 8)..<(i + 8 + length)])
    }

    /// The offset of the (skipping+1)-th chunk of `type`.
    static func offset(of type: String, in b: [UInt8], skipping: Int = 0) -> Int? {
        var i = 8, seen = 0
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            if String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self) == type {
                if seen == skipping { return i }
                seen += 1
            }
            i += 12 + length
        }
        return nil
    }
}
