import CLibPNG
import CPNGShim
import FlipbookRaster

/// PNG encoding and decoding through libpng: its full API behind the CPNGShim C layer
/// (which catches libpng's longjmp errors and returns them as results), and its simplified
/// API (`png_image`, which does the same itself) for the files that need color conversion.
/// A corrupt file cannot take the process down.
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
        width * height > maxDefaultPixels
            ? "PNG size \(width)×\(height) is over \(maxDefaultPixels) pixels" : nil
    }

    /// Decodes to straight-alpha RGBA bytes as the file holds them (no premultiplication),
    /// for comparisons that must see the file's exact values (pixelmatch's fixtures).
    public static func decodeStraightRGBA(_ bytes: [UInt8]) throws(PNGError) -> (
        width: Int, height: Int, rgba: [UInt8]
    ) {
        try decodeStraightRGBA(bytes, accepting: defaultLimit)
    }

    /// Decodes, first asking `accepting` about the size the header declares: a message
    /// it returns refuses the image before its pixels are allocated.
    public static func decode(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(PNGError) -> Pixmap {
        guard !bytes.isEmpty else {
            throw PNGError.emptyFile
        }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PNGError.wrongSignature
        }
        // The reader keeps a pointer to `bytes`: everything happens inside one access.
        let outcome = bytes.withUnsafeBufferPointer { raw -> Result<Pixmap?, PNGError> in
            var info = fb_png_info()
            var text = [CChar](repeating: 0, count: 256)
            let reader = text.withUnsafeMutableBufferPointer { t in
                fb_png_read_begin(raw.baseAddress, raw.count, &info, t.baseAddress, t.count)
            }
            guard let reader else {
                return .failure(PNGError.unreadable(Self.string(text)))
            }
            // 16-bit, palette, gamma, chromaticities, ICC profiles and tRNS: libpng's
            // simplified reader, whose conversions to 8-bit sRGB such images have always had.
            guard info.needs_conversion == 0 else {
                fb_png_read_abandon(reader)
                return .success(nil)
            }
            let width = Int(info.width), height = Int(info.height)
            guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
                fb_png_read_abandon(reader)
                return .failure(PNGError.sizeOutOfRange(width: width, height: height))
            }
            if let refusal = accepting(width, height) {
                fb_png_read_abandon(reader)
                return .failure(PNGError.refused(width: width, height: height, reason: refusal))
            }
            var straight = [UInt8](repeating: 0, count: width * height * 4)
            let status = straight.withUnsafeMutableBufferPointer { out in
                text.withUnsafeMutableBufferPointer { t in
                    fb_png_read_finish(reader, out.baseAddress, t.baseAddress, t.count)
                }
            }
            guard status == 0 else {
                return .failure(PNGError.corrupt(Self.string(text)))
            }
            return .success(Pixmap(width: width, height: height, straightRGBA: straight))
        }
        if let pixmap = try outcome.get() { return pixmap }
        return try decodeWithSimplifiedAPI(bytes, accepting: accepting)
    }

    /// Decodes through libpng's simplified API (any PNG, converted to 8-bit sRGB RGBA).
    public static func decodeWithSimplifiedAPI(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(PNGError) -> Pixmap {
        let (width, height, straight) = try decodeStraightRGBA(bytes, accepting: accepting)
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// ``decodeStraightRGBA(_:)`` with the caller's size check (see ``decode(_:accepting:)``),
    /// through libpng's simplified API.
    public static func decodeStraightRGBA(
        _ bytes: [UInt8], accepting: (_ width: Int, _ height: Int) -> String?
    )
        throws(PNGError) -> (width: Int, height: Int, rgba: [UInt8])
    {
        guard !bytes.isEmpty else {
            throw PNGError.emptyFile
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else {
            throw PNGError.unreadable(message(of: image))
        }
        defer { png_image_free(&image) }
        image.format = rgbaFormat
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw PNGError.sizeOutOfRange(width: width, height: height)
        }
        if let refusal = accepting(width, height) {
            throw PNGError.refused(width: width, height: height, reason: refusal)
        }
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            straight.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw PNGError.corrupt(message(of: image)) }
        return (width, height, straight)
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads and decodes a PNG file.
    public static func read(path: String) throws(PNGError) -> Pixmap {
        try read(path: path, accepting: defaultLimit)
    }

    /// Reads a PNG file, letting `accepting` refuse it by the size in its header.
    public static func read(
        path: String,
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(PNGError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch {
            throw PNGError.unreadableFile(error)
        }
        do { return try decode(bytes, accepting: accepting) } catch {
            throw PNGError.inFile(path: path, error)
        }
    }

    /// Encodes a pixmap with ``PNGCompression/default``: the smallest exact color type,
    /// a Sub or Up filter per row, run-length deflate (see ``PNGEncoder``).
    public static func encode(_ pixmap: Pixmap) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(pixmap, compression: .default)
    }

    /// Encodes with the given speed/size trade and, when `text` is given, a `tEXt` chunk
    /// before the image data (``PNGText/read(path:keyword:)`` finds it without decoding).
    public static func encode(_ pixmap: Pixmap, compression: PNGCompression, text: PNGText? = nil)
        throws(PNGError) -> [UInt8]
    {
        try PNGEncoder.encode(pixmap, compression: compression, text: text)
    }

    /// Encodes as 8-bit RGBA through libpng's simplified API with its defaults (zlib level 6,
    /// adaptive filters): how Flipbook wrote PNGs before ``PNGEncoder``, kept as the
    /// reference the benchmarks measure beside it.
    public static func encodeWithSimplifiedAPI(_ pixmap: Pixmap) throws(PNGError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixmap.width)
        image.height = UInt32(pixmap.height)
        image.format = rgbaFormat
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
                    png_image_write_to_memory(
                        &image, dst.baseAddress, &size, 0, src.baseAddress,
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
        throw PNGError.encodingFailed(message(of: image))
    }

    /// Encodes and writes atomically: to a temporary file beside `path`, then renamed.
    public static func write(
        _ pixmap: Pixmap, to path: String, compression: PNGCompression = .default
    ) throws(PNGError) {
        let bytes = try encode(pixmap, compression: compression)
        do { try FileIO.writeAtomically(bytes, to: path) } catch {
            throw PNGError.unwritableFile(path: path, error)
        }
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
