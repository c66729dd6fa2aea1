/// Why a text layer could not be laid out.
///
/// Only font problems are errors: bad geometry (NaN or non-positive sizes, empty
/// strings) gives an empty ``TextLayout`` instead, and characters no font covers are
/// listed in ``TextLayout/missing`` and drawn as the font's .notdef box.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// FreeType could not open the file as a font (missing, unreadable or not a font).
    case unreadableFontFile(path: String, freeTypeError: Int32)
    /// fontconfig could not parse the family name or pattern.
    case invalidFontPattern(String)
    /// fontconfig found no font at all for the family (no fonts installed, or the match
    /// has no file).
    case noMatchingFont(family: String)
    /// fontconfig could not be initialised.
    case fontconfigUnavailable

    public var description: String {
        switch self {
        case .unreadableFontFile(let path, let code):
            "FreeType cannot open the font file \(path) (FreeType error \(code))"
        case .invalidFontPattern(let pattern):
            "fontconfig cannot parse the font name \"\(pattern)\""
        case .noMatchingFont(let family):
            "fontconfig found no font for the family \"\(family)\""
        case .fontconfigUnavailable:
            "fontconfig could not load its configuration"
        }
    }
}
