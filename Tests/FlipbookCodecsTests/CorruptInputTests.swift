import FlipbookCodecs
import Foundation
import Testing

/// Corrupt, truncated and hostile PNG and GIF files: each is refused with an error, never
/// a crash, and never after allocating what its header claims.
@Suite struct CorruptInputTests {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Corpus/images").path

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileIO.readAll(path: images + "/" + name)
    }

    static func pngMessage(_ bytes: [UInt8], accepting: ((Int, Int) -> String?)? = nil) -> String? {
        do {
            if let accepting {
                _ = try PNGCodec.decode(bytes, accepting: accepting)
            } else {
                _ = try PNGCodec.decode(bytes)
            }
            return nil
        } catch {
            return error.message
        }
    }

    @Test func everyPrefixOfAPNGIsAnErrorOrAnImage() throws {
        let good = try Self.bytes("ok.png")
        #expect(Self.pngMessage(good) == nil)
        for length in 0..<good.count {
            let message = Self.pngMessage(Array(good.prefix(length)))
            // Only a file that lacks nothing but IEND decodes.
            #expect(
                (message == nil) == (length >= good.count - 12),
                "prefix \(length): \(message ?? "decoded")")
        }
    }

    @Test(arguments: [
        ("zero-size.png", "not a readable PNG: the file is empty"),
        ("wrong-signature.png", "not a PNG file (wrong signature)"),
        ("text.png", "not a PNG file (wrong signature)"),
        ("truncated-signature.png", "not a PNG file (wrong signature)"),
        ("truncated-after-signature.png", "not a readable PNG: read beyond end of data"),
        ("truncated-in-ihdr.png", "not a readable PNG: read beyond end of data"),
        ("truncated-after-ihdr.png", "not a readable PNG: read beyond end of data"),
        ("truncated-in-idat.png", "corrupt PNG: read beyond end of data"),
        ("bad-crc-ihdr.png", "not a readable PNG: IHDR: CRC error"),
        ("bad-crc-idat.png", "corrupt PNG: IDAT: CRC error"),
        ("bad-zlib.png", "corrupt PNG: IDAT: invalid block type"),
        ("zero-width.png", "not a readable PNG: Invalid IHDR data"),
        ("absurd-declared.png", "not a readable PNG: Invalid IHDR data"),
        ("huge-declared.png", "PNG size 30000×30000 is over 67108864 pixels"),
    ]) func corruptPNG(_ name: String, _ expected: String) throws {
        #expect(Self.pngMessage(try Self.bytes(name)) == expected)
    }

    @Test func theHeaderSizeIsCheckedBeforeDecoding() throws {
        var asked: (Int, Int)?
        let message = Self.pngMessage(try Self.bytes("ok.png")) { w, h in
            asked = (w, h)
            return "too big"
        }
        #expect(message == "too big")
        #expect(asked.map { [$0.0, $0.1] } == [4, 4])
    }

    @Test func readNamesTheFileAndTheReason() throws {
        let path = Self.images + "/bad-crc-idat.png"
        #expect(throws: PNGError.self) { try PNGCodec.read(path: path) }
        do { _ = try PNGCodec.read(path: path) } catch {
            #expect(error.message == "\(path): corrupt PNG: IDAT: CRC error")
        }
        let missing = Self.images + "/nothere.png"
        do { _ = try PNGCodec.read(path: missing) } catch {
            #expect(error.message == "\(missing): No such file or directory")
        }
    }

    /// Found by scripts/fuzz: 306 and 354 bytes whose image descriptors ask giflib for
    /// 1.4 GB (the second hides its descriptor behind an extension whose first sub-block
    /// is empty, which giflib reads past).
    @Test(arguments: ["fuzz-gif-oom-huge-descriptor.gif", "fuzz-gif-oom-2.gif"])
    func aGIFThatAsksForGigabytesIsRefusedFirst(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let sizes = try #require(GIFDecodeBudget.declaredSizes(bytes))
        #expect(
            sizes.images.contains { $0.width * $0.height > GIFDecodeBudget.defaultMaxBytes / 2 })
        do {
            _ = try GIFReader.decode(bytes)
            Issue.record("decoded")
        } catch let error as GIFError {
            // One image alone is larger than the largest canvas accepted: malformed, and
            // not a question of the memory limit.
            #expect(
                error.message.contains("is 34047×43407 px, more than the 67108864 pixels accepted"))
            #expect(!error.exceedsMemoryLimit)
        }
    }

    /// The budget is the sum the decoder will allocate: one byte per pixel of every image
    /// descriptor (giflib's raster bits, all kept until the file closes) plus four bytes
    /// per canvas pixel for every frame and two working canvases.
    @Test func theBudgetIsTheSumOfWhatDecodingAllocates() throws {
        // Logical screen 100×50, then 3 images of 10×10: 300 + 4 × 5000 × 5 = 100300 bytes.
        var gif: [UInt8] = Array("GIF89a".utf8) + [100, 0, 50, 0, 0x00, 0, 0]
        for _ in 0..<3 { gif += [0x2C, 0, 0, 0, 0, 10, 0, 10, 0, 0, 2, 0] }
        gif.append(0x3B)
        #expect(throws: Never.self) {
            try GIFDecodeBudget.check(gif, canvasLimit: 1 << 26, maxBytes: 100_300)
        }
        do {
            try GIFDecodeBudget.check(gif, canvasLimit: 1 << 26, maxBytes: 100_299)
            Issue.record("accepted one byte over")
        } catch {
            #expect(error.exceedsMemoryLimit)
            #expect(
                error.message
                    == "GIF has 3 frames of 100×50 px; decoding them would take more than 100299 bytes, the memory limit"
            )
        }
        // An image larger than the largest accepted is malformed, not over the memory budget.
        do {
            try GIFDecodeBudget.check(gif, canvasLimit: 99, maxBytes: .max)
            Issue.record("accepted an image over the canvas limit")
        } catch {
            #expect(!error.exceedsMemoryLimit)
            #expect(error.message == "GIF image 0 is 10×10 px, more than the 99 pixels accepted")
        }
    }

    @Test func manyFramesOfALargeCanvasAreRefused() {
        // Logical screen 4096×4096, then 20 empty 1×1 images: 20 decoded frames of 16 Mpx.
        var gif: [UInt8] = Array("GIF89a".utf8) + [0x00, 0x10, 0x00, 0x10, 0x00, 0, 0]
        for _ in 0..<20 { gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0] }
        gif.append(0x3B)
        #expect(throws: GIFError.self) { try GIFDecodeBudget.check(gif, canvasLimit: 1 << 26) }
        #expect(throws: Never.self) {
            try GIFDecodeBudget.check(Array(gif.prefix(13 + 12 * 2)) + [0x3B], canvasLimit: 1 << 26)
        }
    }
}
