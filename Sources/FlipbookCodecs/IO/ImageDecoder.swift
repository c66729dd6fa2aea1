import FlipbookRaster

/// Picture assets by their content, not their name: PNG through ``PNGCodec``, JPEG through
/// ``JPEGCodec``, WebP through ``WebPCodec`` (a Lottie `data:` URI or a file called `.png`
/// may hold any of them).
public enum ImageDecoder {
    /// Decodes PNG, JPEG or WebP bytes; `accepting` may refuse the header's size with a message.
    public static func decode(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(PNGError) -> Pixmap {
        if WebPCodec.isWebP(bytes) { return try WebPCodec.decode(bytes, accepting: accepting) }
        guard JPEGCodec.isJPEG(bytes) else {
            return try PNGCodec.decode(bytes, accepting: accepting)
        }
        do { return try JPEGCodec.decode(bytes, accepting: accepting) } catch {
            throw PNGError(message: error.message)
        }
    }

    /// Reads and decodes a PNG or JPEG file (errors start with the path).
    public static func read(
        path: String,
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(PNGError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch {
            throw PNGError(message: "\(path): \(error.reason)")
        }
        do { return try decode(bytes, accepting: accepting) } catch {
            throw PNGError(message: "\(path): \(error.message)")
        }
    }
}
