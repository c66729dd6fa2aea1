import FlipbookGeometry
import Testing
@testable import FlipbookText

/// Shaping against numbers derived independently from the font file with fontTools
/// (hmtx advances and the GPOS `kern` PairPos lookups, read by a short Python script
/// walking `TTFont['GPOS'].table.LookupList`), never from HarfBuzz itself.
struct ShapingTests {
    /// hmtx: H 1540, e 1260, l 569, l 569, o 1253 = 5191 units; GPOS has no kerning for
    /// He/el/ll/lo. At 100 pt: 5191 · 100 / 2048 = 253.466796875 pt.
    @Test func helloAdvanceMatchesHmtx() throws {
        let layout = try TextTest.layout("Hello")
        #expect(layout.lines.count == 1)
        #expect(abs(layout.lines[0].width - 253.466796875) < 1e-9)
        let advances = layout.glyphs.map { $0.advance * 2048 / 100 }
        #expect(advances.map { $0.rounded() } == [1540, 1260, 569, 569, 1253])
    }

    /// GPOS kern A→V is −131 units (fontTools), A and V advance 1401 each: "AV" is
    /// 2671 units, 131 narrower than "A" + "V".
    @Test func kerningNarrowsAV() throws {
        let av = try TextTest.layout("AV").lines[0].width
        let a = try TextTest.layout("A").lines[0].width
        let v = try TextTest.layout("V").lines[0].width
        #expect(abs(av - 2671.0 * 100 / 2048) < 1e-9)
        #expect(abs((a + v - av) - 131.0 * 100 / 2048) < 1e-9)
    }

    /// DejaVu Sans has an "ffi" ligature (uniFB03) applied by `liga`.
    @Test func ffiIsOneLigatureGlyph() throws {
        let layout = try TextTest.layout("ffi")
        #expect(layout.glyphs.count == 1)
        let plain = try TextTest.layout("f").lines[0].width * 3
        #expect(layout.lines[0].width < plain)
    }

