import CGIFLib

/// A GIF that could not be written or read: giflib's numeric error code (0 when the failure
/// was detected on the Swift side) and a message that includes giflib's own text
/// (`GifErrorString`).
public struct GIFError: Error, CustomStringConvertible, Sendable {
    /// giflib's `E_GIF_ERR_*` / `D_GIF_ERR_*` code, or 0 for failures found in Swift.
    public var code: Int
    public var message: String
    /// True when the file was refused before decoding because it would pass the memory
    /// budget (``GIFDecodeBudget``), not because it is malformed.
    public var exceedsMemoryLimit = false
    public var description: String { message }

    public init(code: Int = 0, message: String, exceedsMemoryLimit: Bool = false) {
        self.code = code
        self.message = message
        self.exceedsMemoryLimit = exceedsMemoryLimit
    }

    /// An error for a failed giflib call: `what` is the operation, `code` giflib's code.
    static func giflib(_ what: String, code: Int32) -> GIFError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
        return GIFError(code: Int(code), message: "\(what) failed: \(text) (giflib error \(code))")
    }
}
