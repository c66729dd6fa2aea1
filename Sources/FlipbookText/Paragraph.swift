/// One paragraph (text between explicit newlines) split into grapheme clusters, each
/// with its font, bidi level and line-breaking class.
///
/// Rules:
/// - Clusters are Swift `Character`s, so a base letter and its combining marks always
///   share a font and a line.
/// - Font choice per cluster: the primary font if it covers every scalar that needs a
///   glyph; otherwise the first fallback (see ``FontLibrary``) covering them all; else the
///   primary or a fallback covering the base scalar; else none: the cluster is missing
///   and draws nothing. Controls and default-ignorable scalars (ZWJ, variation
///   selectors…) never need a glyph; a tab is shaped as a space.
/// - Bidi levels come from ``BidiResolver`` on each cluster's first scalar.
struct Paragraph {
    struct Cluster {
        var text: Character
        /// Scalar range in ``Paragraph/scalars``.
        var scalars: Range<Int>
        var font: FontFace?
        var level: UInt8
        /// A breaking space (not a no-break space).
        var isSpace: Bool
        /// Lines may break before and after it (CJK ideographs, kana, Hangul).
        var isIdeographic: Bool
        /// Only drawn-nothing clusters that need no glyph (controls, joiners).
        var isIgnorable: Bool
        /// Advance in points, filled by ``Shaper/measure(_:fontSize:)``.
        var advance: Double = 0
    }

    var scalars: [UInt32] = []
    /// For each scalar, the index of its cluster (HarfBuzz reports scalar indices).
    var clusterOfScalar: [Int] = []
    var clusters: [Cluster] = []
    var paragraphLevel: UInt8 = 0

    var missingCount: Int { clusters.count { $0.font == nil && !$0.isIgnorable } }

    init(_ text: Substring, primary: FontLibrary.Primary, library: FontLibrary) {
        var classes: [BidiResolver.BidiClass] = []
        for character in text {
            let start = scalars.count
            var drawn: [Unicode.Scalar] = []
            for scalar in character.unicodeScalars {
                let shaped: Unicode.Scalar = scalar == "\t" ? " " : scalar
                scalars.append(shaped.value)
                clusterOfScalar.append(clusters.count)
                if !Self.isIgnorable(shaped) { drawn.append(shaped) }
            }
            let first = character.unicodeScalars.first!
            let space = character == " " || character == "\t"
                || (first.properties.generalCategory == .spaceSeparator && !Self.noBreakSpaces.contains(first.value))
            clusters.append(Cluster(
                text: character, scalars: start..<scalars.count,
                font: drawn.isEmpty ? primary.face : Self.font(for: drawn, primary: primary, library: library),
                level: 0, isSpace: space, isIdeographic: Self.isIdeographic(first), isIgnorable: drawn.isEmpty))
            classes.append(BidiResolver.bidiClass(first))
        }
        let (base, levels) = BidiResolver.levels(classes)
        paragraphLevel = base
        for i in clusters.indices { clusters[i].level = levels[i] }
    }

    /// The text of clusters `range`.
    func text(_ range: Range<Int>) -> String {
        String(clusters[range].map(\.text))
    }

    private static let noBreakSpaces: Set<UInt32> = [0xA0, 0x2007, 0x202F]

    private static func isIgnorable(_ s: Unicode.Scalar) -> Bool {
        s.properties.isDefaultIgnorableCodePoint || s.properties.generalCategory == .control
    }

    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2E80...0x2FFF, 0x3000...0x30FF, 0x3130...0x318F, 0x31C0...0x9FFF, 0xAC00...0xD7AF,
             0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF: true
        default: false
        }
    }

    private static func font(for drawn: [Unicode.Scalar], primary: FontLibrary.Primary,
                             library: FontLibrary) -> FontFace? {
        if drawn.allSatisfy(primary.face.covers) { return primary.face }
        var candidates: [FontFace] = []
        for scalar in drawn where !primary.face.covers(scalar) {
            if let face = library.fallback(for: scalar, primary: primary), !candidates.contains(where: { $0 === face }) {
                candidates.append(face)
            }
        }
        if let all = candidates.first(where: { face in drawn.allSatisfy(face.covers) }) { return all }
        let base = drawn[0]
        if primary.face.covers(base) { return primary.face }
        return candidates.first { $0.covers(base) }
    }
}
