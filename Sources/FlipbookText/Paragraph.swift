import CHarfBuzz
import FlipbookGeometry

/// One paragraph (text between explicit newlines) split into grapheme clusters, each
/// with its font, bidi level, script and line-break opportunity.
///
/// Rules:
/// - Clusters are Swift `Character`s: extended grapheme clusters (UAX #29, the standard
///   library's implementation), so a base letter and its combining marks, an emoji ZWJ
///   sequence or a flag always share a font, a line and a truncation fate.
/// - Font choice per cluster: the primary font if it covers every scalar that needs a
///   glyph; otherwise the first fallback (see ``FontLibrary``) covering them all; else the
///   primary or a fallback covering the base scalar; else the cluster is *missing*: it is
///   shaped with the primary font, which draws its .notdef glyph (a box), and it is
///   listed in ``TextLayout/missing``. Controls and default-ignorable scalars (ZWJ,
///   variation selectors, bidi controls…) never need a glyph; a tab is shaped as a space.
/// - A cluster the request supplies an outline for (``TextRequest/suppliedGlyphs``) needs
///   no font: it keeps the primary font for itemisation, is never missing, and
///   ``Shaper`` draws its outline at its own advance.
/// - Bidi levels come from ``Bidi`` over the whole paragraph (per scalar; ``Shaper``
///   takes a cluster's from its first scalar after the line's L1).
/// - Script (for HarfBuzz, UAX #24): each scalar's Unicode script; Common and Inherited
///   scalars (spaces, digits, punctuation, marks) take the script before them, or at the
///   paragraph start the first real script after them.
/// - Line-break opportunities come from ``LineBreaks/opportunities(_:clusterStarts:)``.
struct Paragraph {
    struct Cluster {
        var text: Character
        /// Scalar range in ``Paragraph/scalars``.
        var scalars: Range<Int>
        var font: FontFace
        /// No installed font covers it: drawn as .notdef.
        var isMissing: Bool
        var script: hb_script_t = HB_SCRIPT_COMMON
        /// A breaking space (not a no-break space).
        var isSpace: Bool
        /// A line may start with this cluster.
        var breakBefore = false
        /// Advance in points (tracking included), filled by ``Shaper/measure(_:fontSize:tracking:)``.
        var advance: Double = 0
        /// The outline drawn instead of a font's glyphs (``TextRequest/suppliedGlyphs``).
        var supplied: GlyphOutline?
    }

    var scalars: [UInt32] = []
    /// For each scalar, the index of its cluster (HarfBuzz reports scalar indices).
    var clusterOfScalar: [Int] = []
    var clusters: [Cluster] = []
    let bidi: Bidi

    var missing: [Character] { clusters.filter(\.isMissing).map(\.text) }

    init(
        _ text: Substring, direction: TextRequest.Direction, primary: FontLibrary.Primary,
        library: FontLibrary, supplied: [Character: GlyphOutline] = [:]
    ) {
        var utf16Starts: [Int] = []
        var utf16 = 0
        for character in text {
            utf16Starts.append(utf16)
            utf16 += character.utf16.count
            let start = scalars.count
            var drawn: [Unicode.Scalar] = []
            for scalar in character.unicodeScalars {
                let shaped: Unicode.Scalar = scalar == "\t" ? " " : scalar
                scalars.append(shaped.value)
                clusterOfScalar.append(clusters.count)
                if !Self.isIgnorable(shaped) { drawn.append(shaped) }
            }
            let first = character.unicodeScalars.first!
            let space =
                character == " " || character == "\t"
                || (first.properties.generalCategory == .spaceSeparator
                    && !Self.noBreakSpaces.contains(first.value))
            let glyph = supplied[character]
            let font =
                drawn.isEmpty || glyph != nil
                ? primary.face : Self.font(for: drawn, primary: primary, library: library)
            clusters.append(
                Cluster(
                    text: character, scalars: start..<scalars.count, font: font ?? primary.face,
                    isMissing: font == nil, isSpace: space, supplied: glyph))
        }
        bidi = Bidi(scalars, direction: direction)
        let scripts = Self.scripts(scalars)
        let breaks = LineBreaks.opportunities(text, clusterStarts: utf16Starts)
        for i in clusters.indices {
            let first = clusters[i].scalars.lowerBound
            clusters[i].script = scripts[first]
            clusters[i].breakBefore = breaks[i]
        }
    }

    /// The text of clusters `range`.
    func text(_ range: Range<Int>) -> String {
        String(clusters[range].map(\.text))
    }

    private static let noBreakSpaces: Set<UInt32> = [0xA0, 0x2007, 0x202F]

    private static func isIgnorable(_ s: Unicode.Scalar) -> Bool {
        s.properties.isDefaultIgnorableCodePoint || s.properties.generalCategory == .control
    }

    /// Each scalar's script, with Common/Inherited/Unknown resolved from their neighbours.
    private static func scripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(funcs, $0) }
        func isReal(_ s: hb_script_t) -> Bool {
            s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN
        }
        guard let firstReal = scripts.first(where: isReal) else { return scripts }
        var current = firstReal
        for i in scripts.indices {
            if isReal(scripts[i]) { current = scripts[i] } else { scripts[i] = current }
        }
        return scripts
    }

    private static func font(
        for drawn: [Unicode.Scalar], primary: FontLibrary.Primary,
        library: FontLibrary
    ) -> FontFace? {
        if drawn.allSatisfy(primary.face.covers) { return primary.face }
        var candidates: [FontFace] = []
        for scalar in drawn where !primary.face.covers(scalar) {
            if let face = library.fallback(for: scalar, primary: primary),
                !candidates.contains(where: { $0 === face })
            {
                candidates.append(face)
            }
        }
        if let all = candidates.first(where: { face in drawn.allSatisfy(face.covers) }) {
            return all
        }
        let base = drawn[0]
        if primary.face.covers(base) { return primary.face }
        return candidates.first { $0.covers(base) }
    }
}
