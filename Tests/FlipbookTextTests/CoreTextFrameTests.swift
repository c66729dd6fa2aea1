import Foundation
import Testing
import FlipbookGeometry
@testable import FlipbookText

/// `TextRequest.coreTextFrame` and `.coreTextName` fonts: lottie-ios's Core Text layer
/// (CoreTextRenderLayer) on Linux. Expected positions come from Core Text's rules as
/// lottie-ios uses them and from the fonts' own tables, read here with a small sfnt reader
/// of their bytes (not through FreeType), or from Helvetica's published metrics.
@Suite struct CoreTextFrameTests {
    static let nimbusSans = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// head.unitsPerEm, hhea ascender/descender/lineGap and OS/2 sCapHeight of a font file.
    struct Tables {
        var unitsPerEm = 0.0, ascender = 0.0, descender = 0.0, lineGap = 0.0, capHeight = 0.0

        init(_ path: String) throws {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            func u16(_ o: Int) -> Int { Int(bytes[o]) << 8 | Int(bytes[o + 1]) }
            func i16(_ o: Int) -> Double { Double(Int16(bitPattern: UInt16(u16(o)))) }
            func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
            var offsets: [String: Int] = [:]
            for i in 0..<u16(4) {
                let record = 12 + 16 * i
                offsets[String(decoding: bytes[record..<record + 4], as: UTF8.self)] = u32(
                    record + 8)
            }
            let head = try #require(offsets["head"]), hhea = try #require(offsets["hhea"])
            let os2 = try #require(offsets["OS/2"])
            unitsPerEm = Double(u16(head + 18))
            ascender = i16(hhea + 4)
            descender = i16(hhea + 6)
            lineGap = i16(hhea + 8)
            capHeight = u16(os2) >= 2 ? i16(os2 + 88) : 0
        }
    }

    static func layout(
        _ string: String, font: TextRequest.Font, size: Double = 100, box: Size = Size(0, 0),
        wrapped: Bool = false, lineHeight: Double? = nil, frame: Bool = true
    ) throws -> TextLayout {
        try TextEngine.shared.layout(
            TextRequest(
                string: string, font: font, fontSize: size, boxSize: box,
                wrapped: wrapped, lineHeight: lineHeight, coreTextFrame: frame))
    }

    static func requireNimbusSans() throws {
        try #require(
            FileManager.default.fileExists(atPath: nimbusSans),
            "Nimbus Sans (fonts-urw-base35, installed by scripts/setup) is missing")
    }

    /// A name no installed font has falls back to Helvetica, as CTFontCreateWithName does:
    /// drawn with Nimbus Sans, at Helvetica's ascent (1577/2048 em: 15.40 pt at 20 pt).
    @Test func unknownNameFallsBackToHelveticasStandIn() throws {
        try Self.requireNimbusSans()
        let layout = try Self.layout("Hx", font: .coreTextName("Oswald-Bold"), size: 20)
        #expect(layout.glyphs.map(\.fontFile) == [Self.nimbusSans, Self.nimbusSans])
        #expect(abs(layout.firstBaseline - 1577.0 / 2048 * 20) < 1e-9)
    }

    /// Helvetica's own PostScript names keep their style in the stand-in.
    @Test func helveticaBoldTakesTheBoldStandIn() throws {
        try Self.requireNimbusSans()
        let layout = try Self.layout("H", font: .coreTextName("Helvetica-Bold"))
        #expect(
            layout.glyphs.first?.fontFile
                == "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf")
    }

    /// An installed font is found by its PostScript name (DejaVuSans-Bold), and lines are its
    /// own height apart when `lh` is smaller: Core Text's line spacing (lh − height) is never
    /// negative.
    @Test func installedPostScriptNameAndItsLineHeight() throws {
        let t = try Tables(Self.dejaVuBold)
        let layout = try Self.layout("A\nB", font: .coreTextName("DejaVuSans-Bold"), lineHeight: 10)
        #expect(layout.glyphs.first?.fontFile == Self.dejaVuBold)
        let height = (t.ascender - t.descender + t.lineGap) / t.unitsPerEm * 100
        #expect(abs(layout.lineHeight - height) < 1e-9, "\(layout.lineHeight) vs \(height)")
        #expect(abs(layout.lines[1].baseline - layout.lines[0].baseline - height) < 1e-9)
        #expect(abs(layout.firstBaseline - t.ascender / t.unitsPerEm * 100) < 1e-9)
    }

    /// With Helvetica's height of one em, a larger `lh` is the pitch; a smaller one is not.
    @Test func lineHeightIsAtLeastTheFontsHeight() throws {
        try Self.requireNimbusSans()
        let tall = try Self.layout("A\nB", font: .coreTextName("Helvetica"), lineHeight: 150)
        #expect(abs(tall.lines[1].baseline - tall.lines[0].baseline - 150) < 1e-9)
        let short = try Self.layout("A\nB", font: .coreTextName("Helvetica"), lineHeight: 60)
        #expect(abs(short.lines[1].baseline - short.lines[0].baseline - 100) < 1e-9)
    }

    /// A paragraph box: the first baseline one cap height (Nimbus Sans' OS/2 sCapHeight)
    /// below the top, and only the lines whose baseline lies inside the box.
    @Test func paragraphBoxStartsACapHeightDownAndDropsLinesBelowIt() throws {
        try Self.requireNimbusSans()
        let cap = try Tables(Self.nimbusSans)
        let capHeight = cap.capHeight / cap.unitsPerEm * 100
        let string = "A\nB\nC"
        let two = try Self.layout(
            string, font: .coreTextName("Helvetica"), box: Size(1000, capHeight + 120),
            wrapped: true, lineHeight: 120)
        #expect(two.lines.map(\.text) == ["A", "B"])
        #expect(abs(two.lines[0].baseline - capHeight) < 1e-9)
        let one = try Self.layout(
            string, font: .coreTextName("Helvetica"), box: Size(1000, capHeight + 119),
            wrapped: true, lineHeight: 120)
        #expect(one.lines.map(\.text) == ["A"])
        // A box shorter than the cap height holds no line at all.
        let none = try Self.layout(
            string, font: .coreTextName("Helvetica"), box: Size(1000, capHeight - 1),
            wrapped: true, lineHeight: 120)
        #expect(none.lines.isEmpty)
    }

    /// Words wrap at the box's width: "AAA AAA" in a box narrower than both words.
    @Test func paragraphBoxWraps() throws {
        try Self.requireNimbusSans()
        let layout = try Self.layout(
            "AAA AAA", font: .coreTextName("Helvetica"), box: Size(250, 1000),
            wrapped: true)
        #expect(layout.lines.map(\.text) == ["AAA", "AAA"])
    }

    /// lottie-ios sets the ligature attribute to 0: DejaVu Sans' "fi" ligature is not used,
    /// while CATextLayer's rules (frame off) use it.
    @Test func optionalLigaturesAreOff() throws {
        let font = TextRequest.Font.family("DejaVu Sans")
        #expect(try Self.layout("fi", font: font, frame: false).glyphs.count == 1)
        #expect(try Self.layout("fi", font: font, frame: true).glyphs.count == 2)
    }
}
