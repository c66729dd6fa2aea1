import CPNGShim
import FlipbookGeometry
import FlipbookRaster

/// The speed/size trade of PNG writing (`--png-compression`).
public enum PNGCompression: String, CaseIterable, Sendable, Codable {
    /// Every row Up-filtered, run-length deflate: the fastest, larger files.
    case fast
    /// Each row Sub- or Up-filtered (whichever leaves smaller differences), run-length
    /// deflate. On UI frames, about the bytes of zlib level 6 at a fraction of its time.
    case `default`
    /// libpng's adaptive filters over all five, zlib level 9: the smallest files, slowest.
    /// The one to pick for photographic content, which run-length deflate handles poorly.
    case small
}

/// Writes PNGs through libpng's full API (see CPNGShim) with the settings chosen per image:
///
/// - the smallest color type that holds the pixels exactly: grey when every pixel has
///   r = g = b, no alpha channel when every pixel is opaque (an opaque RGB frame goes to
///   libpng as it is, with its alpha byte skipped by libpng, without a copy);
/// - premultiplied to straight alpha through an exact lookup table, skipping opaque pixels
///   four at a time;
/// - a filter per row and zlib's strategy by ``PNGCompression``.
///
/// Decoded, the file gives back exactly the pixmap that was written.
enum PNGEncoder {
    /// PNG filter bits as libpng's png_set_filter takes them.
    static let filterNone: UInt8 = 0x08, filterSub: UInt8 = 0x10, filterUp: UInt8 = 0x20
    static let allFilters: Int32 = 0xF8
    /// zlib strategies (zlib.h).
    static let zDefaultStrategy: Int32 = 0, zRLE: Int32 = 3

    static func encode(_ pixmap: Pixmap, compression: PNGCompression, text: PNGText? = nil)
        throws(PNGError) -> [UInt8]
    {
        let width = pixmap.width, height = pixmap.height
        guard width > 0, height > 0 else {
            throw PNGError.emptyImage(width: width, height: height)
        }
        let kind = PixelSurvey(pixmap)
        var options = fb_png_write_options()
        // Ctrl-C stops a large image between rows (see ``RenderCancellation``).
        options.should_stop = { RenderCancellation.shared.isCancelled ? 1 : 0 }
        switch compression {
        case .fast, .default:
            // With Z_RLE the level only says "compress"; memory level 4 (a 2 K-entry hash
            // and 1 K-symbol blocks) measured faster and smaller than zlib's default 8 on
            // UI frames: less hash sliding per byte, Huffman tables that follow the rows.
            options.zlib_level = 1
            options.zlib_strategy = zRLE
            options.zlib_mem_level = 4
        case .small:
            options.zlib_level = 9
            options.zlib_strategy = zDefaultStrategy
            options.zlib_mem_level = 9
            options.filters = allFilters
        }
        // Rows in the file's layout: the pixmap itself for opaque color (libpng drops the
        // alpha byte), else packed straight-alpha rows.
        let channels: Int
        switch (kind.opaque, kind.grey) {
        case (true, false): channels = 4; options.color_type = 2; options.strip_filler = 1
        case (true, true): channels = 1; options.color_type = 0
        case (false, true): channels = 2; options.color_type = 4
        case (false, false): channels = 4; options.color_type = 6
        }
        let packed: [UInt8]? =
            options.strip_filler == 1 ? nil : StraightAlpha.pack(pixmap, channels: channels)
        if RenderCancellation.shared.isCancelled { throw PNGError.interrupted }
        return try withRows(pixmap, packed) { rows throws(PNGError) -> [UInt8] in
            let stride = width * channels
            var filters: [UInt8]?
            switch compression {
            case .fast: options.filters = Int32(filterUp)
            case .default:
                options.filters = Int32(filterSub | filterUp)
                filters = RowFilterChoice.subOrUp(
                    rows, stride: stride, height: height, bytesPerPixel: channels)
            case .small: break
            }
            guard let text else {
                return try write(
                    rows, stride: stride, width: width, height: height, options: options,
                    filters: filters)
            }
            // libpng copies the strings (png_set_text) before these pointers go.
            let written = text.keyword.withCString { keyword in
                text.text.withCString { value in
                    var withText = options
                    withText.text_keyword = keyword
                    withText.text = value
                    return Result { () throws(PNGError) -> [UInt8] in
                        try write(
                            rows, stride: stride, width: width, height: height, options: withText,
                            filters: filters)
                    }
                }
            }
            return try written.get()
        }
    }

    private static func withRows<R>(
        _ pixmap: Pixmap, _ packed: [UInt8]?,
        _ body: (UnsafeRawBufferPointer) throws(PNGError) -> R
    ) throws(PNGError) -> R {
        let result: Result<R, PNGError>
        if let packed {
            result = packed.withUnsafeBytes { raw in
                Result { () throws(PNGError) -> R in try body(raw) }
            }
        } else {
            result = pixmap.data.withUnsafeBytes { raw in
                Result { () throws(PNGError) -> R in try body(raw) }
            }
        }
        return try result.get()
    }

    private static func write(
        _ rows: UnsafeRawBufferPointer, stride: Int, width: Int, height: Int,
        options: fb_png_write_options, filters: [UInt8]?
    ) throws(PNGError) -> [UInt8] {
        var options = options
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { text in
            if let filters {
                return filters.withUnsafeBufferPointer { f in
                    fb_png_write(
                        rows.bindMemory(to: UInt8.self).baseAddress, stride, UInt32(width),
                        UInt32(height),
                        &options, f.baseAddress, &out, &size, text.baseAddress, text.count)
                }
            }
            return fb_png_write(
                rows.bindMemory(to: UInt8.self).baseAddress, stride, UInt32(width), UInt32(height),
                &options, nil, &out, &size, text.baseAddress, text.count)
        }
        guard status == 0, let out else {
            throw PNGError.encodingFailed(
                String(
                    decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                    as: UTF8.self))
        }
        defer { fb_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}

/// What a frame's pixels need: an alpha channel (any pixel not opaque), color (any pixel
/// with r, g, b not all equal). One vectorised pass over the pixmap.
struct PixelSurvey {
    var opaque: Bool
    var grey: Bool

    init(_ pixmap: Pixmap) {
        var all: UInt32 = .max
        var colour: UInt32 = 0
        pixmap.data.withUnsafeBytes { raw in
            let count = raw.count / 4
            var i = 0
            var allV = SIMD8<UInt32>(repeating: .max)
            var colourV = SIMD8<UInt32>(repeating: 0)
            // Little-endian pixel words: r | g << 8 | b << 16 | a << 24.
            while i + 8 <= count {
                let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                allV &= v
                colourV |= (v ^ (v &>> 8)) & 0xFFFF
                i += 8
            }
            for lane in 0..<8 {
                all &= allV[lane]
                colour |= colourV[lane]
            }
            while i < count {
                let v = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                all &= v
                colour |= (v ^ (v >> 8)) & 0xFFFF
                i += 1
            }
        }
        opaque = all >> 24 == 0xFF
        grey = colour == 0
    }
}
