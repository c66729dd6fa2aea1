import Testing
import FlipbookRaster
@testable import FlipbookCodecs

@Suite struct PNGCodecTests {
    /// Straight-alpha pixels survive encode → decode exactly when alpha is 0 or 255; for
    /// translucent pixels the premultiplied values survive within rounding.
    @Test func roundTripKeepsPixels() throws {
        var straight: [UInt8] = []
        for y in 0..<7 {
            for x in 0..<5 { straight += [UInt8(x * 50), UInt8(y * 40), 200, x == 4 ? 128 : 255] }
        }
        let pixmap = Pixmap(width: 5, height: 7, straightRGBA: straight)
        let decoded = try PNGCodec.decode(try PNGCodec.encode(pixmap))
        #expect(decoded.width == 5 && decoded.height == 7)
        for i in 0..<pixmap.data.count {
            #expect(abs(Int(decoded.data[i]) - Int(pixmap.data[i])) <= 1)
        }
    }

    /// Every compression is lossless; a large noisy image exercises the output buffer's growth.
    @Test func compressionLevelsRoundTrip() throws {
        var straight: [UInt8] = []
        var seed: UInt32 = 12345
        for _ in 0..<(300 * 200) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            straight += [
                UInt8(seed >> 24), UInt8((seed >> 16) & 0xFF), UInt8((seed >> 8) & 0xFF), 255,
            ]
        }
        let pixmap = Pixmap(width: 300, height: 200, straightRGBA: straight)
        for compression in PNGCompression.allCases {
            #expect(
                try PNGCodec.decode(try PNGCodec.encode(pixmap, compression: compression)) == pixmap
            )
        }
        #expect(try PNGCodec.decode(try PNGCodec.encodeWithSimplifiedAPI(pixmap)) == pixmap)
    }

    @Test func corruptBytesThrowInsteadOfCrashing() throws {
        var bytes = try PNGCodec.encode(Pixmap(width: 20, height: 20))
        #expect(throws: PNGError.self) { try PNGCodec.decode(Array(bytes.prefix(40))) }
        bytes[bytes.count / 2] ^= 0xFF
        bytes[bytes.count / 2 + 1] ^= 0xFF
        #expect(throws: PNGError.self) { try PNGCodec.decode([1, 2, 3]) }
    }

    @Test func atomicWriteLeavesNoTemporaryFiles() throws {
        let folder = "/tmp/flipbook-png-\(UInt32.random(in: 0...UInt32.max))"
        _ = folder.withCString { mkdir($0, 0o755) }
        let path = folder + "/a.png"
        try PNGCodec.write(Pixmap(width: 3, height: 3), to: path)
        let back = try PNGCodec.read(path: path)
        #expect(back.width == 3)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
