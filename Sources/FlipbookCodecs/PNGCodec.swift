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
        try decode(bytes, accepting: defaultLimit)
    }

    /// Largest image ``decode(_:)`` and ``read(path:)`` accept without a size check of the
    /// caller's: 2^26 pixels (8192 × 8192, 256 MiB decoded).
    public static let maxDefaultPixels = 1 << 26

    private static func defaultLimit(_ width: Int, _ height: Int) -> String? {
        width * height > maxDefaultPixels ? "PNG size \(width)×\(height) is over \(maxDefaultPixels) pixels" : nil
    }

    /// Decodes, first asking `accepting` about the size the header declares: a message
    /// it returns refuses the image before its pixels are allocated.
    public static func decode(_ bytes: [UInt8],
                              accepting: (_ width: Int, _ height: Int) -> String?) throws(PNGError) -> Pixmap {
        let (width, height, straight) = try decodeStraightRGBA(bytes, accepting: accepting)
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// Decodes to straight-alpha RGBA bytes as the file holds them (no premultiplication),
    /// for comparisons that must see the file's exact values (pixelmatch's fixtures).
    public static func decodeStraightRGBA(_ bytes: [UInt8]) throws(PNGError) -> (width: Int, height: Int, rgba: [UInt8]) {
        try decodeStraightRGBA(bytes, accepting: defaultLimit)
    }

    /// ``decodeStraightRGBA(_:)`` with the caller's size check (see ``decode(_:accepting:)``).
    public static func decodeStraightRGBA(_ bytes: [UInt8], accepting: (_ width: Int, _ height: Int) -> String?)
        throws(PNGError) -> (width: Int, height: Int, rgba: [UInt8]) {
        guard !bytes.isEmpty else { throw PNGError(message: "not a readable PNG: the file is empty") }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PNGError(message: "not a PNG file (wrong signature)")
        }
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
        if let refusal = accepting(width, height) { throw PNGError(message: refusal) }
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            straight.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw PNGError(message: "corrupt PNG: \(message(of: image))") }
        return (width, height, straight)
    }

    /// Reads and decodes a PNG file.
    public static func read(path: String) throws(PNGError) -> Pixmap {
        try read(path: path, accepting: defaultLimit)
    }

    /// Reads a PNG file, letting `accepting` refuse it by the size in its header.
    public static func read(path: String,
                            accepting: (_ width: Int, _ height: Int) -> String?) throws(PNGError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch { throw PNGError(message: "\(path): \(error.reason)") }
        do { return try decode(bytes, accepting: accepting) } catch { throw PNGError(message: "\(path): \(error.message)") }
    }

    /// Encodes a pixmap as an 8-bit RGBA PNG (straight alpha) with libpng's defaults
    /// (zlib level 6, adaptive row filters).
    public static func encode(_ pixmap: Pixmap) throws(PNGError) -> [UInt8] {
        try encode(pixmap, compressionLevel: 6)
    }

    /// Encodes with a speed/size trade-off. The simplified libpng API has no zlib-level
    /// knob, so levels are coarse: 0…3 use `PNG_IMAGE_FLAG_FAST` (no row filters, zlib
    /// level 3: much faster, larger files), 4…9 libpng's defaults (zlib 6, adaptive filters).
    /// Exact zlib levels need libpng's full API, whose longjmp errors need a C shim.
    public static func encode(_ pixmap: Pixmap, compressionLevel: Int) throws(PNGError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixmap.width)
        image.height = UInt32(pixmap.height)
        image.format = rgbaFormat
        if compressionLevel <= 3 { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        defer { png_image_free(&image) }
        let straight = pixmap.straightRGBA()
        // One compression pass into a buffer sized for the worst case (stored deflate blocks,
        // 8 KiB IDAT chunks); libpng reports the needed size if it was still too small.
        let raw = (pixmap.width * 4 + 1) * pixmap.height
        var capacity = raw + 5 * (raw / 16_000 + 1) + 12 * (raw / 8_000 + 1) + 8_192
        for _ in 0..<2 {
            var size = capacity
            var out = [UInt8](repeating: 0, count: capacity)
            let written = straight.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0, src.baseAddress,
                                              Int32(pixmap.width * 4), nil)
                }
            }
            if written != 0 && size <= capacity {
                return Array(out[..<size])
            }
            guard size > capacity else { break }
            capacity = size
            image.warning_or_error = 0
        }
        throw PNGError(message: "PNG encoding failed: \(message(of: image))")
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
