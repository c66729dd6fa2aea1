import CTurboJPEG
import FlipbookRaster

/// A JPEG decoding failure: what libjpeg-turbo said, or the size the caller refused.
public enum JPEGError: Error, CustomStringConvertible, Sendable {
    /// TurboJPEG could not create a decompressor.
    case cannotStart
    /// The header cannot be read (TurboJPEG's message).
    case unreadableHeader(String)
    /// The data ends before the image's size.
    case noImageSize
    /// The caller refused the size the header declares, with its reason.
    case refused(width: Int, height: Int, reason: String)
    /// The pixel data is corrupt (TurboJPEG's message).
    case corrupt(String)

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .cannotStart: "libjpeg-turbo could not start"
        case .unreadableHeader(let text): "not a readable JPEG: \(text)"
        case .noImageSize: "not a readable JPEG: no image size before the data ends"
        case .refused(_, _, let reason): reason
        case .corrupt(let text): "corrupt JPEG: \(text)"
        }
    }

    public var description: String { message }
}

/// JPEG decoding through libjpeg-turbo's TurboJPEG API (which reports errors as return
/// codes, so a corrupt file cannot take the process down). Lottie files exported from After
/// Effects often embed their pictures as JPEG.
///
/// Rules: baseline and progressive JPEG in any colour space TurboJPEG converts to RGB
/// (greyscale, YCbCr, CMYK) decode to an opaque ``Pixmap``; the header's size is checked
/// with `accepting` before any pixel memory exists; a warning-only decode (a truncated
/// scan libjpeg can finish) is accepted as players accept it.
public enum JPEGCodec {
    /// Whether `bytes` start as a JPEG file does (SOI marker then another marker).
    public static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Decodes, first asking `accepting` about the size the header declares: a message
    /// refuses the image with that message.
    public static func decode(
        _ bytes: [UInt8],
        accepting: (_ width: Int, _ height: Int) -> String?
    ) throws(JPEGError) -> Pixmap {
        guard let handle = tjInitDecompress() else { throw JPEGError.cannotStart }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(
                handle, buf.baseAddress, UInt(buf.count), &width, &height, &subsampling, &colorspace
            )
        }
        guard header == 0 else { throw JPEGError.unreadableHeader(errorText(handle)) }
        guard width > 0, height > 0 else { throw JPEGError.noImageSize }
        if let refusal = accepting(Int(width), Int(height)) {
            throw JPEGError.refused(width: Int(width), height: Int(height), reason: refusal)
        }
        var pixmap = Pixmap(width: Int(width), height: Int(height))
        let result = bytes.withUnsafeBufferPointer { src in
            pixmap.data.withUnsafeMutableBufferPointer { dst in
                // RGBX with X = 255 is premultiplied RGBA of an opaque image already.
                tjDecompress2(
                    handle, src.baseAddress, UInt(src.count), dst.baseAddress, width, width * 4,
                    height,
                    Int32(TJPF_RGBX.rawValue), Int32(TJFLAG_ACCURATEDCT))
            }
        }
        if result != 0 && tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw JPEGError.corrupt(errorText(handle))
        }
        return pixmap
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
