import CGIFLib

/// A GIF that could not be written or read: what failed, with the path, sizes, codes and
/// counts, and giflib's own text (`GifErrorString`) where giflib reported it.
public indirect enum GIFError: Error, CustomStringConvertible, Sendable {
    // MARK: giflib and files

    /// A giflib call (`operation`, on the file at `path` when known) failed with `code`.
    case giflib(path: String?, operation: String, code: Int, text: String)
    /// The file cannot be read, written or renamed.
    case file(FileIOError)
    /// The file cannot be opened to be read again (the system's reason).
    case cannotOpen(path: String, reason: String)
    /// A problem with the file at `path`.
    case inFile(path: String, GIFError)

    // MARK: Reading

    /// The data stops in the middle of a block.
    case endsEarly(path: String)
    /// The bytes do not start with `GIF`.
    case notAGIF(path: String)
    /// A logical screen of 0 px or over the largest canvas accepted.
    case canvasOutOfRange(width: Int, height: Int)
    /// No image descriptors.
    case noImages
    /// Image `image` has neither a local nor a global color map.
    case noColorMap(image: Int)
    /// Image `image` has a size but no pixels.
    case noPixels(image: Int)
    /// Image `image` alone is larger than the largest canvas accepted (`limit` pixels):
    /// malformed, not a question of the memory limit.
    case imageTooLarge(image: Int, width: Int, height: Int, limit: Int)
    /// Decoding the images up to `image` would take more than `maxBytes`.
    case imagesOverMemoryLimit(image: Int, width: Int, height: Int, maxBytes: Int)
    /// Decoding `frames` frames of the canvas would take more than `maxBytes`.
    case framesOverMemoryLimit(frames: Int, width: Int, height: Int, maxBytes: Int)
    /// An LZW code size outside 2…8.
    case lzwCodeSizeOutOfRange(Int)
    /// An LZW code not yet in the decoder's table.
    case lzwCodeNotInTable(Int)
    /// LZW data that decodes to fewer indices than the image has pixels.
    case lzwDataEnds(decoded: Int, pixels: Int)

    // MARK: Writing

    /// A size outside GIF's 1…65535 px a side.
    case sizeOutOfRange(path: String, width: Int, height: Int)
    /// giflib could not make a color map (out of memory).
    case cannotMakeColorMap(path: String)
    /// A write or finish after ``GIFWriter/finish()`` or ``GIFWriter/abandon()``.
    case alreadyFinished(path: String)
    /// A first frame prepared over part of the canvas only.
    case firstFrameNotWhole(path: String)
    /// A GIF finished without frames.
    case noFrames(path: String)
    /// A frame whose size is not the GIF's.
    case frameSizeMismatch(path: String, frameWidth: Int, frameHeight: Int, width: Int, height: Int)
    /// An image compressed for `codeSize`-bit codes under a color map of `mapDepth` bits
    /// (`global`: the file's global map).
    case codeSizeMismatch(path: String, codeSize: Int, mapDepth: Int, global: Bool)
    /// An image that draws an index the global map does not have.
    case indexOutsideGlobalMap(path: String)
    /// A block the global-map pass did not write.
    case unexpectedBlock(path: String)
    /// The file differs from what the global-map pass surveyed.
    case changedWhileReordering(path: String)
    /// An index the new global map has no place for.
    case lzwRootUnmapped(Int)

    /// giflib's `E_GIF_ERR_*` / `D_GIF_ERR_*` code, or 0 for failures found in Swift.
    public var code: Int {
        switch self {
        case .giflib(_, _, let code, _): code
        case .inFile(_, let error): error.code
        case .canvasOutOfRange, .imageTooLarge, .imagesOverMemoryLimit, .framesOverMemoryLimit:
            Int(D_GIF_ERR_DATA_TOO_BIG)
        case .noImages: Int(D_GIF_ERR_NO_IMAG_DSCR)
        case .noColorMap: Int(D_GIF_ERR_NO_COLOR_MAP)
        case .noPixels: Int(D_GIF_ERR_IMAGE_DEFECT)
        case .cannotMakeColorMap: Int(E_GIF_ERR_NOT_ENOUGH_MEM)
        default: 0
        }
    }

    /// True when the file was refused before decoding because it would pass the memory
    /// budget (``GIFDecodeBudget``), not because it is malformed.
    public var exceedsMemoryLimit: Bool {
        switch self {
        case .imagesOverMemoryLimit, .framesOverMemoryLimit: true
        case .inFile(_, let error): error.exceedsMemoryLimit
        default: false
        }
    }

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .giflib(let path, let operation, let code, let text):
            "\(path.map { "\($0): " } ?? "")\(operation) failed: \(text) (giflib error \(code))"
        case .file(let error): "\(error)"
        case .cannotOpen(let path, let reason): "\(path): \(reason)"
        case .inFile(let path, let error): "\(path): \(error.message)"
        case .endsEarly(let path): "\(path): the GIF ends early"
        case .notAGIF(let path): "\(path): not a GIF"
        case .canvasOutOfRange(let w, let h): "GIF canvas \(w)×\(h) is out of range"
        case .noImages: "GIF has no images"
        case .noColorMap(let i): "GIF image \(i) has no color map"
        case .noPixels(let i): "GIF image \(i) has no pixels"
        case .imageTooLarge(let i, let w, let h, let limit):
            "GIF image \(i) is \(w)×\(h) px, more than the \(limit) pixels accepted"
        case .imagesOverMemoryLimit(let i, let w, let h, let maxBytes):
            "GIF image \(i) is \(w)×\(h) px; decoding the images would take more than "
                + "\(GIFDecodeBudget.describe(maxBytes)), the memory limit"
        case .framesOverMemoryLimit(let frames, let w, let h, let maxBytes):
            "GIF has \(frames) frames of \(w)×\(h) px; decoding them would take more than "
                + "\(GIFDecodeBudget.describe(maxBytes)), the memory limit"
        case .lzwCodeSizeOutOfRange(let size): "LZW code size \(size) out of range"
        case .lzwCodeNotInTable(let code): "LZW code \(code) not in the table"
        case .lzwDataEnds(let decoded, let pixels):
            "LZW data ends after \(decoded) of \(pixels) pixels"
        case .sizeOutOfRange(let path, let w, let h):
            "\(path): GIF size \(w)×\(h) is out of range 1…65535"
        case .cannotMakeColorMap(let path): "\(path): GifMakeMapObject failed"
        case .alreadyFinished(let path): "\(path): the GIF is already finished or abandoned"
        case .firstFrameNotWhole(let path):
            "\(path): the first frame must be prepared over the whole canvas (prepareFirst)"
        case .noFrames(let path): "\(path): a GIF needs at least one frame"
        case .frameSizeMismatch(let path, let fw, let fh, let w, let h):
            "\(path): frame is \(fw)×\(fh), the GIF is \(w)×\(h)"
        case .codeSizeMismatch(let path, let codeSize, let depth, let global):
            "\(path): image compressed for \(codeSize)-bit codes, \(global ? "global" : "color") map has \(depth)"
        case .indexOutsideGlobalMap(let path):
            "\(path): an image draws an index outside the global map"
        case .unexpectedBlock(let path):
            "\(path): unexpected block while reordering the global map"
        case .changedWhileReordering(let path): "\(path): changed while reordering the global map"
        case .lzwRootUnmapped(let root): "LZW root \(root) has no new index"
        }
    }

    public var description: String { message }

    /// An error for a failed giflib call: `what` is the operation, `code` giflib's code.
    static func giflib(_ what: String, path: String? = nil, code: Int32) -> GIFError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
        return .giflib(path: path, operation: what, code: Int(code), text: text)
    }
}
