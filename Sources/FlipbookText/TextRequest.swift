import FlipbookGeometry

/// Everything that decides how a text layer's glyphs are laid out; equal requests give
/// equal layouts, so layouts are cached by request.
public struct TextRequest: Sendable, Hashable {
    public enum Font: Sendable, Hashable {
        /// A fontconfig family name or pattern ("DejaVu Sans", "DejaVu Sans:bold").
        case family(String)
        /// A font file's absolute path.
        case file(String)
    }

    public enum Alignment: Sendable, Hashable { case left, center, right, justified }
    public enum Truncation: Sendable, Hashable { case none, start, middle, end }

    public var string: String
    public var font: Font
    /// Points.
    public var fontSize: Double
    /// The layer's bounds size in points: the width lines align (and wrap) in.
    public var boxSize: Size
    public var alignment: Alignment
    public var wrapped: Bool
    public var truncation: Truncation

    public init(string: String, font: Font, fontSize: Double, boxSize: Size, alignment: Alignment = .left,
                wrapped: Bool = false, truncation: Truncation = .none) {
        self.string = string
        self.font = font
        self.fontSize = fontSize
        self.boxSize = boxSize
        self.alignment = alignment
        self.wrapped = wrapped
        self.truncation = truncation
    }
}

/// Laid-out text: glyph outlines in the box's space (points, origin at the box's
/// top-left, y down), ready to fill with the non-zero rule.
public struct TextLayout: Sendable {
    public var path: Path
    public var lines: [Line]
    /// Characters (grapheme clusters) no font in the fallback chain could draw (drawn
    /// as nothing).
    public var missingCharacters: Int
    /// Every drawn glyph, line by line, left to right.
    public var glyphs: [Glyph]
    /// Baseline-to-baseline distance used, points.
    public var lineHeight: Double

    /// A positioned glyph (for tests and diagnostics; the path already holds its outline).
    public struct Glyph: Sendable, Equatable {
        public var id: UInt32
        /// The font's family name as FreeType reports it, and its file.
        public var fontFamily: String
        public var fontFile: String
        /// The grapheme cluster the glyph belongs to.
        public var character: String
        /// Index into ``TextLayout/lines``.
        public var line: Int
        /// Where the glyph's origin sits: x from the box's left, y = baseline (offsets applied).
        public var origin: Point
        public var advance: Double
        /// Bounds of the outline's points in box space (nil for blank glyphs).
        public var bounds: Rect?
    }

    public struct Line: Sendable, Equatable {
        /// The line's text after wrapping and truncation.
        public var text: String
        /// Baseline y, in points from the box's top.
        public var baseline: Double
        /// Left edge and advance width of the line's glyphs, in points.
        public var x: Double
        public var width: Double

        public init(text: String, baseline: Double, x: Double, width: Double) {
            self.text = text
            self.baseline = baseline
            self.x = x
            self.width = width
        }
    }

    public init(path: Path = Path(), lines: [Line] = [], missingCharacters: Int = 0, glyphs: [Glyph] = [],
                lineHeight: Double = 0) {
        self.path = path
        self.lines = lines
        self.missingCharacters = missingCharacters
        self.glyphs = glyphs
        self.lineHeight = lineHeight
    }
}
