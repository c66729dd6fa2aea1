import FlipbookGeometry
@testable import FlipbookText

/// Shared helpers: a fresh engine per test file is unnecessary (layouts are pure), so
/// tests use the shared engine except where caching is measured.
enum TextTest {
    static let dejaVu = TextRequest.Font.family("DejaVu Sans")
    static let dejaVuFile = TextRequest.Font.file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

    /// DejaVu Sans metrics read with fontTools (`TTFont(...)['head'].unitsPerEm`,
    /// `['hhea'].ascent/.descent/.lineGap`): 2048 units per em, 1901, −483, 0.
    static let unitsPerEm = 2048.0
    static let ascender = 1901.0
    static let descender = -483.0

    static func layout(
        _ string: String, size: Double = 100, box: Size = Size(10_000, 10_000),
        font: TextRequest.Font = dejaVu, alignment: TextRequest.Alignment = .left,
        wrapped: Bool = false, truncation: TextRequest.Truncation = .none
    ) throws -> TextLayout {
        try TextEngine.shared.layout(
            TextRequest(
                string: string, font: font, fontSize: size, boxSize: box,
                alignment: alignment, wrapped: wrapped, truncation: truncation))
    }
}
