/// A WebP that could not be written or read: what failed, with the sizes, counts and
/// libwebp's own error text or code where it gave them.
public enum WebPError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A libwebp library (`libwebp`, `libwebpmux`, `libwebpdemux`) of another ABI version.
    case versionMismatch(library: String)
    /// `WebPConfigInit` failed.
    case defaultConfigurationRefused
    /// `WebPValidateConfig` refused the configuration the options made.
    case invalidConfiguration
    /// A frame side over WebP's 16383 px.
    case frameTooLarge(width: Int, height: Int)
    /// `WebPAnimEncoderNew` failed for this size.
    case cannotMakeEncoder(width: Int, height: Int)
    /// A frame whose size is not the animation's.
    case frameSizeMismatch(frameWidth: Int, frameHeight: Int, width: Int, height: Int)
    /// No memory for a frame's picture.
    case outOfMemoryForFrame
    /// No memory for the container being joined.
    case outOfMemoryForContainer
    /// `WebPAnimEncoderAdd` failed on a frame (libwebp's text).
    case cannotEncodeFrame(String)
    /// libwebp could not decode a frame it had just encoded (lossy WebP's choice per frame).
    case cannotDecodeOwnFrame
    /// `WebPEncode` failed on a still (libwebp's error code).
    case cannotEncodeStill(code: Int)
    /// The end timestamp was refused (libwebp's text).
    case cannotEnd(String)
    /// `WebPAnimEncoderAssemble` failed (libwebp's text).
    case cannotAssemble(String)
    /// A libwebpmux call failed: what it was doing and its error code.
    case muxFailed(doing: String, code: Int)
    /// An animation segment without a first frame.
    case noFrames
    /// Bytes libwebpdemux does not take as a whole WebP file.
    case incomplete
    /// An animated WebP with a zero canvas or no frames.
    case noCanvasOrFrames
    /// A canvas of more pixels than `limit`.
    case canvasTooLarge(width: Int, height: Int, limit: Int)
    /// Decoding every frame would take more than `maxBytes`.
    case overMemoryLimit(frames: Int, width: Int, height: Int, maxBytes: Int)
    /// An animated WebP libwebp's decoder cannot open.
    case unreadableAnimation
    /// Frame `index` of an animation cannot be decoded.
    case corruptFrame(index: Int)
    /// A still WebP whose header cannot be read.
    case unreadableImage
    /// A still WebP whose pixels cannot be decoded.
    case corruptImage
    /// The caller refused the size the header declares, with its reason.
    case refused(width: Int, height: Int, reason: String)

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .versionMismatch(let library): "\(library) version mismatch"
        case .defaultConfigurationRefused: "libwebp refused its own default configuration"
        case .invalidConfiguration: "invalid libwebp configuration"
        case .frameTooLarge(let w, let h): "WebP frames are at most 16383×16383 px, not \(w)×\(h)"
        case .cannotMakeEncoder(let w, let h):
            "libwebp could not make an animation encoder for \(w)×\(h) px"
        case .frameSizeMismatch(let fw, let fh, let w, let h):
            "frame is \(fw)×\(fh) px, the animation \(w)×\(h)"
        case .outOfMemoryForFrame: "out of memory for a WebP frame"
        case .outOfMemoryForContainer: "out of memory for the WebP container"
        case .cannotEncodeFrame(let text): "libwebp could not encode a frame: \(text)"
        case .cannotDecodeOwnFrame: "libwebp could not decode its own frame"
        case .cannotEncodeStill(let code): "libwebp could not encode a frame (error \(code))"
        case .cannotEnd(let text): "libwebp could not end the animation: \(text)"
        case .cannotAssemble(let text): "libwebp could not assemble the animation: \(text)"
        case .muxFailed(let doing, let code): "libwebpmux could not \(doing) (error \(code))"
        case .noFrames: "animated WebP without frames"
        case .incomplete: "not a complete, valid WebP file"
        case .noCanvasOrFrames: "WebP without a canvas or frames"
        case .canvasTooLarge(let w, let h, let limit):
            "WebP canvas is \(w)×\(h) px, more than \(limit) pixels"
        case .overMemoryLimit(let frames, let w, let h, let maxBytes):
            "WebP has \(frames) frames of \(w)×\(h) px; decoding them would take more than "
                + "\(maxBytes) bytes, the memory limit"
        case .unreadableAnimation: "not a readable WebP file"
        case .corruptFrame(let index): "corrupt WebP frame \(index)"
        case .unreadableImage: "not a readable WebP image"
        case .corruptImage: "corrupt WebP image"
        case .refused(_, _, let reason): reason
        }
    }

    public var description: String { message }
}
