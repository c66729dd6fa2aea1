/// A printf-style name for PNG frames, as ffmpeg and ImageMagick take it:
/// `out/frame-%04d.png` names frame 7 `out/frame-0007.png`.
///
/// The file name (the part after the last `/`) holds exactly one `%d` or `%0Nd`
/// (N from 1 to 9); `%%` is a literal `%`; any other `%` is refused.
public struct PNGFramePattern: Sendable, Equatable {
    /// The folder the frames go into ("." when the pattern names none).
    public let folder: String
    private let prefix: String
    private let suffix: String
    /// Zero-padded to this many digits (0: no padding).
    private let width: Int

    /// nil when `text` is not a valid pattern; ``problem(_:)`` says why.
    public init?(_ text: String) {
        guard case .success(let parts) = Self.parse(text) else { return nil }
        (folder, prefix, width, suffix) = parts
    }

    /// Whether `text` asks for a pattern at all (holds a `%`).
    public static func looksLikePattern(_ text: String) -> Bool { text.contains("%") }

    /// Why `text` is not a valid pattern, or nil when it is.
    public static func problem(_ text: String) -> String? {
        if case .failure(let problem) = parse(text) { return problem.text(for: text) }
        return nil
    }

    /// The file name (without folder) of frame `index`.
    public func fileName(ofFrame index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
            + suffix
    }

    /// The path of frame `index`.
    public func path(ofFrame index: Int) -> String { folder + "/" + fileName(ofFrame: index) }

    /// Whether `name` is the file name of one of `frames`.
    public func names(_ name: String, in frames: ClosedRange<Int>) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix),
            name.count > prefix.count + suffix.count,
            let n = Int(name.dropFirst(prefix.count).dropLast(suffix.count)), frames.contains(n)
        else { return false }
        return fileName(ofFrame: n) == name
    }

    /// Why a text is not a frame pattern.
    private enum Problem: Error {
        case numberInFolder
        case unknownDirective
        case notExactlyOneNumber

        func text(for pattern: String) -> String {
            switch self {
            case .numberInFolder:
                "'\(pattern)': the frame number (%d) goes in the file name, not the folder"
            case .unknownDirective:
                "'\(pattern)': a frame pattern takes %d or %0Nd (N from 1 to 9) and %% only"
            case .notExactlyOneNumber:
                "'\(pattern)': a frame pattern takes exactly one %d or %0Nd"
            }
        }
    }

    private static func parse(_ text: String) -> Result<(String, String, Int, String), Problem> {
        let slash = text.lastIndex(of: "/")
        let folder = slash.map { $0 == text.startIndex ? "/" : String(text[..<$0]) } ?? "."
        let name = Array(slash.map { text[text.index(after: $0)...] } ?? Substring(text))
        if folder.contains("%") {
            return .failure(.numberInFolder)
        }
        var prefix = "", suffix = "", width = -1
        var i = 0
        while i < name.count {
            let c = name[i]
            guard c == "%" else {
                if width < 0 { prefix.append(c) } else { suffix.append(c) }
                i += 1
                continue
            }
            var j = i + 1
            if j < name.count, name[j] == "%" {
                if width < 0 { prefix.append("%") } else { suffix.append("%") }
                i = j + 1
                continue
            }
            var digits = ""
            while j < name.count, name[j].isASCII, name[j].isNumber {
                digits.append(name[j]); j += 1
            }
            let padded =
                digits.isEmpty || (digits.hasPrefix("0") && digits.count == 2 && digits != "00")
            guard j < name.count, name[j] == "d", padded else {
                return .failure(.unknownDirective)
            }
            guard width < 0 else {
                return .failure(.notExactlyOneNumber)
            }
            width = digits.isEmpty ? 0 : Int(digits.dropFirst())!
            i = j + 1
        }
        guard width >= 0 else {
            return .failure(.notExactlyOneNumber)
        }
        return .success((folder, prefix, width, suffix))
    }
}
