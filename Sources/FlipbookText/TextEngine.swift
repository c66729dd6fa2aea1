import FlipbookGeometry

/// The text engine's entry point: validates a ``TextRequest``, lays it out with
/// ``TextLayoutEngine`` and caches the result.
///
/// Rules:
/// - Thread-safe: called for every text layer of every frame from several render
///   threads. Fonts, fallbacks and glyph outlines are cached in ``FontLibrary`` /
///   ``GlyphOutlines`` behind locks; HarfBuzz fonts are immutable and shared.
/// - Layouts are cached by request in a bounded dictionary (at most `cacheCapacity`
///   entries; when full an arbitrary entry is evicted), so a layer repeated across
///   frames costs one locked lookup. Two threads missing at once both compute the same
///   layout; the second store is harmless.
/// - Bad input never traps: an empty string, a non-finite or non-positive font size, or
///   one above `maximumFontSize` gives an empty layout; a NaN or negative box
///   dimension counts as 0, an infinite width as unbounded (no wrapping, no truncation).
/// - Font failures throw ``TextError`` (and are cached, so a bad font costs one attempt).
public final class TextEngine: @unchecked Sendable {
    public static let shared = TextEngine()

    /// Font sizes above this (points) give an empty layout.
    public static let maximumFontSize = 100_000.0

    private let library = FontLibrary()
    private let cache = Locked([TextRequest: TextLayout]())
    private let cacheCapacity: Int

    public init(cacheCapacity: Int = 512) {
        self.cacheCapacity = max(1, cacheCapacity)
    }

    public func layout(_ request: TextRequest) throws -> TextLayout {
        if let cached = cache.withLock({ $0[request] }) { return cached }
        let size = request.fontSize
        guard !request.string.isEmpty, size.isFinite, size > 0, size <= Self.maximumFontSize else { return TextLayout() }
        let layout = try TextLayoutEngine(library: library).layout(
            request, width: Self.sanitized(request.boxSize.width), height: Self.sanitized(request.boxSize.height))
        cache.withLock { entries in
            if entries.count >= cacheCapacity, entries[request] == nil {
                entries.remove(at: entries.startIndex)
            }
            entries[request] = layout
        }
        return layout
    }

    private static func sanitized(_ d: Double) -> Double {
        d.isNaN || d < 0 ? 0 : d
    }
}
