#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PNG `tEXt` chunk: a keyword (1…79 printable Latin-1 characters) and its text,
/// uncompressed. ``PNGCodec/encode(_:compression:text:)`` writes it before the image data.
public struct PNGText: Sendable, Equatable {
    public var keyword: String
    public var text: String

    public init(keyword: String, text: String) {
        self.keyword = keyword
        self.text = text
    }

    /// The text of the first `tEXt` chunk named `keyword` in the PNG at `path`, looked for
    /// among the chunks before the image data: only chunk headers are read, the other
    /// chunks are skipped by seeking, and the search stops at the first `IDAT`. nil when
    /// the file cannot be read, is not a PNG or has no such chunk there.
    public static func read(path: String, keyword: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        guard let signature = readBytes(file, 8),
            signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        else {
            return nil
        }
        let wanted = Array(keyword.utf8) + [0]
        while let header = readBytes(file, 8) {
            let length =
                Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" || length > 1 << 20 { return nil }
            if type == "tEXt" {
                guard let data = readBytes(file, length) else { return nil }
                if data.starts(with: wanted) {
                    return String(decoding: data[wanted.count...], as: UTF8.self)
                }
                guard fseek(file, 4, SEEK_CUR) == 0 else { return nil }  // the CRC
            } else {
                guard fseek(file, length + 4, SEEK_CUR) == 0 else { return nil }
            }
        }
        return nil
    }

    private static func readBytes(_ file: UnsafeMutablePointer<FILE>, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        return read == count ? bytes : nil
    }
}

/// GIF comment extensions (label 0xFE), which ``GIFWriter`` writes before the first image.
public enum GIFComment {
    /// The comments before the first image of the GIF at `path`, in order: reads the
    /// header, skips the global color map and the other extensions, and stops at the first
    /// image, so the frames are neither read nor decoded. Empty when the file cannot be
    /// read or is not a GIF.
    public static func read(path: String) -> [String] {
        guard let reader = try? GIFByteReader(path: path), (try? reader.header()) != nil else {
            return []
        }
        var comments: [String] = []
        while let introducer = try? reader.byte(), introducer == 0x21,
            let label = try? reader.byte()
        {
            if label == 0xFE {
                guard let text = try? reader.blocks() else { break }
                comments.append(String(decoding: text, as: UTF8.self))
            } else if (try? reader.skipBlocks()) == nil {
                break
            }
        }
        return comments
    }
}