    /// "e" + U+0301: HarfBuzz composes it to the font's precomposed "é" (one glyph, one
    /// cluster), whose ink rises above a plain e's top (1147 units, fontTools glyf yMax)
    /// by the acute (acutecomb reaches 1638 units); the mark adds no advance.
    @Test func combiningAcuteOnEDrawsTheAccentAboveTheE() throws {
        let layout = try TextTest.layout("e\u{301}")
        #expect(layout.lines[0].text == "e\u{301}")
        let plainE = try #require(try TextTest.layout("e").glyphs.first?.bounds)
        let accented = try #require(
            layout.glyphs.compactMap(\.bounds).reduce(nil as Rect?) { u, r in
                guard let u else { return r }
                let x0 = min(u.minX, r.minX), y0 = min(u.minY, r.minY)
                return Rect(x0, y0, max(u.maxX, r.maxX) - x0, max(u.maxY, r.maxY) - y0)
            })
        #expect(accented.minY < plainE.minY - 300.0 * 100 / 2048)  // y down: ink well above the e
        #expect(abs(layout.lines[0].width - 1260.0 * 100 / 2048) < 1e-9)
    }

    /// "x" + U+0301 has no precomposed form: two glyphs, and GPOS mark positioning puts
    /// the acute above the x and horizontally within it.
    @Test func combiningAcuteOnXIsPositionedAboveTheBase() throws {
        let layout = try TextTest.layout("x\u{301}")
        try #require(layout.glyphs.count == 2)
        let x = try #require(layout.glyphs[0].bounds)
        let accent = try #require(layout.glyphs[1].bounds)
        #expect(accent.maxY <= x.minY + 1)
        #expect(accent.midX > x.minX && accent.midX < x.maxX)
        #expect(layout.glyphs.allSatisfy { $0.character == "x\u{301}" })
    }

    /// "Hello 你好": DejaVu lacks the ideographs; fontconfig's fallback gives WenQuanYi.
    @Test func cjkFallsBackToWenQuanYi() throws {
        let layout = try TextTest.layout("Hello 你好", size: 20)
        #expect(layout.missingCharacters == 0)
        let cjk = layout.glyphs.filter { $0.character == "你" || $0.character == "好" }
        #expect(cjk.count == 2)
        #expect(cjk.allSatisfy { $0.fontFamily.contains("WenQuanYi") && $0.bounds != nil })
        #expect(
            layout.glyphs.filter { $0.character == "H" }.allSatisfy {
                $0.fontFamily == "DejaVu Sans"
            })
    }

    /// A private-use character no installed font covers is counted, listed, and drawn as
    /// the primary font's .notdef glyph (glyph 0: DejaVu's is a box with ink), taking its
    /// advance, as Core Text and Pango show "tofu" rather than nothing.
    @Test func uncoveredCharacterDrawsNotdefBox() throws {
        let layout = try TextTest.layout("a\u{10FFFD}b")
        #expect(layout.missingCharacters == 1)
        #expect(layout.missing == ["\u{10FFFD}"])
        #expect(layout.glyphs.map(\.character) == ["a", "\u{10FFFD}", "b"])
        let box = layout.glyphs[1]
        #expect(
            box.id == 0 && box.fontFamily == "DejaVu Sans" && box.bounds != nil && box.advance > 0)
        #expect(
            TextEngine.missingCharactersWarning(layout.missing + layout.missing)
                == "no installed font has this character; it is drawn as a box: \"\u{10FFFD}\" (U+10FFFD)"
        )
    }

    /// Hebrew "שלום" in an LTR sentence: the word is drawn right to left, so the leftmost
    /// glyph of the word is its last logical letter (final mem) and the rightmost its first.
    @Test func hebrewRunIsReversed() throws {
        let layout = try TextTest.layout("ab שלום cd", size: 20)
        let letters = layout.glyphs.map(\.character)
        #expect(letters == ["a", "b", " ", "ם", "ו", "ל", "ש", " ", "c", "d"])
        let xs = layout.glyphs.map(\.origin.x)
        #expect(xs == xs.sorted())
    }

    /// An RTL paragraph with digits: "שלום 123" displays as "123 םולש" (digits stay LTR).
    @Test func rtlParagraphKeepsNumbersLeftToRight() throws {
        let letters = try TextTest.layout("שלום 123", size: 20).glyphs.map(\.character)
        #expect(letters == ["1", "2", "3", " ", "ם", "ו", "ל", "ש"])
    }

    /// Arabic joins: the letters of "مرحبا" take contextual forms (other glyphs than the
    /// same letters shaped alone) and are drawn right to left (alef, last, leftmost).
    @Test func arabicJoinsAndRunsRightToLeft() throws {
        let word = "مرحبا"
        let layout = try TextTest.layout(word, size: 20)
        #expect(layout.missingCharacters == 0)
        #expect(layout.glyphs.map(\.character) == word.reversed().map(String.init))
        let isolated = try word.map { try TextTest.layout(String($0), size: 20).glyphs[0].id }
        #expect(layout.glyphs.map(\.id) != isolated.reversed())
    }

    /// FriBidi's levels for "ab אב 12", worked by hand from UAX #9: in the natural (LTR,
    /// first strong is L) paragraph the Hebrew is level 1; the digits follow R, so W7
    /// leaves them EN (level 2 by I1) and the space between R and EN is R by N1 (level 1):
    /// it displays "ab 12 בא". In an explicit right-to-left paragraph the Latin and the
    /// digits are level 2 and the neutrals level 1.
    @Test func bidiLevelsFromFriBidi() {
        let scalars = "ab אב 12".unicodeScalars.map(\.value)
        let ltr = Bidi(scalars, direction: .natural)
        #expect(!ltr.isRightToLeft)
        #expect(ltr.levels == [0, 0, 0, 1, 1, 1, 2, 2])
        let rtl = Bidi(scalars, direction: .rightToLeft)
        #expect(rtl.isRightToLeft)
        #expect(rtl.levels == [2, 2, 1, 1, 1, 1, 2, 2])
        // Visual order of the RTL line: "12 בא ab" → positions of each logical scalar.
        #expect(rtl.reorder(0..<8).visualPosition == [6, 7, 5, 4, 3, 2, 0, 1])
    }
}
