import FlipbookCodecs
import FlipbookRaster
import Foundation
import Testing

/// JPEG decoding (libjpeg-turbo): checked against Pillow's decode of the same files
/// (Tests/Corpus/images/jpeg/README.md), and hostile files refused with a message.
@Suite struct JPEGCodecTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Corpus/images/jpeg").path

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileIO.readAll(path: folder + "/" + name)
    }

    @Test(arguments: ["ramp-420", "ramp-444-progressive", "ramp-gray"])
    func decodesAsPillowDoes(_ name: String) throws {
        let bytes = try Self.bytes(name + ".jpg")
        #expect(JPEGCodec.isJPEG(bytes))
        let image = try ImageDecoder.decode(bytes) { _, _ in nil }
        let expected = try PNGCodec.read(path: Self.folder + "/" + name + ".expected.png")
        #expect(image.width == 48 && image.height == 32)
        #expect(image.width == expected.width && image.height == expected.height)
        var worst = 0
        for i in image.data.indices {
            worst = max(worst, abs(Int(image.data[i]) - Int(expected.data[i])))
        }
        #expect(worst <= 2, "\(name): up to \(worst) levels from Pillow's decode")
        // Opaque everywhere.
        #expect(stride(from: 3, to: image.data.count, by: 4).allSatisfy { image.data[$0] == 255 })
    }

    @Test func pngStillGoesThroughLibpng() throws {
        let png = try FileIO.readAll(path: Self.folder + "/ramp-420.expected.png")
        #expect(!JPEGCodec.isJPEG(png))
        let image = try ImageDecoder.decode(png) { _, _ in nil }
        #expect(image == (try PNGCodec.decode(png)))
    }

    @Test(arguments: [
        ("truncated-header.jpg", "not a readable JPEG"),
        ("not-a-jpeg-after-soi.jpg", "not a readable JPEG"),
    ])
    func hostileFilesAreRefused(_ name: String, _ expected: String) throws {
        let bytes = try Self.bytes(name)
        do {
            _ = try JPEGCodec.decode(bytes) { _, _ in nil }
            Issue.record("\(name) decoded")
        } catch {
            #expect(error.message.hasPrefix(expected), "\(name): \(error.message)")
        }
    }

    @Test func theSizeIsCheckedBeforeDecoding() throws {
        var asked: (Int, Int)?
        let bytes = try Self.bytes("ramp-420.jpg")
        do {
            _ = try JPEGCodec.decode(bytes) { w, h in
                asked = (w, h); return "too large for the test"
            }
            Issue.record("decoded despite the refusal")
        } catch {
            #expect(error.message == "too large for the test")
        }
        #expect(asked?.0 == 48 && asked?.1 == 32)
    }

    @Test func everyPrefixIsAnErrorOrAnImage() throws {
        let good = try Self.bytes("ramp-420.jpg")
        for length in stride(from: 0, to: good.count, by: 7) {
            // A truncated scan may still decode (libjpeg fills the rest); it must not crash.
            _ = try? JPEGCodec.decode(Array(good.prefix(length))) { _, _ in nil }
        }
    }
}
