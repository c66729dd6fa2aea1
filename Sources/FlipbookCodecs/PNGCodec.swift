import CLibPNG
import FlipbookRaster

/// A PNG file that could not be read or written, with libpng's own message.
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// PNG encoding and decoding through libpng's simplified API (`png_image`), which
/// catches libpng's longjmp errors and reports them as a flag and a message, so a corrupt
/// file cannot take the process down.
///
/// Pixels cross this boundary as ``Pixmap`` (premultiplied); files hold straight-alpha
/// RGBA, 8 bits per channel.
public enum PNGCodec {
    /// Decodes PNG bytes of any color type and depth to a premultiplied pixmap.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> Pixmap {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw PNGError(message: "not a readable PNG: \(message(of: image))") }
        defer { png_image_free(&image) }
        image.format = rgbaFormat
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw PNGError(message: "PNG size \(width)×\(height) is out of range")
        }
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            straight.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw PNGError(message: "corrupt PNG: \(message(of: image))") }
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// Reads and decodes a PNG file.
    public static func read(path: String) throws(PNGError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch { throw PNGError(message: "\(path): \(error)") }
        do { return try decode(bytes) } catch { throw PNGError(message: "\(path): \(error.message)") }
    }

    /// Encodes a pixmap as an 8-bit RGBA PNG (straight alpha).
    public static func encode(_ pixmap: Pixmap) throws(PNGError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixmap.width)
        image.height = UInt32(pixmap.height)
        image.format = rgbaFormat
        let straight = pixmap.straightRGBA()
        var size = 0
        // First call measures, second writes.
        let measured = straight.withUnsafeBytes { src in
            png_image_write_to_memory(&image, nil, &size, 0, src.baseAddress, Int32(pixmap.width * 4), nil)
        }
        guard measured != 0, size > 0 else { throw PNGError(message: "PNG encoding failed: \(message(of: image))") }
        var out = [UInt8](repeating: 0, count: size)
        let written = straight.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, src.baseAddress,
                                          Int32(pixmap.width * 4), nil)
            }
        }
        guard written != 0 else { throw PNGError(message: "PNG encoding failed: \(message(of: image))") }
        png_image_free(&image)
        return Array(out.prefix(size))
    }

    /// Encodes and writes atomically: to a temporary file beside `path`, then renamed.
    public static func write(_ pixmap: Pixmap, to path: String) throws(PNGError) {
        let bytes = try encode(pixmap)
        do { try FileIO.writeAtomically(bytes, to: path) } catch { throw PNGError(message: "\(path): \(error)") }
    }

    /// PNG_FORMAT_RGBA: a function-like macro, so Swift does not import it.
    private static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    private static func message(of image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
