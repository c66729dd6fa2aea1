import FlipbookGeometry

/// Glyph-outline text whose characters After Effects' text animators move, scale, turn,
/// fade and recolour one by one (Lottie's `t.a`). The layout is done by the reader
/// (each character's baseline origin and advance); the timeline evaluates the animators
/// into one group per character, each with its own fill and stroke, so the renderer sees
/// ordinary vector groups.
public struct VectorText: Sendable {
    public var characters: [VectorTextCharacter]
    /// [r, g, b] in 0…1; nil draws no fill (or no stroke).
    public var fill: [Double]?
    public var stroke: [Double]?
    public var strokeWidth: Double
    /// The fill draws over the stroke (`of`).
    public var fillOverStroke: Bool
    public var animators: [VectorTextAnimator]
    /// Grouping alignment (`m.a`), percent of the character's advance and of the line's
    /// ascent-ish height (1.2·0.714·size, lottie-web's `yOff`).
    public var alignment: AnimatedValue
    public var fontSize: Double
    /// 0 left, 1 right, 2 centre: animator tracking shifts justified lines as lottie-web does.
    public var justification: Int
    /// Set when the text runs along a path (a mask of the layer, `t.p`).
    public var path: VectorTextPath?
    /// Document tracking in points (`tr`/1000 · size), for the spacing along a path.
    public var tracking: Double = 0

    public init(
        characters: [VectorTextCharacter], fill: [Double]?, stroke: [Double]?, strokeWidth: Double,
        fillOverStroke: Bool, animators: [VectorTextAnimator], alignment: AnimatedValue,
        fontSize: Double,
        justification: Int
    ) {
        self.characters = characters
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.fillOverStroke = fillOverStroke
        self.animators = animators
        self.alignment = alignment
        self.fontSize = fontSize
        self.justification = justification
    }
}

/// One laid-out character.
public struct VectorTextCharacter: Sendable {
    /// The glyph's outline items, in glyph units (size 100).
    public var shapes: [VectorItem]
    /// Font size / 100.
    public var scale: Double
    /// The left end of the character's baseline, justification included.
    public var origin: Point
    /// Advance width in points (tracking not included).
    public var advance: Double
    public var line: Int
    /// The width of the character's line (advances and tracking), for justification along a path.
    public var lineWidth: Double = 0
    /// Per animator, the character's index in its selector's units (characters, characters
    /// without spaces, words or lines: lottie-web's `anIndexes`).
    public var indices: [Int]

    public init(
        shapes: [VectorItem], scale: Double, origin: Point, advance: Double, line: Int,
        indices: [Int]
    ) {
        self.shapes = shapes
        self.scale = scale
        self.origin = origin
        self.advance = advance
        self.line = line
        self.indices = indices
    }
}

/// One animator: a range selector and the properties it applies, each scaled by how much
/// the selector selects a character (0…1).
public struct VectorTextAnimator: Sendable {
    public var selector: VectorTextSelector
    /// Points, subtracted before scale and rotation.
    public var anchor: AnimatedValue?
    /// Points, added after rotation.
    public var position: AnimatedValue?
    /// Factors (1 = 100 %).
    public var scale: AnimatedValue?
    /// Degrees, clockwise.
    public var rotation: AnimatedValue?
    /// Degrees.
    public var skew: AnimatedValue?
    public var skewAxis: AnimatedValue?
    /// 0…1.
    public var opacity: AnimatedValue?
    /// [r, g, b] in 0…1.
    public var fillColor: AnimatedValue?
    public var strokeColor: AnimatedValue?
    public var strokeWidth: AnimatedValue?
    /// Points added to the advance.
    public var tracking: AnimatedValue?

    public init(selector: VectorTextSelector) {
        self.selector = selector
    }
}

/// After Effects' range selector.
public struct VectorTextSelector: Sendable {
    public enum Shape: Int, Sendable {
        case square = 1, rampUp, rampDown, triangle, round, smooth
    }

    /// Percent of the text, or indices with `byIndex`.
    public var start: AnimatedValue
    public var end: AnimatedValue
    public var offset: AnimatedValue
    /// 0…1.
    public var amount: AnimatedValue
    /// Percent, −100…100.
    public var easeHigh: AnimatedValue
    public var easeLow: AnimatedValue
    public var byIndex: Bool
    public var shape: Shape
    /// How many units (characters, words, lines) the text has for this selector.
    public var total: Int

    public init(
        start: AnimatedValue, end: AnimatedValue, offset: AnimatedValue, amount: AnimatedValue,
        easeHigh: AnimatedValue, easeLow: AnimatedValue, byIndex: Bool, shape: Shape, total: Int
    ) {
        self.start = start
        self.end = end
        self.offset = offset
        self.amount = amount
        self.easeHigh = easeHigh
        self.easeLow = easeLow
        self.byIndex = byIndex
        self.shape = shape
        self.total = total
    }
}

/// Text on a path (`t.p`): characters are centred on points along the path, `firstMargin`
/// points from its start, each turned with the path when `perpendicular` is on.
public struct VectorTextPath: Sendable {
    /// A ``VectorPathValue`` encoding per keyframe, in the layer's coordinates.
    public var path: AnimatedValue
    public var firstMargin: AnimatedValue
    public var lastMargin: AnimatedValue
    /// Booleans as 0/1.
    public var perpendicular: AnimatedValue
    public var reversed: AnimatedValue
    public var forceAlignment: AnimatedValue

    public init(
        path: AnimatedValue, firstMargin: AnimatedValue, lastMargin: AnimatedValue,
        perpendicular: AnimatedValue,
        reversed: AnimatedValue, forceAlignment: AnimatedValue
    ) {
        self.path = path
        self.firstMargin = firstMargin
        self.lastMargin = lastMargin
        self.perpendicular = perpendicular
        self.reversed = reversed
        self.forceAlignment = forceAlignment
    }
}
