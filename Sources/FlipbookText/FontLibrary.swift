import Foundation
import CFontconfig
import CFreeType
import FlipbookGeometry

/// Finds fonts: `.file` paths opened with FreeType, `.family` names matched with
/// fontconfig, and per-character fallback fonts; every answer is cached.
///
/// Rules:
/// - fontconfig is initialised once (`FcInitLoadConfigAndFonts`) on first use.
/// - A family is parsed with `FcNameParse` (so "DejaVu Sans:bold" works), then
///   `FcConfigSubstitute` + `FcDefaultSubstitute` + `FcFontMatch`; the matched file and
///   face index are opened. Like CATextLayer with an unknown name, an unknown family gets
///   fontconfig's best substitute; only an unparsable name or no match at all throws.
/// - Fallback for a character the primary font lacks: first the fallback fonts already
///   used with this primary font (in the order found), then fontconfig: the primary's
///   pattern plus a charset holding the character, `FcFontMatch`, accepted only if the
///   match really covers it, else the first font of `FcFontSort` that does. Results (including "no font") are cached per primary font
///   and character, so a repeated string never queries fontconfig again.
/// - Everything (fontconfig, the FT_Library, the caches) is behind one lock; faces are
///   shared and never freed.
final class FontLibrary: @unchecked Sendable {
    /// A resolved primary font and the fontconfig pattern fallbacks start from.
    struct Primary: @unchecked Sendable {
        let face: FontFace
        fileprivate let key: String
        fileprivate let pattern: OpaquePointer?
    }

    private struct FallbackKey: Hashable {
        let primary: String
        let scalar: UInt32
    }

    private struct State {
        var library: FT_Library?
        var config: OpaquePointer?
        var configLoaded = false
        var faces: [String: Result<FontFace, TextError>] = [:]
        var primaries: [TextRequest.Font: Result<Primary, TextError>] = [:]
        var fallbacks: [FallbackKey: FontFace?] = [:]
        var fallbackOrder: [String: [FontFace]] = [:]
    }

    private let state = Locked(State())

    /// The primary font of a request (cached, including failures).
    func primary(_ font: TextRequest.Font) throws(TextError) -> Primary {
        try state.withLock { s in
            if let cached = s.primaries[font] { return cached }
            let result: Result<Primary, TextError>
            switch font {
            case .file(let path):
                result = Self.face(file: path, index: 0, &s).map {
                    Primary(face: $0, key: "file:" + path, pattern: Self.defaultPattern(&s))
                }
            case .family(let name):
                result = Self.match(family: name, &s)
            }
            s.primaries[font] = result
            return result
        }.get()
    }

    /// A font covering `scalar` for text whose primary font lacks it, or nil if no
    /// installed font covers it.
    func fallback(for scalar: Unicode.Scalar, primary: Primary) -> FontFace? {
        state.withLock { s in
            let key = FallbackKey(primary: primary.key, scalar: scalar.value)
            if let cached = s.fallbacks[key] { return cached }
            var found = s.fallbackOrder[primary.key, default: []].first { $0.covers(scalar) }
            if found == nil, let face = Self.query(scalar, pattern: primary.pattern, &s) {
                found = face
                s.fallbackOrder[primary.key, default: []].append(face)
            }
            s.fallbacks[key] = found
            return found
        }
    }

    private static func face(file: String, index: Int, _ s: inout State) -> Result<FontFace, TextError> {
        let key = "\(file)#\(index)"
        if let cached = s.faces[key] { return cached }
        if s.library == nil {
            var library: FT_Library?
            guard FT_Init_FreeType(&library) == 0 else {
                return .failure(.unreadableFontFile(path: file, freeTypeError: -1))
            }
            s.library = library
        }
        let result = Result { () throws(TextError) in try FontFace(file: file, index: index, library: s.library!) }
        s.faces[key] = result
        return result
    }

    private static func loadConfig(_ s: inout State) -> OpaquePointer? {
        if !s.configLoaded {
            s.config = FcInitLoadConfigAndFonts()
            s.configLoaded = true
        }
        return s.config
    }

    /// An empty pattern after substitution: what fallbacks for `.file` fonts start from.
    private static func defaultPattern(_ s: inout State) -> OpaquePointer? {
        guard let config = loadConfig(&s), let pattern = FcPatternCreate() else { return nil }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func match(family: String, _ s: inout State) -> Result<Primary, TextError> {
        guard let config = loadConfig(&s) else { return .failure(.fontconfigUnavailable) }
        let trimmed = family.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\0"),
              let pattern = trimmed.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) })
        else { return .failure(.invalidFontPattern(family)) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(config, pattern, &result) else {
            FcPatternDestroy(pattern)
            return .failure(.noMatchingFont(family: family))
        }
        defer { FcPatternDestroy(matched) }
        guard let (file, index) = fileAndIndex(matched) else {
            FcPatternDestroy(pattern)
            return .failure(.noMatchingFont(family: family))
        }
        return face(file: file, index: index, &s).map { Primary(face: $0, key: "family:" + trimmed, pattern: pattern) }
    }

    private static func query(_ scalar: Unicode.Scalar, pattern: OpaquePointer?, _ s: inout State) -> FontFace? {
        guard let config = loadConfig(&s), let pattern, let query = FcPatternDuplicate(pattern) else { return nil }
        defer { FcPatternDestroy(query) }
        let charset = FcCharSetCreate()
        FcCharSetAddChar(charset, scalar.value)
        FcPatternDel(query, FC_CHARSET)
        FcPatternAddCharSet(query, FC_CHARSET, charset)
        FcCharSetDestroy(charset)
        var result = FcResultNoMatch
        if let matched = FcFontMatch(config, query, &result) {
            defer { FcPatternDestroy(matched) }
            if let face = coveringFace(matched, scalar, &s) { return face }
        }
        // The best match may not cover it (e.g. a strongly bound family): walk the sorted list.
        guard let sorted = FcFontSort(config, query, FcTrue, nil, &result) else { return nil }
        defer { FcFontSetDestroy(sorted) }
        for i in 0..<Int(sorted.pointee.nfont) {
            if let font = sorted.pointee.fonts[i], let face = coveringFace(font, scalar, &s) { return face }
        }
        return nil
    }

    /// The face of a fontconfig match if its charset and cmap cover `scalar`.
    private static func coveringFace(_ pattern: OpaquePointer, _ scalar: Unicode.Scalar, _ s: inout State) -> FontFace? {
        var covered: OpaquePointer?
        guard FcPatternGetCharSet(pattern, FC_CHARSET, 0, &covered) == FcResultMatch,
              FcCharSetHasChar(covered, scalar.value) != 0,
              let (file, index) = fileAndIndex(pattern),
              case .success(let face) = face(file: file, index: index, &s), face.covers(scalar) else { return nil }
        return face
    }

    private static func fileAndIndex(_ pattern: OpaquePointer) -> (String, Int)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), Int(index))
    }
}
