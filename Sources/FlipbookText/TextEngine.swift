import FlipbookGeometry

/// The text engine's entry point: validates a ``TextRequest``, lays it out with
/// ``Typesetter`` and caches the result.
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
        guard !request.string.isEmpty, size.isFinite, size > 0, size <= Self.maximumFontSize else {
            return TextLayout()
        }
        let layout = try Typesetter(library: library).layout(
            request, width: Self.sanitized(request.boxSize.width),
            height: Self.sanitized(request.boxSize.height))
        cache.withLock { entries in
            if entries.count >= cacheCapacity, entries[request] == nil {
                entries.remove(at: entries.startIndex)
            }
            entries[request] = layout
        }
        return layout
    }

    /// The one warning a scene gives for the characters its text layers could not draw
    /// (``TextLayout/missing`` of every layer), or nil if there are none: each character
    /// once, with its code points, e.g. `no installed font has these characters; they are
    /// drawn as boxes: "𓀀" (U+13000)`.
    public static func missingCharactersWarning(_ characters: some Sequence<Character>) -> String? {
        var seen: [Character] = []
        for c in characters where !seen.contains(c) { seen.append(c) }
        guard !seen.isEmpty else { return nil }
        let named = seen.map { c in
            let codes = c.unicodeScalars.map {
                "U+"
                    + String($0.value, radix: 16, uppercase: true)
                    .leftPadded(to: 6)
            }
            return "\"\(c)\" (\(codes.joined(separator: " ")))"
        }
        let noun =
            seen.count == 1
            ? "this character; it is drawn as a box" : "these characters; they are drawn as boxes"
        return "no installed font has \(noun): \(named.joined(separator: ", "))"
    }

    private static func sanitized(_ d: Double) -> Double {
        d.isNaN || d < 0 ? 0 : d
    }
}

private extension String {
    /// "U+41" → "U+0041": code points have at least four hex digits.
    func leftPadded(to length: Int) -> String {
        count >= length ? self : "U+" + String(repeating: "0", count: length - count) + dropFirst(2)
    }
}
