import CFontconfig
import CFreeType
import CHarfBuzz
import FlipbookGeometry

/// Placeholder until the FreeType/HarfBuzz engine lands on this branch.
public final class TextEngine: @unchecked Sendable {
    public static let shared = TextEngine()

    public func layout(_ request: TextRequest) throws -> TextLayout { TextLayout() }
}
