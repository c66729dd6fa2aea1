import FlipbookCodecs
import FlipbookRaster
import Testing

/// Hostile animated PNG and WebP files, as `flipbook diff` reads them (issue 22): each is
/// read or refused with an error, never a trap, a blow-up or a hang. The inputs are made
/// here from files our own encoders write, edited the way the fuzzer's findings were.
@Suite struct HostileAnimationTests {
    /// The RIFF chunks after "WEBP": (fourCC, whole chunk with header and padding).
    static func riffChunks(_ bytes: [UInt8]) -> [(type: String, bytes: [UInt8])] {
        var chunks: [(String, [UInt8])] = [], i = 12
        while i + 8 <= bytes.count {
            let size =
                Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(
                    bytes[i + 7]) << 24
            let end = min(bytes.count, i + 8 + size + (size & 1))
            chunks.append(
                (String(decoding: bytes[i..<(i + 4)], as: UTF8.self), Array(bytes[i..<end])))
            i = end
        }
        return chunks
    }

    /// A RIFF WebP file of `chunks`.
    static func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + [
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF),
            UInt8(size >> 24),
        ]
            + body
    }

    /// 140 frames of the longest duration a WebP frame holds (2^24 − 1 ms, 4.6 hours):
    /// libwebp's 32-bit end times wrap past 2^31 ms at frame 128, and their difference
    /// trapped (found reading the reader with the fuzzer's webp kind in mind: 6.8 KB, two
    /// lossless frames of our encoder repeated with the duration field set to 0xFFFFFF).
    @Test func durationsPastTwoToThe31MillisecondsAreRead() throws {
        let frames = [
            WebPAnimationTests.frame(0, transparent: false),
            WebPAnimationTests.frame(1, transparent: false),
        ]
        let two = try WebPAnimationTests.encode(
            frames, options: WebPEncodingOptions(lossless: true))
        let chunks = Self.riffChunks(two)
        let head = chunks.filter { $0.type != "ANMF" }.map(\.bytes)
        let anmf = chunks.filter { $0.type == "ANMF" }.map(\.bytes)
        try #require(anmf.count == 2)
        let longest = 0xFF_FFFF
        let repeated = (0..<140).map { k in
            var chunk = anmf[k % 2]
            // ANMF payload: X, Y, width − 1, height − 1, then the 24-bit duration.
            chunk.replaceSubrange(20..<23, with: [0xFF, 0xFF, 0xFF])
            return chunk
        }
        let decoded = try WebPAnimationReader.decode(Self.riff(head + repeated))
        #expect(decoded.frames.count == 140)
        #expect(decoded.durations == Array(repeating: longest, count: 140))
    }

    /// The fuzzer's webp kind at a 256 MiB budget: 982 bytes whose canvas is 65511×49 with
    /// seven 8×8 frames, 22 million pixels to composite and premultiply (over 20 s under
    /// ASan in a debug build). Inside that budget it is a valid file; at the fuzz kinds'
    /// 16 MiB it is refused before any frame is decoded, naming the limit.
    @Test func aWideCanvasIsCountedAgainstTheBudget() throws {
        let frames = [
            WebPAnimationTests.frame(0, transparent: false),
            WebPAnimationTests.frame(1, transparent: false),
        ]
        var bytes = try WebPAnimationTests.encode(
            frames, options: WebPEncodingOptions(lossless: true))
        try #require(Array(bytes[12..<16]) == Array("VP8X".utf8))
        // Canvas width and height minus one, 24 bits each: 65510 and 48.
        bytes.replaceSubrange(24..<30, with: [0xE6, 0xFF, 0x00, 0x30, 0x00, 0x00])
        #expect {
            try WebPAnimationReader.decode(bytes, maxBytes: 16 << 20)
        } throws: { error in
            "\(error)".contains("2 frames of 65511×49 px")
                && "\(error)".contains("the memory limit")
        }
    }

    /// A PNG chunk: length, type, data, CRC-32 (bitwise, as the PNG spec gives it).
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return be32(data.count) + typed + be32(Int(crc ^ 0xFFFF_FFFF))
    }

    static func be32(_ v: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) }
    }

    /// A zlib stream holding `raw` in one stored (uncompressed) deflate block.
    static func storedZlib(_ raw: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let n = raw.count
        return [
            0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF),
            UInt8(~n >> 8 & 0xFF),
        ] + raw
            + be32(Int(b << 16 | a))
    }

    /// A 1×1 one-frame APNG (a red pixel) with `before` empty unknown chunks ahead of its IDAT
    /// and `after` empty fdAT chunks after it (whose payloads join the frame's data).
    static func paddedAPNG(before: Int, after: Int) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += pngChunk("IHDR", be32(1) + be32(1) + [8, 6, 0, 0, 0])
        png += pngChunk("acTL", be32(1) + be32(0))
        png += pngChunk(
            "fcTL", be32(0) + be32(1) + be32(1) + be32(0) + be32(0) + [0, 1, 0, 10, 0, 0])
        let unknown = pngChunk("zzZz", [])
        for _ in 0..<before { png += unknown }
        png += pngChunk("IDAT", storedZlib([0, 255, 0, 0, 255]))
        for k in 0..<after { png += pngChunk("fdAT", be32(k + 1)) }
        return png + pngChunk("IEND", [])
    }

    /// Every fdAT chunk was checked against the first IDAT found by a search from the start:
    /// quadratic in the chunks before IDAT (an 8.4 MB file of 300,000 unknown chunks, the
    /// IDAT, then 300,000 empty fdAT chunks ran over a minute in a release build; found
    /// reading the reader, made by hand). At 20,000 of each that search made 4·10^8 chunk
    /// comparisons; the first IDAT is now found once, while the chunks are listed.
    @Test func chunksBeforeIDATDoNotMakeFdATQuadratic() throws {
        let bytes = Self.paddedAPNG(before: 20_000, after: 20_000)
        #expect(APNGReader.isAnimated(bytes))
        let clock = ContinuousClock()
        let started = clock.now
        let decoded = try APNGReader.decode(bytes)
        #expect(started.duration(to: clock.now) < .seconds(2))
        #expect(decoded.frames.count == 1 && decoded.delaySeconds == [0.1])
        #expect(decoded.frames[0].data == [255, 0, 0, 255])
    }
}
