import FlipbookGeometry
import Foundation
import Testing
@testable import FlipbookText

/// Bidi, line breaking, itemisation and truncation checked against Pango (see
/// ``PangoReference``): DejaVu Sans at 32 px, unhinted, both sides cropped to their ink
/// and compared with one pixel of anti-aliasing phase (``InkAgreement``); wrapped cases
/// also compare each line's text with Pango's and each line's ink band.
@Suite(.serialized) struct PangoComparisonTests {
    static let size = 32.0

    /// Lays `text` out like `pango` did and checks the ink agrees: as a whole, and line by
    /// line when wrapped. Returns the whole-image agreement.
    @discardableResult
    func compare(
        _ text: String, width: Double? = nil, alignment: TextRequest.Alignment = .left,
        truncation: TextRequest.Truncation = .none, direction: TextRequest.Direction = .natural,
        pango options: PangoReference.Options = .init(), ink: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> InkAgreement {
        var options = options
        options.width = width
        let pango = try PangoReference.render(text, options)
        let box = Size(width ?? 100_000, 100_000)
        let wrapped = width != nil && truncation == .none
        // Lines are spaced as Pango spaced them, by FreeType's pixel-rounded ascender and
        // descender of the line's fonts (38 px for DejaVu Sans at 32 px) where Core Text
        // and Flipbook use the unrounded ones (37.25 px): a deliberate difference, set
        // aside here through the request's lineHeight so whole paragraphs compare.
        let spacing = wrapped ? pango.height / Double(max(1, pango.lines.count)) : nil
        let layout = try TextEngine.shared.layout(
            TextRequest(
                string: text, font: .family("DejaVu Sans"), fontSize: Self.size, boxSize: box,
                alignment: alignment,
                wrapped: wrapped, truncation: truncation, direction: direction, lineHeight: spacing)
        )
        let ours = InkImage(
            layout: layout, width: pango.image.width + 64, height: pango.image.height + 64)
        let whole = InkAgreement(ours.croppedToInk(), pango.image.croppedToInk())
        print("pango: \(text) [\(width.map { "width \(Int($0)) " } ?? "")\(truncation)]: \(whole)")
        if let dump = ProcessInfo.processInfo.environment["PANGO_DUMP"] {
            let name = "\(dump)-\(text.unicodeScalars.count)-\(Int(width ?? 0))-\(truncation)"
            ours.croppedToInk().writePGM(name + "-ours.pgm")
            pango.image.croppedToInk().writePGM(name + "-pango.pgm")
        }
        if ink { #expect(whole.agrees, "\(text): \(whole)", sourceLocation: sourceLocation) }
        if wrapped {
            #expect(layout.lines.map(\.text) == pango.lines, sourceLocation: sourceLocation)
        }
        return whole
    }

    /// Numbers with separators inside RTL text stay one left-to-right number (UAX #9 W4:
    /// a single CS between two ENs is EN), the shekel sign follows it (ET), and the
    /// parentheses around the Hebrew are mirrored. The old reduced bidi drew "50.234,1".
    @Test func priceInHebrewKeepsItsNumberTogether() throws {
        try compare("מחיר: 1,234.50 ₪ (כולל מע״מ)")
    }

    /// The comparison can fail: the number written backwards (what the old code drew) does
    /// not match Pango's drawing of the right string.
    @Test func reversedNumberDoesNotMatchPango() throws {
        let pango = try PangoReference.render("מחיר: 1,234.50 ₪ (כולל מע״מ)")
        let wrong = try TextEngine.shared.layout(
            TextRequest(
                string: "מחיר: 05.432,1 ₪ (כולל מע״מ)", font: .family("DejaVu Sans"),
                fontSize: Self.size,
                boxSize: Size(100_000, 100_000)))
        let ours = InkImage(
            layout: wrong, width: pango.image.width + 64, height: pango.image.height + 64)
        let agreement = InkAgreement(ours.croppedToInk(), pango.image.croppedToInk())
        #expect(!agreement.agrees, "\(agreement)")
        print("pango: reversed number against Pango's drawing: \(agreement)")
    }

    /// Latin, Hebrew, digits, a bracketed Hebrew word and Arabic in one LTR paragraph: the
    /// Arabic letters join although the runs around them change direction, and the line
    /// is as wide as Pango's (the old code drew it 682 px wide against Pango's 610).
    @Test func mixedParagraphJoinsArabic() throws {
        let text = "Hello עולם 123 (שלום) مرحبا بالعالم 2024!"
        try compare(text)
        let layout = try TextEngine.shared.layout(
            TextRequest(
                string: text, font: .family("DejaVu Sans"), fontSize: Self.size,
                boxSize: Size(100_000, 100)))
        let pango = try PangoReference.render(text)
        #expect(
            abs(layout.lines[0].width - pango.width) < 0.5,
            "\(layout.lines[0].width) vs \(pango.width)")
        print("pango: mixed paragraph width \(layout.lines[0].width) px, Pango \(pango.width) px")
    }

    /// Brackets in a right-to-left paragraph are drawn mirrored (HarfBuzz's mirroring in
    /// RTL runs) and paired (N0), also around left-to-right content.
    @Test func mirroredBracketsInRTL() throws {
        try compare("הטקסט (בסוגריים) [abc] {סוף} <1>")
    }

    /// Explicit isolates and embeddings (UAX #9 X1–X10): an LTR isolate holding Latin
    /// with a trailing "!" inside Hebrew text, and an RLE…PDF embedding in Latin text.
    @Test func isolatesAndEmbeddings() throws {
        try compare("שלום \u{2066}abc def!\u{2069} עולם")
        try compare("price: \u{202B}(12 שקל)\u{202C} today")
    }

    /// An explicit right-to-left direction on text whose first strong letter is Latin.
    @Test func explicitRTLDirection() throws {
        var options = PangoReference.Options()
        options.rtl = true
        try compare("abc שלום 12.5%", direction: .rightToLeft, pango: options)
    }

    /// A Hebrew paragraph wrapped at 360 px, right-aligned (Pango's `left` is the start
    /// side, i.e. right, of an RTL paragraph) and centred.
    @Test func wrappedRTLParagraphAligned() throws {
        let text =
            "זהו משפט ארוך בעברית שנשבר לכמה שורות, עם מספר 3.14 וסימני פיסוק (בסוגריים) בסופו."
        var options = PangoReference.Options()
        options.align = "left"
        try compare(text, width: 360, alignment: .right, pango: options)
        options.align = "center"
        try compare(text, width: 360, alignment: .center, pango: options)
    }

    /// A wrapped Arabic paragraph: joining and line breaks as Pango's.
    @Test func wrappedArabicParagraph() throws {
        var options = PangoReference.Options()
        options.align = "left"
        try compare(
            "مرحبا بالعالم، هذه فقرة عربية طويلة تلتف على عدة أسطر 2024.", width: 300,
            alignment: .right,
            pango: options)
    }

    /// Japanese wrapped at 300 px: no line starts with a closing bracket, a comma, a full
    /// stop or a small kana, and none ends with an opening bracket (kinsoku).
    @Test func cjkKinsoku() throws {
        try compare("日本語の文章「かぎかっこ」を、ちょっと折り返してみます。", width: 300)
        try compare("中文排版测试：标点“引号”不能出现在行首，句号。逗号，都要避头。", width: 260)
    }

    /// Letters with stacked combining marks cut with an ellipsis at the end: the same
    /// clusters kept as Pango, drawn the same.
    @Test func endTruncationOfCombiningMarks() throws {
        var options = PangoReference.Options()
        options.ellipsize = "end"
        for width in [100.0, 150, 200] {
            try compare("ä̈ë́ö̃ü̈ḯx̧̌ÿ̄ä̈ë́ö̃ü̈ḯ", width: width, truncation: .end, pango: options)
        }
    }

    /// Emoji ZWJ sequences (Symbola draws them; it has no ZWJ ligatures, so a family is
    /// its members side by side, in Pango too) and stacked marks cut at the end: the kept
    /// text is Pango's, whole clusters, plus "…". Ink is not compared: Pango stretches its
    /// ellipsis glyph over the gap it leaves (91 px at width 150), Core Text does not.
    @Test func endTruncationKeepsEmojiSequencesWhole() throws {
        let text = "ä̈ë́ö̃👩‍👩‍👧ü̈ḯ👨‍👩‍👦x̧̌ÿ̄"
        var options = PangoReference.Options()
        options.ellipsize = "end"
        options.width = 0
        for width in [150.0, 200, 260, 330] {
            options.width = width
            let pango = try PangoReference.render(text, options)
            let layout = try TextEngine.shared.layout(
                TextRequest(
                    string: text, font: .family("DejaVu Sans"), fontSize: Self.size,
                    boxSize: Size(width, 100),
                    truncation: .end))
            let expected = pango.kept.map { $0 + Truncator.ellipsis } ?? text
            #expect(layout.lines.map(\.text) == [expected], "width \(width)")
            print("pango: kept at \(Int(width)) px: \(layout.lines[0].text) (Pango: \(expected))")
        }
    }

    /// Cut at the start, the kept tail is whole grapheme clusters and the longest that
    /// fits. Not compared with Pango: its start ellipsization splits "ü̈" and "ÿ̄",
    /// keeping the marks without their base (pango 1.50.12), which Core Text never does.
    @Test func startTruncationKeepsWholeClusters() throws {
        let text = "ä̈ë́ö̃👩‍👩‍👧ü̈ḯ👨‍👩‍👦x̧̌ÿ̄"
        let characters = Array(text)
        for width in [150.0, 200, 260] {
            let layout = try TextEngine.shared.layout(
                TextRequest(
                    string: text, font: .family("DejaVu Sans"), fontSize: Self.size,
                    boxSize: Size(width, 100),
                    truncation: .start))
            let line = layout.lines[0]
            #expect(line.text.hasPrefix(Truncator.ellipsis) && line.width <= width)
            let kept = Array(line.text.dropFirst())
            #expect(Array(characters.suffix(kept.count)) == kept, "width \(width): \(line.text)")
            let longer = Truncator.ellipsis + String(characters.suffix(kept.count + 1))
            let next = try TextEngine.shared.layout(
                TextRequest(
                    string: longer, font: .family("DejaVu Sans"), fontSize: Self.size,
                    boxSize: Size(100_000, 100)))
            #expect(next.lines[0].width > width, "width \(width): \(longer) would fit")
        }
    }

    /// A word wider than the line breaks between grapheme clusters, never inside an emoji
    /// sequence or between a letter and its marks; the lines are Pango's (`word-char`).
    /// Ink is not compared as a whole: Pango makes lines holding Symbola glyphs taller.
    @Test func overlongWordBreaksBetweenClusters() throws {
        try compare("ä̈ë́ö̃👩‍👩‍👧ü̈ḯ👨‍👩‍👦x̧̌ÿ̄ä̈ë́ö̃", width: 150, ink: false)
    }
}
