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
        /// The vertical metrics Core Text would report for the font asked for (font units
        /// of `face`): the face's own, or Helvetica's when `face` stands in for it.
        var metrics: VerticalMetrics = .zero
    }

    /// Ascent, descent (positive below the baseline), leading and cap height, in font units.
    struct VerticalMetrics: Equatable {
        var ascent: Double
        var descent: Double
        var leading: Double
        var capHeight: Double
        static let zero = VerticalMetrics(ascent: 0, descent: 0, leading: 0, capHeight: 0)

        init(ascent: Double, descent: Double, leading: Double, capHeight: Double) {
            self.ascent = ascent
            self.descent = descent
            self.leading = leading
            self.capHeight = capHeight
        }

        /// What CTFontGetAscent/Descent/Leading/CapHeight report for `face`: its hhea values.
        init(_ face: FontFace) {
            self.init(
                ascent: face.ascender, descent: -face.descender, leading: face.lineGap,
                capHeight: face.capHeight)
        }
    }

    /// Helvetica's own vertical metrics as Core Text reports them (hhea ascender 1577,
    /// descender −471, no line gap, per 2048 units: 15.40 and 4.60 at 20 pt), which a
    /// substitute's layout takes so that lines sit where they sit on Apple systems.
    static let helveticaAscent = 1577.0 / 2048, helveticaDescent = 471.0 / 2048
    /// Free faces with Helvetica's advance widths, in order of preference (fonts-urw-base35,
    /// fonts-texgyre).
    static let helveticaSubstitutes = ["Nimbus Sans", "TeX Gyre Heros"]

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
                    Primary(
                        face: $0, key: "file:" + path, pattern: Self.defaultPattern(&s),
                        metrics: VerticalMetrics($0))
                }
            case .family(let name):
                result = Self.match(family: name, &s)
            case .coreTextName(let name):
                result = Self.coreText(name, &s)
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

    private static func face(file: String, index: Int, _ s: inout State) -> Result<
        FontFace, TextError
    > {
        let key = "\(file)#\(index)"
        if let cached = s.faces[key] { return cached }
        if s.library == nil {
            var library: FT_Library?
            guard FT_Init_FreeType(&library) == 0 else {
                return .failure(.unreadableFontFile(path: file, freeTypeError: -1))
            }
            s.library = library
        }
        let result = Result { () throws(TextError) in
            try FontFace(file: file, index: index, library: s.library!)
        }
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
            let pattern = trimmed.withCString({
                FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            })
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
        return face(file: file, index: index, &s).map {
            Primary(
                face: $0, key: "family:" + trimmed, pattern: pattern, metrics: VerticalMetrics($0))
        }
    }

    /// `CTFontCreateWithName`'s lookup: an installed font whose PostScript name, full name
    /// or family is `name`; otherwise Helvetica (Core Text's fallback for a name it does
    /// not know), here its substitute with Helvetica's vertical metrics.
    private static func coreText(_ name: String, _ s: inout State) -> Result<Primary, TextError> {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.contains("\0") else { return .failure(.invalidFontPattern(name)) }
        let key = "core-text:" + trimmed
        let helvetica =
            trimmed.lowercased() == "helvetica" || trimmed.lowercased().hasPrefix("helvetica-")
        if !trimmed.isEmpty, !helvetica {
            for object in [FC_POSTSCRIPT_NAME, FC_FULLNAME, FC_FAMILY] {
                guard let (file, index) = installed(object, trimmed, &s),
                    case .success(let face) = face(file: file, index: index, &s)
                else { continue }
                return .success(
                    Primary(
                        face: face, key: key, pattern: familyPattern(face.familyName, &s),
                        metrics: VerticalMetrics(face)))
            }
        }
        // Helvetica's own faces keep their weight and slant ("Helvetica-BoldOblique").
        let style = helvetica ? trimmed.dropFirst("helvetica".count).lowercased() : ""
        let styled =
            (style.contains("bold") ? ":weight=bold" : "")
            + (style.contains("oblique") ? ":slant=italic" : "")
        for family in helveticaSubstitutes {
            guard case .success(let primary) = match(family: family + styled, &s),
                primary.face.familyName.caseInsensitiveCompare(family) == .orderedSame
            else { continue }
            return .success(helveticaStandIn(primary, key: key))
        }
        return match(family: "Helvetica" + styled, &s).map { helveticaStandIn($0, key: key) }
    }

    private static func helveticaStandIn(_ primary: Primary, key: String) -> Primary {
        let em = primary.face.unitsPerEm
        return Primary(
            face: primary.face, key: key, pattern: primary.pattern,
            metrics: VerticalMetrics(
                ascent: helveticaAscent * em, descent: helveticaDescent * em,
                leading: 0, capHeight: primary.face.capHeight))
    }

    /// The first installed font (by file path, for a stable answer) whose `object`
    /// (postscriptname, fullname or family) is `value`, compared as fontconfig compares
    /// names (ignoring case), without substitution.
    private static func installed(_ object: String, _ value: String, _ s: inout State) -> (
        String, Int
    )? {
        guard let config = loadConfig(&s), let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = value.withCString {
            FcPatternAddString(
                pattern, object, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        guard let objects = FcObjectSetCreate() else { return nil }
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, FC_FILE)
        FcObjectSetAdd(objects, FC_INDEX)
        FcObjectSetAdd(objects, FC_STYLE)
        guard let set = FcFontList(config, pattern, objects) else { return nil }
        defer { FcFontSetDestroy(set) }
        var found: [(file: String, index: Int, regular: Bool)] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i], let (file, index) = fileAndIndex(font) else {
                continue
            }
            var style: UnsafeMutablePointer<FcChar8>?
            let name =
                FcPatternGetString(font, FC_STYLE, 0, &style) == FcResultMatch && style != nil
                ? String(cString: UnsafeRawPointer(style!).assumingMemoryBound(to: CChar.self)) : ""
            found.append(
                (file, index, ["regular", "book", "roman", "normal"].contains(name.lowercased())))
        }
        // A family name gives its regular face, as CTFontCreateWithName("Avenir Next") does.
        let best = found.sorted {
            ($0.regular ? 0 : 1, $0.file, $0.index) < ($1.regular ? 0 : 1, $1.file, $1.index)
        }.first
        return best.map { ($0.file, $0.index) }
    }

    private static func familyPattern(_ family: String, _ s: inout State) -> OpaquePointer? {
        guard let config = loadConfig(&s), let pattern = FcPatternCreate() else { return nil }
        _ = family.withCString {
            FcPatternAddString(
                pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func query(_ scalar: Unicode.Scalar, pattern: OpaquePointer?, _ s: inout State)
        -> FontFace?
    {
        guard let config = loadConfig(&s), let pattern, let query = FcPatternDuplicate(pattern)
        else { return nil }
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
            if let font = sorted.pointee.fonts[i], let face = coveringFace(font, scalar, &s) {
                return face
            }
        }
        return nil
    }

    /// The face of a fontconfig match if its charset and cmap cover `scalar`.
    private static func coveringFace(
        _ pattern: OpaquePointer, _ scalar: Unicode.Scalar, _ s: inout State
    ) -> FontFace? {
        var covered: OpaquePointer?
        guard FcPatternGetCharSet(pattern, FC_CHARSET, 0, &covered) == FcResultMatch,
            FcCharSetHasChar(covered, scalar.value) != 0,
            let (file, index) = fileAndIndex(pattern),
            case .success(let face) = face(file: file, index: index, &s), face.covers(scalar)
        else { return nil }
        return face
    }

    private static func fileAndIndex(_ pattern: OpaquePointer) -> (String, Int)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else {
            return nil
        }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return (
            String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), Int(index)
        )
    }
}
