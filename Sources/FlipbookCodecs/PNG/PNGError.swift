/// A PNG or APNG that could not be read or written: what failed, with the sizes, offsets,
/// counts and libpng's own message where it gave one.
public indirect enum PNGError: Error, CustomStringConvertible, Sendable {
    // MARK: Reading

    /// No bytes at all.
    case emptyFile
    /// The bytes do not start with PNG's signature.
    case wrongSignature
    /// libpng cannot read the header (libpng's message).
    case unreadable(String)
    /// libpng cannot read the pixel data (libpng's message).
    case corrupt(String)
    /// A side of 0 or over 32768 px (or a canvas over the largest accepted).
    case sizeOutOfRange(width: Int, height: Int)
    /// The caller refused the size the header declares, with its reason.
    case refused(width: Int, height: Int, reason: String)
    /// The chunks stop at `offset` before an IEND chunk.
    case truncated(offset: Int)
    /// A chunk at `offset` whose declared `length` runs past the end of the file.
    case chunkPastEnd(offset: Int, length: Int)
    /// A chunk of `type` at `offset` whose CRC does not match.
    case badCRC(type: String, offset: Int)
    /// The first chunk is not a 13-byte IHDR.
    case missingHeader
    /// An APNG control chunk of `type` with `length` bytes instead of `expected`.
    case chunkLength(type: String, length: Int, expected: Int)
    /// An fcTL chunk's region that leaves the canvas.
    case frameOutsideCanvas(
        frame: Int, x: Int, y: Int, width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
    /// An fcTL chunk with a dispose op over 2 or a blend op over 1.
    case unknownFrameOp(frame: Int)
    /// A first frame that is the default image yet does not cover the canvas.
    case firstFrameNotWhole
    /// The frame regions together hold more than `maxPixels`, the memory limit.
    case frameRegionsOverLimit(maxPixels: Int)
    /// An fdAT chunk without room for its sequence number.
    case shortFrameData
    /// An fdAT chunk before any fcTL, or before the default image.
    case frameDataBeforeControl
    /// An acTL chunk that declares another frame count than the file has.
    case frameCountMismatch(declared: Int, found: Int)
    /// Frame `frame` has no image data.
    case frameWithoutData(frame: Int)
    /// A sequence number out of order.
    case sequenceNumber(found: Int, expected: Int)
    /// Decoding every frame would take more than `maxBytes`.
    case overMemoryLimit(frames: Int, width: Int, height: Int, maxBytes: Int)
    /// Frame `index`'s image data cannot be decoded.
    case inFrame(index: Int, PNGError)
    /// The file cannot be read.
    case unreadableFile(FileIOError)
    /// A problem with the file at `path`.
    case inFile(path: String, PNGError)

    // MARK: Writing

    /// An image without pixels.
    case emptyImage(width: Int, height: Int)
    /// libpng could not encode (libpng's message).
    case encodingFailed(String)
    /// The APNG writer's deflate (libdeflate) could not start: no memory for its compressor.
    case compressorCannotStart
    /// The APNG writer's deflate failed (libdeflate reports no cause: `status` 0).
    case compressionFailed(status: Int)
    /// An animation size of 0 or over 2^31 px a side.
    case animationSizeOutOfRange(width: Int, height: Int)
    /// A delay denominator outside 1…65535.
    case delayDenominatorOutOfRange(Int)
    /// A frame whose size is not the animation's.
    case frameSizeMismatch(frameWidth: Int, frameHeight: Int, width: Int, height: Int)
    /// A frame delay outside 1…65535 ticks.
    case delayOutOfRange(Int)
    /// A frame with transparency in an animation started as opaque.
    case frameNotOpaque
    /// ``APNGWriter/finishInMemory()`` on a writer made with a path.
    case writtenToFile
    /// An animation finished without frames.
    case noFrames
    /// The encoded bytes cannot be written to `path`.
    case unwritableFile(path: String, FileIOError)

    /// A stop was requested (``RenderCancellation``).
    case interrupted

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .emptyFile: "not a readable PNG: the file is empty"
        case .wrongSignature: "not a PNG file (wrong signature)"
        case .unreadable(let text): "not a readable PNG: \(text)"
        case .corrupt(let text): "corrupt PNG: \(text)"
        case .sizeOutOfRange(let w, let h): "PNG size \(w)×\(h) is out of range"
        case .refused(_, _, let reason): reason
        case .truncated(let offset): "PNG is truncated at byte \(offset) (no IEND chunk)"
        case .chunkPastEnd(let offset, let length):
            "PNG chunk at byte \(offset) declares \(length) bytes, past the end of the file"
        case .badCRC(let type, let offset): "PNG chunk \(type) at byte \(offset) has a bad CRC"
        case .missingHeader: "PNG does not start with an IHDR chunk"
        case .chunkLength(let type, let length, let expected):
            "APNG \(type) chunk has \(length) bytes, not \(expected)"
        case .frameOutsideCanvas(let n, let x, let y, let w, let h, let cw, let ch):
            "APNG frame \(n) (\(w)×\(h) at \(x),\(y)) is outside the \(cw)×\(ch) canvas"
        case .unknownFrameOp(let n): "APNG frame \(n) has an unknown dispose or blend op"
        case .firstFrameNotWhole: "APNG frame 0 must cover the whole canvas"
        case .frameRegionsOverLimit(let maxPixels):
            "APNG frame regions hold more than \(maxPixels) pixels, the memory limit"
        case .shortFrameData: "APNG fdAT chunk is too short"
        case .frameDataBeforeControl: "APNG fdAT chunk before any frame control"
        case .frameCountMismatch(let declared, let found):
            "APNG acTL declares \(declared) frames, the file has \(found)"
        case .frameWithoutData(let n): "APNG frame \(n) has no image data"
        case .sequenceNumber(let found, let expected):
            "APNG sequence number \(found), expected \(expected)"
        case .overMemoryLimit(let frames, let w, let h, let maxBytes):
            "APNG has \(frames) frames of \(w)×\(h) px; decoding them would "
                + "take more than \(maxBytes) bytes, the memory limit"
        case .inFrame(let index, let error): "APNG frame \(index): \(error.message)"
        case .unreadableFile(let error): "\(error.path): \(error.reason)"
        case .inFile(let path, let error): "\(path): \(error.message)"
        case .emptyImage(let w, let h): "PNG encoding failed: empty image (\(w)×\(h))"
        case .encodingFailed(let text): "PNG encoding failed: \(text)"
        case .compressorCannotStart: "the deflate compressor could not start"
        case .compressionFailed(let status): "deflate compression failed (\(status))"
        case .animationSizeOutOfRange(let w, let h): "APNG size \(w)×\(h) is out of range"
        case .delayDenominatorOutOfRange(let d): "APNG delay denominator \(d) is out of range"
        case .frameSizeMismatch(let fw, let fh, let w, let h):
            "APNG frame is \(fw)×\(fh), the animation \(w)×\(h)"
        case .delayOutOfRange(let delay): "APNG frame delay \(delay) is out of range"
        case .frameNotOpaque:
            "APNG frame is not opaque, and the animation was started as opaque (RGB)"
        case .writtenToFile: "the APNG is written to a file"
        case .noFrames: "APNG has no frames"
        case .unwritableFile(let path, let error): "\(path): \(error)"
        case .interrupted: "interrupted"
        }
    }

    public var description: String { message }
}
