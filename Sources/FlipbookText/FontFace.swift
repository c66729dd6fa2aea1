import CFreeType
import CHarfBuzz

/// One font (file + face index): FreeType for outlines and metrics, HarfBuzz for
/// character coverage and shaping.
///
/// Rules:
/// - Metrics are the face's hhea-style values from FreeType, in font units:
///   `ascender` (> 0), `descender` (< 0) and `lineGap` = height − (ascender − descender).
/// - `capHeight` is the OS/2 table's sCapHeight (version 2 and later), else the top of the
///   "H" outline, else the ascender: what Core Text's CTFontGetCapHeight reports.
/// - The HarfBuzz font is built from the file's blob with the OpenType functions and
///   scale = unitsPerEm, so shaping positions come back in font units (hmtx advances,
///   GPOS/kern kerning). A configured hb_font is immutable and safe to shape with from
///   several threads; the FreeType face is only used behind ``GlyphOutlines``' lock.
/// - Faces are created once by ``FontLibrary`` and live as long as the process.
final class FontFace: @unchecked Sendable {
    let file: String
    let index: Int
    let familyName: String
    let unitsPerEm: Double
    let ascender: Double
    let descender: Double
    let lineGap: Double
    let capHeight: Double
    let outlines: GlyphOutlines
    let hbFont: OpaquePointer

    /// Opens `file`'s face `index`; `library` must be used under the caller's lock.
    init(file: String, index: Int, library: FT_Library) throws(TextError) {
        var face: FT_Face?
        let error = FT_New_Face(library, file, FT_Long(index), &face)
        guard error == 0, let face else {
            throw .unreadableFontFile(path: file, freeTypeError: error)
        }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0,
            face.pointee.units_per_EM > 0,
            let blob = hb_blob_create_from_file_or_fail(file)
        else {
            FT_Done_Face(face)
            throw .unreadableFontFile(path: file, freeTypeError: -1)
        }
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let font = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        let upem = Int32(face.pointee.units_per_EM)
        hb_font_set_scale(font, upem, upem)
        hb_font_make_immutable(font)

        self.file = file
        self.index = index
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(upem)
        ascender = Double(face.pointee.ascender)
        descender = Double(face.pointee.descender)
        lineGap = max(0, Double(face.pointee.height) - (ascender - descender))
        let glyphOutlines = GlyphOutlines(face: face)
        outlines = glyphOutlines
        hbFont = font
        capHeight = Self.capHeight(face, outlines: glyphOutlines) ?? Double(face.pointee.ascender)
    }

    private static func capHeight(_ face: FT_Face, outlines: GlyphOutlines) -> Double? {
        if let table = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version >= 2, os2.sCapHeight > 0 { return Double(os2.sCapHeight) }
        }
        let h = FT_Get_Char_Index(face, 0x48)
        guard h != 0, let top = outlines.outline(UInt32(h)).controlBounds.map({ $0.y + $0.height })
        else { return nil }
        return top
    }

    /// Whether the font maps `scalar` to a glyph (cmap), i.e. FT_Get_Char_Index ≠ 0.
    func covers(_ scalar: Unicode.Scalar) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 && glyph != 0
    }
}
