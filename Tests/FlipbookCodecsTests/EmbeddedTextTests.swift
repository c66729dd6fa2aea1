import Testing
import FlipbookRaster
@testable import FlipbookCodecs

/// A GIF comment and a PNG `tEXt` chunk: written where the readers look (before the
/// first image, before the image data), read back from those first bytes alone, and
/// neutral to the pixels.
@Suite struct EmbeddedTextTests {
    /// Three frames whose colors make the writer's last pass reorder the global map.
    static func writeGIF(to path: String, comment: String?) throws {
        let writer = try GIFWriter(
            path: path, width: 24, height: 16, loopCount: 0, background: nil, comment: comment)
        let colors: [(UInt8, UInt8, UInt8, UInt8)] = [
            (250, 10, 10, 255), (10, 250, 10, 255), (10, 10, 250, 255),
        ]
        for (k, color) in colors.enumerated() {
            let frame = GIFTestSupport.frame(
                width: 24, height: 16, fill: (255, 255, 255, 255),
                rects: [(x: 2 + 6 * k, y: 3, w: 5, h: 5, color: color)])
            try writer.append(frame, delayCentiseconds: 10)
        }
        try writer.finish()
    }

    @Test func aGIFCommentIsFoundBeforeTheFramesAndChangesNoPixel() throws {
        let folder = GIFTestSupport.scratchFolder()
        let long = String(repeating: "0123456789abcdef", count: 20)  // 320 bytes: two sub-blocks
        for comment in ["flipbook-hash 2f0a", long] {
            try Self.writeGIF(to: folder + "/with.gif", comment: comment)
            #expect(GIFComment.read(path: folder + "/with.gif") == [comment])
        }
        try Self.writeGIF(to: folder + "/without.gif", comment: nil)
        #expect(GIFComment.read(path: folder + "/without.gif").isEmpty)
        let with = try GIFReader.read(path: folder + "/with.gif"),
            without = try GIFReader.read(path: folder + "/without.gif")
        #expect(with.frames == without.frames && with.delays == without.delays)
        // The comment adds its bytes and nothing else: 2 (introducer, label) + 2 + 2 sub-block
        // lengths + 320 + the terminator.
        let a = try FileIO.readAll(path: folder + "/with.gif").count,
            b = try FileIO.readAll(path: folder + "/without.gif").count
        #expect(a - b == 2 + 2 + 320 + 1)

        // Cut just after the first image descriptor: no decoder could read it, the comment is still found.
        var bytes = try FileIO.readAll(path: folder + "/with.gif")
        let comment = try #require(
            (0..<(bytes.count - 1)).first { bytes[$0] == 0x21 && bytes[$0 + 1] == 0xFE })
        var end = comment + 2
        while bytes[end] != 0 { end += Int(bytes[end]) + 1 }
        // Then the first frame's graphics control extension (8 bytes) and image descriptor (10).
        #expect(bytes[end + 1] == 0x21 && bytes[end + 9] == 0x2C)
        bytes.removeSubrange((end + 1 + 8 + 10)...)
        try FileIO.writeAtomically(bytes, to: folder + "/cut.gif")
        #expect(throws: (any Error).self) { try GIFReader.read(path: folder + "/cut.gif") }
        #expect(GIFComment.read(path: folder + "/cut.gif") == [long])
        #expect(GIFComment.read(path: folder + "/missing.gif").isEmpty)
    }

    @Test func aPNGTextChunkIsFoundBeforeTheImageDataAndChangesNoPixel() throws {
        let folder = GIFTestSupport.scratchFolder()
        let image = GIFTestSupport.frame(
            width: 20, height: 12, fill: (30, 60, 90, 128),
            rects: [(x: 3, y: 3, w: 6, h: 4, color: (200, 20, 20, 255))])
        for compression in PNGCompression.allCases {
            let plain = try PNGCodec.encode(image, compression: compression)
            let tagged = try PNGCodec.encode(
                image, compression: compression,
                text: PNGText(keyword: "flipbook-hash", text: "c0ffee"))
            // 12 bytes of chunk framing + "flipbook-hash" + NUL + "c0ffee".
            #expect(tagged.count - plain.count == 12 + 13 + 1 + 6, "\(compression)")
            #expect(try PNGCodec.decode(tagged) == PNGCodec.decode(plain), "\(compression)")
            try FileIO.writeAtomically(tagged, to: folder + "/tagged.png")
            #expect(
                PNGText.read(path: folder + "/tagged.png", keyword: "flipbook-hash") == "c0ffee")
            #expect(PNGText.read(path: folder + "/tagged.png", keyword: "flipbook") == nil)
            try FileIO.writeAtomically(plain, to: folder + "/plain.png")
            #expect(PNGText.read(path: folder + "/plain.png", keyword: "flipbook-hash") == nil)
        }
        // Only the chunks before IDAT are read: the image data may be anything.
        var bytes = try PNGCodec.encode(
            image, compression: .default, text: PNGText(keyword: "k", text: "v"))
        let idat = try #require(
            (0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        bytes.replaceSubrange((idat + 4)...(idat + 8), with: [0, 0, 0, 0, 0])
        try FileIO.writeAtomically(bytes, to: folder + "/broken.png")
        #expect(throws: PNGError.self) { try PNGCodec.read(path: folder + "/broken.png") }
        #expect(PNGText.read(path: folder + "/broken.png", keyword: "k") == "v")
        #expect(PNGText.read(path: folder + "/missing.png", keyword: "k") == nil)
    }
}
