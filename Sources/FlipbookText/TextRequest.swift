import FlipbookGeometry

/// Everything that decides how a text layer's glyphs are laid out; equal requests give
/// equal layouts, so layouts are cached by request.
public struct TextRequest: Sendable, Hashable {
    public enum Font: Sendable, Hashable {
        /// A fontconfig family name or pattern ("DejaVu Sans", "DejaVu Sans:bold").
        case family(String)
        /// A font file's absolute path.
        case file(String)
        /// A name as Core Text's `CTFontCreateWithName` takes it: the installed font whose
        /// PostScript name, full name or family it is; otherwise Helvetica, as Core Text
        /// falls back, drawn with a metric-compatible substitute (Nimbus Sans, else TeX
        /// Gyre Heros) at Helvetica's vertical metrics. A name of Helvetica's own family
        /// ("Helvetica-Bold") takes the substitute's matching style.
        case coreTextName(String)
    }

    public enum Alignment: Sendable, Hashable { case left, center, right, justified }
    public enum Truncation: Sendable, Hashable { case none, start, middle, end }
    /// The paragraph direction for the Unicode Bidirectional Algorithm.
    public enum Direction: Sendable, Hashable {
        /// Each paragraph's direction is that of its first strong character (UAX #9
        /// P2/P3), left-to-right if it has none.
        case natural
        case leftToRight
        case rightToLeft
    }

    public var string: String
    public var font: Font
    /// Points.
    public var fontSize: Double
    /// The layer's bounds size in points: the width lines align (and wrap) in.
    public var boxSize: Size
    public var alignment: Alignment
    public var wrapped: Bool
    public var truncation: Truncation
    public var direction: Direction
    /// Extra space after every character (grapheme cluster), points; may be negative.
    /// Non-finite values count as 0.
    public var tracking: Double
    /// Baseline-to-baseline distance, points; nil (or non-finite, or ≤ 0) uses the
    /// primary font's `ascender − descender + lineGap`.
    public var lineHeight: Double?
    /// Lays the text out as a Core Text frame (CTFramesetter) does for lottie-ios's text
    /// layers, instead of CATextLayer's rules:
    /// - lines are `max(lineHeight, ascent + descent + leading)` apart: lottie-ios sets the
    ///   paragraph's line spacing to `lineHeight` minus the font's height, and a line
    ///   spacing "is always nonnegative" (Apple's NSParagraphStyle.lineSpacing documentation);
    /// - optional ligatures are off (lottie-ios sets the ligature attribute to 0);
    /// - `wrapped` with a finite width (a paragraph text box): the first baseline sits the
    ///   font's cap height below the box's top (lottie-ios extends the frame upwards by
    ///   ascent − cap height) and a line is drawn only when its baseline lies inside the
    ///   box (the frame is the box plus that extension plus one descent, and a frame
    ///   holds only the lines that fit).
    public var coreTextFrame: Bool
    /// Outlines the caller brings for some characters (glyph shapes embedded in a document,
    /// say). A character found here is drawn from its outline at its advance instead of
    /// from a font, and everything else about the layout stays as it is: it sits on the
    /// same line, wraps, aligns, justifies and takes tracking like any character, its
    /// advance adds up with the font-shaped runs around it, and the font's metrics still
    /// set the line pitch and first baseline. It is never kerned, shaped or ligated with
    /// its neighbours (it is a run of its own). Characters not found here are shaped from
    /// the fonts as usual.
    public var suppliedGlyphs: [Character: GlyphOutline]

    public init(
        string: String, font: Font, fontSize: Double, boxSize: Size, alignment: Alignment = .left,
        wrapped: Bool = false, truncation: Truncation = .none, direction: Direction = .natural,
        tracking: Double = 0, lineHeight: Double? = nil, coreTextFrame: Bool = false,
        suppliedGlyphs: [Character: GlyphOutline] = [:]
    ) {
        self.string = string
        self.font = font
        self.fontSize = fontSize
        self.boxSize = boxSize
        self.alignment = alignment
        self.wrapped = wrapped
        self.truncation = truncation
        self.direction = direction
        self.tracking = tracking
        self.lineHeight = lineHeight
        self.coreTextFrame = coreTextFrame
        self.suppliedGlyphs = suppliedGlyphs
    }
}

/// Laid-out text: glyph outlines in the box's space (points, origin at the box's
/// top-left, y down), ready to fill with the non-zero rule.
public struct TextLayout: Sendable {
    public var path: Path
    public var lines: [Line]
    /// How many characters (grapheme clusters) no installed font could draw; each is
    /// drawn as the primary font's .notdef glyph (a box).
    public var missingCharacters: Int
    /// Those characters, each once, in order of appearance (for the scene's warning; see
    /// ``TextEngine/missingCharactersWarning(_:)``).
    public var missing: [Character]
    /// The first line's baseline, points from the box's top (0 for an empty layout).
    public var firstBaseline: Double
    /// Every drawn glyph, line by line, left to right.
    public var glyphs: [Glyph]
    /// Baseline-to-baseline distance used, points.
    public var lineHeight: Double

    /// A positioned glyph (for tests and diagnostics; the path already holds its outline).
    public struct Glyph: Sendable, Equatable {
        /// The font's glyph index (0 for a supplied glyph).
        public var id: UInt32
        /// Drawn from ``TextRequest/suppliedGlyphs`` rather than a font.
        public var isSupplied: Bool
        /// The font's family name as FreeType reports it, and its file (empty for a
        /// supplied glyph).
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
        /// Left edge and advance width of the line's glyphs (tracking included), in points.
        public var x: Double
        public var width: Double
        /// Whether the line's paragraph is right-to-left.
        public var isRightToLeft: Bool

        public init(
            text: String, baseline: Double, x: Double, width: Double, isRightToLeft: Bool = false
        ) {
            self.text = text
            self.baseline = baseline
            self.x = x
            self.width = width
            self.isRightToLeft = isRightToLeft
        }
    }

    public init(
        path: Path = Path(), lines: [Line] = [], missingCharacters: Int = 0, glyphs: [Glyph] = [],
        lineHeight: Double = 0, missing: [Character] = [], firstBaseline: Double = 0
    ) {
        self.path = path
        self.lines = lines
        self.missingCharacters = missingCharacters
        self.missing = missing
        self.firstBaseline = firstBaseline
        self.glyphs = glyphs
        self.lineHeight = lineHeight
    }
}
