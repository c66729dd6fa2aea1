import CWebP
import FlipbookRaster

/// Still WebP images (lossy or lossless, with or without alpha) through libwebp's simple
/// decoding API, as lottie-ios decodes them: Lottie files from some exporters embed their
/// images as `data:image/webp`. The header's size is checked with `accepting` before any
/// pixel memory exists; an animated WebP gives its first frame.
public enum WebPCodec {
    /// Whether the bytes start with a WebP container (`RIFF` … `WEBP`).
    public static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8)
            && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    public static func decode(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(WebPError) -> Pixmap {
        var width: Int32 = 0, height: Int32 = 0
        let known = bytes.withUnsafeBufferPointer {
            WebPGetInfo($0.baseAddress, $0.count, &width, &height)
        }
        guard known != 0, width > 0, height > 0 else {
            throw WebPError.unreadableImage
        }
        if let refusal = accepting(Int(width), Int(height)) {
            throw WebPError.refused(width: Int(width), height: Int(height), reason: refusal)
        }
        var straight = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let stride = Int32(width) * 4
        let decoded = bytes.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                WebPDecodeRGBAInto(src.baseAddress, src.count, dst.baseAddress, dst.count, stride)
            }
        }
        guard decoded != nil else { throw WebPError.corruptImage }
        return Pixmap(width: Int(width), height: Int(height), straightRGBA: straight)
    }
}
