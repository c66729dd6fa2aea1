import FlipbookRaster

/// Picture assets by their content, not their name: PNG through ``PNGCodec``, JPEG through
/// ``JPEGCodec``, WebP through ``WebPCodec`` (a Lottie `data:` URI or a file called `.png`
/// may hold any of them).
public enum ImageDecoder {
    /// Decodes PNG, JPEG or WebP bytes; `accepting` may refuse the header's size with a message.
    public static func decode(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(ImageError) -> Pixmap {
        if WebPCodec.isWebP(bytes) {
            do { return try WebPCodec.decode(bytes, accepting: accepting) } catch {
                throw ImageError.webp(error)
            }
        }
        guard JPEGCodec.isJPEG(bytes) else {
            do { return try PNGCodec.decode(bytes, accepting: accepting) } catch {
                throw ImageError.png(error)
            }
        }
        do { return try JPEGCodec.decode(bytes, accepting: accepting) } catch {
            throw ImageError.jpeg(error)
        }
    }

    /// Reads and decodes a PNG or JPEG file (errors start with the path).
    public static func read(
        path: String,
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(ImageError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch {
            throw ImageError.unreadableFile(error)
        }
        do { return try decode(bytes, accepting: accepting) } catch {
            throw ImageError.inFile(path: path, error)
        }
    }
}

/// A picture asset ``ImageDecoder`` could not read: the error of the codec its bytes
/// called for, or of the file.
public indirect enum ImageError: Error, CustomStringConvertible, Sendable {
    case png(PNGError)
    case jpeg(JPEGError)
    case webp(WebPError)
    /// The file cannot be read.
    case unreadableFile(FileIOError)
    /// A problem with the file at `path`.
    case inFile(path: String, ImageError)

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .png(let error): error.message
        case .jpeg(let error): error.message
        case .webp(let error): error.message
        case .unreadableFile(let error): "\(error.path): \(error.reason)"
        case .inFile(let path, let error): "\(path): \(error.message)"
        }
    }

    public var description: String { message }
}
