import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// WebP images through libwebp: a 4×3 lossless WebP with alpha, written by Pillow (an
/// independent encoder) from the straight RGBA pixels listed here, decodes to exactly
/// those pixels; the size is asked before any pixel memory exists; broken data is an error.
@Suite struct WebPCodecTests {
    /// Pillow 13: `Image.new("RGBA", (4, 3)).putdata(pixels).save(f, "WEBP", lossless=True, exact=True)`.
    static let lossless = Array(
        Data(
            base64Encoded:
                "UklGRmQAAABXRUJQVlA4TFgAAAAvA4AAEF9gpm0bS2VQnIM9DHtHw0zAJIOP+qQykS+KAaCBOjAS6D9/mJFkpo2UvipWRkQhD18E8BgD0AtsATv2Ndn5n72ra4EggIQnjgg2GG+DVSP6H2Y9"
        )!)
    static let pixels: [[UInt8]] = [
        [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 0],
        [10, 20, 30, 128], [200, 100, 50, 255], [0, 0, 0, 255], [255, 255, 0, 64],
        [1, 2, 3, 4], [90, 90, 90, 255], [0, 128, 255, 200], [255, 0, 255, 255],
    ]

    @Test func losslessDecodesToTheWrittenPixels() throws {
        #expect(WebPCodec.isWebP(Self.lossless))
        let image = try ImageDecoder.decode(Self.lossless) { _, _ in nil }
        #expect(image.width == 4 && image.height == 3)
        // Premultiplied as every decoder here stores pixels: the same as a pixmap made from the straight values.
        let expected = Pixmap(width: 4, height: 3, straightRGBA: Self.pixels.flatMap { $0 })
        #expect(image.data == expected.data)
    }

    @Test func sizeIsAskedFirstAndBrokenDataRefused() {
        var asked: (Int, Int)?
        #expect(throws: WebPError.refused(width: 4, height: 3, reason: "too big")) {
            _ = try WebPCodec.decode(Self.lossless) { w, h in
                asked = (w, h); return "too big"
            }
        }
        #expect(asked.map { $0 == (4, 3) } == true)
        var broken = Self.lossless
        broken.replaceSubrange(
            30..<broken.count, with: [UInt8](repeating: 0, count: broken.count - 30))
        #expect(throws: WebPError.corruptImage) { _ = try WebPCodec.decode(broken) { _, _ in nil } }
        #expect(!WebPCodec.isWebP(Array("RIFF0000WAVE".utf8)))
    }
}
