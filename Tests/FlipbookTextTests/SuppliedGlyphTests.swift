import Foundation
import Testing
import FlipbookGeometry
@testable import FlipbookText

/// `TextRequest.suppliedGlyphs`: characters drawn from the caller's outlines at their own
/// advances, mixed on one line with characters shaped from a font. The supplied "H" is a
/// rectangle, 0.1…0.5 em wide and 0.7 em tall, advancing 0.6 em; the font characters come
/// from Nimbus Sans (the Core Text stand-in for an unknown name), their advances read from
/// its AFM file (`WX`), not from the engine. Each font character sits between supplied
/// ones, so no font pair can be kerned.
@Suite struct SuppliedGlyphTests {
    static let afm = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.afm"
    static let h = GlyphOutline(
        path: .rect(Rect(0.1, -0.7, 0.4, 0.7)), advance: 0.6)

    /// The advance width (`WX`, 1/1000 em) of the glyph named `name` in Nimbus Sans' AFM.
    static func afmWidth(_ name: String) throws -> Double {
        try #require(FileManager.default.fileExists(atPath: afm), "fonts-urw-base35 is missing")
        let text = try String(contentsOfFile: afm, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("; N \(name) ;") })
        let wx = try #require(line.split(separator: ";").first { $0.hasPrefix(" WX ") })
        return try #require(Double(wx.split(separator: " ")[1])) / 1000
    }

    static func layout(
        _ string: String, size: Double = 50, box: Size = Size(0, 0), wrapped: Bool = false,
        alignment: TextRequest.Alignment = .left, tracking: Double = 0,
        glyphs: [Character: GlyphOutline] = ["H": h]
    ) throws -> TextLayout {
        try TextEngine.shared.layout(
            TextRequest(
                string: string, font: .coreTextName("NoSuchFont-Regular"), fontSize: size,
                boxSize: box, alignment: alignment, wrapped: wrapped, tracking: tracking,
                coreTextFrame: true, suppliedGlyphs: glyphs))
    }

    /// "HIHI" at 50 pt with 2 pt tracking: pens at 0, 30 + 2, then + I's AFM advance + 2…
    /// Each H's outline lands 5…25 pt right of its pen and 35 pt above the baseline.
    @Test func advancesOfTheMixedRunAddUp() throws {
        let i = try Self.afmWidth("I") * 50
        let layout = try Self.layout("HIHI", tracking: 2)
        let pens = [0, 32, 34 + i, 66 + i]
        #expect(layout.glyphs.map(\.isSupplied) == [true, false, true, false])
        #expect(layout.glyphs.map(\.character) == ["H", "I", "H", "I"])
        for (glyph, pen) in zip(layout.glyphs, pens) {
            #expect(abs(glyph.origin.x - pen) < 1e-9, "\(glyph.character) at \(glyph.origin.x)")
        }
        #expect(abs(layout.glyphs[1].advance - i) < 1e-9)
        #expect(layout.glyphs[1].fontFile.hasSuffix("NimbusSans-Regular.otf"))
        #expect(abs(try #require(layout.lines.first).width - (2 * 30 + 2 * i + 4 * 2)) < 1e-9)
        let baseline = layout.firstBaseline
        for (k, glyph) in layout.glyphs.enumerated() where glyph.isSupplied {
            let bounds = try #require(glyph.bounds)
            let expected = Rect(pens[k] + 5, baseline - 35, 20, 35)
            #expect(
                abs(bounds.x - expected.x) < 1e-9 && abs(bounds.y - expected.y) < 1e-9
                    && abs(bounds.width - 20) < 1e-9 && abs(bounds.height - 35) < 1e-9)
        }
    }

    /// Wrapping and centring measure both kinds alike: "HI HI HI" in a 110 pt box breaks
    /// after the second word ("HI HI" is 2 × (30 + I) + a space, both from the AFM), and
    /// each line is centred by its own width.
    @Test func wrapsAndCentresTheMixedLine() throws {
        let i = try Self.afmWidth("I") * 50, space = try Self.afmWidth("space") * 50
        let layout = try Self.layout(
            "HI HI HI", box: Size(110, 200), wrapped: true, alignment: .center)
        #expect(layout.lines.map(\.text) == ["HI HI", "HI"])
        let widths = [2 * (30 + i) + space, 30 + i]
        for (line, width) in zip(layout.lines, widths) {
            #expect(abs(line.width - width) < 1e-9 && abs(line.x - (110 - width) / 2) < 1e-9)
        }
    }

    /// A supplied character needs no font: one no installed font has is drawn from its
    /// outline, not as a missing box, while the rest of the string falls back as usual.
    @Test func suppliedCharacterIsNeverMissing() throws {
        let hieroglyph: Character = "\u{13000}"
        let plain = try Self.layout("I\(hieroglyph)", glyphs: [:])
        try #require(plain.missing == [hieroglyph], "a font covering U+13000 is installed")
        let supplied = try Self.layout("I\(hieroglyph)", glyphs: [hieroglyph: Self.h])
        #expect(supplied.missing.isEmpty && supplied.missingCharacters == 0)
        #expect(supplied.glyphs.map(\.isSupplied) == [false, true])
    }
}
