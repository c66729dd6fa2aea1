import FlipbookGeometry
import Testing
@testable import FlipbookText

/// The request options Lottie text layers need (direction, tracking, line height) and
/// what the layout reports back (first baseline, line widths). Widths from fontTools hmtx
/// (DejaVu Sans, 2048 units per em): "Hello" 5191 units, no kerning pairs.
struct RequestOptionsTests {
    static let font = TextRequest.Font.family("DejaVu Sans")

    func layout(
        _ string: String, size: Double = 20, box: Size = Size(10_000, 10_000),
        alignment: TextRequest.Alignment = .left, wrapped: Bool = false,
        direction: TextRequest.Direction = .natural, tracking: Double = 0,
        lineHeight: Double? = nil
    ) throws -> TextLayout {
        try TextEngine.shared.layout(
            TextRequest(
                string: string, font: Self.font, fontSize: size, boxSize: box,
                alignment: alignment, wrapped: wrapped, direction: direction,
                tracking: tracking, lineHeight: lineHeight))
    }

    /// Tracking adds its points after every character: 5 characters × 3 pt, and the n-th
    /// glyph moves right by n × 3 pt.
    @Test func trackingWidensEveryCharacter() throws {
        let plain = try layout("Hello"), tracked = try layout("Hello", tracking: 3)
        let hello = 5191.0 * 20 / 2048
        #expect(abs(plain.lines[0].width - hello) < 1e-9)
        #expect(abs(tracked.lines[0].width - (hello + 15)) < 1e-9)
        for (k, (a, b)) in zip(plain.glyphs, tracked.glyphs).enumerated() {
            #expect(abs(b.origin.x - a.origin.x - Double(k) * 3) < 1e-9)
        }
    }

    /// With tracking, "ffi" is three glyphs (no ligature), as in Core Text.
    @Test func trackingTurnsLigaturesOff() throws {
        #expect(try layout("ffi").glyphs.count == 1)
        #expect(try layout("ffi", tracking: 1).glyphs.count == 3)
    }

    /// Tracking counts in wrapping: each word of "aa aa aa" is 2 × (1255 units · 20/2048
    /// = 12.26) = 24.5 pt plain, 44.5 pt with 10 pt tracking; a 60 pt line holds two
    /// plain words (24.5 + space 6.4 + 24.5 = 55.4) but one tracked word.
    @Test func trackingCountsInWrapping() throws {
        #expect(
            try layout("aa aa aa", box: Size(60, 500), wrapped: true).lines.map(\.text) == [
                "aa aa", "aa",
            ])
        #expect(
            try layout("aa aa aa", box: Size(60, 500), wrapped: true, tracking: 10).lines.map(
                \.text)
                == ["aa", "aa", "aa"])
    }

    /// An explicit line height spaces baselines; the first baseline stays one ascender
    /// (1901 units) below the top and is reported.
    @Test func explicitLineHeightAndFirstBaseline() throws {
        let result = try layout("A\nB\nC", lineHeight: 50)
        let ascent = 1901.0 * 20 / 2048
        #expect(abs(result.firstBaseline - ascent) < 1e-9)
        #expect(result.lines.map(\.baseline) == [ascent, ascent + 50, ascent + 100])
        #expect(result.lineHeight == 50)
        // Invalid heights fall back to the font's.
        #expect(abs(try layout("A", lineHeight: -1).lineHeight - 2384.0 * 20 / 2048) < 1e-9)
        #expect(abs(try layout("A", lineHeight: .nan).lineHeight - 2384.0 * 20 / 2048) < 1e-9)
    }

    /// A right-to-left direction on Latin text moves the trailing "!" to the left (it is
    /// a neutral at the end of an RTL paragraph), and the line reports its direction.
    @Test func explicitDirection() throws {
        let natural = try layout("abc!"), rtl = try layout("abc!", direction: .rightToLeft)
        #expect(natural.glyphs.map(\.character) == ["a", "b", "c", "!"])
        #expect(rtl.glyphs.map(\.character) == ["!", "a", "b", "c"])
        #expect(!natural.lines[0].isRightToLeft && rtl.lines[0].isRightToLeft)
        #expect(try layout("שלום").lines[0].isRightToLeft)
    }

    /// Justified text: the last line of a right-to-left paragraph sits on the right (its
    /// natural side), the others fill the box.
    @Test func justifiedRTLLastLineIsRightAligned() throws {
        let result = try layout(
            "שלום עולם שלום עולם שלום", box: Size(150, 500), alignment: .justified, wrapped: true)
        #expect(result.lines.count >= 2)
        for line in result.lines.dropLast() { #expect(line.x == 0 && abs(line.width - 150) < 1e-9) }
        let last = result.lines.last!
        #expect(abs(last.x + last.width - 150) < 1e-9 && last.width < 150)
    }
}
