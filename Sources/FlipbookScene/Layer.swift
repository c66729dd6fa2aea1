import FlipbookGeometry

/// One layer of the tree: its model values (``LayerProperties``, all animatable), what it
/// draws (``LayerContent``), and its children.
public struct Layer: Sendable {
    /// Unique in the scene.
    public var id: String
    public var properties: LayerProperties
    public var content: LayerContent
    /// Numeric components that follow another animated value.
    public var follows: [FollowBinding]
    /// Overrides the canvas snap mode for this layer's frame.
    public var snap: SnapMode?
    /// Present when this is a CAReplicatorLayer; its sublayers are the template.
    public var replicator: Replicator?
    public var sublayers: [Layer]
    /// Line of the layer's entry in the scene file, for messages.
    public var line: Int?
    /// Clock, keyframed transform, masks, effects and blend mode beyond Core Animation's
    /// model (set by the Lottie reader); nil for a plain CALayer.
    public var compositing: LayerCompositing?
    private var maskStorage: [Layer]

    public init(
        id: String, properties: LayerProperties = LayerProperties(), content: LayerContent = .none,
        follows: [FollowBinding] = [], snap: SnapMode? = nil, replicator: Replicator? = nil,
        sublayers: [Layer] = [], mask: Layer? = nil, line: Int? = nil
    ) {
        self.id = id
        self.properties = properties
        self.content = content
        self.follows = follows
        self.snap = snap
        self.replicator = replicator
        self.sublayers = sublayers
        self.line = line
        self.maskStorage = mask.map { [$0] } ?? []
    }

    /// The layer whose alpha masks this one, in this layer's coordinate space.
    public var mask: Layer? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }

    /// This layer, its mask subtree and its sublayer subtrees, depth first.
    public func forEachLayer(_ body: (Layer) throws -> Void) rethrows {
        try body(self)
        if let mask { try mask.forEachLayer(body) }
        for sublayer in sublayers { try sublayer.forEachLayer(body) }
    }
}

/// What a layer draws between its background and its sublayers.
public enum LayerContent: Sendable {
    case none
    case shape(ShapeContent)
    case gradient(GradientKind)
    case image(ImageContent)
    case text(TextContent)
    /// After Effects shape-layer artwork (Lottie shape layers).
    case vector(VectorShape)
}

/// The non-animatable parts of a CATextLayer (font size and color animate, so they live
/// in ``LayerProperties``).
public struct TextContent: Sendable, Hashable {
    public var string: String
    /// A font: a family name or fontconfig pattern ("DejaVu Sans", "DejaVu Sans:bold"),
    /// or an absolute path to a font file (the loader resolves paths relative to the scene).
    public var font: FontReference
    public var alignment: TextAlignment
    /// Wraps at the bounds' width, as CATextLayer's `isWrapped`.
    public var wrapped: Bool
    /// What to do with a line that does not fit, as CATextLayer's `truncationMode`.
    public var truncation: TextTruncation
    /// Puts the first line's baseline at the bounds' top edge instead of the line's top,
    /// and aligns about the bounds' left edge (After Effects' point text: a width-0 box
    /// with left, centred or right alignment about x = 0).
    public var baselineOrigin: Bool
    /// Extra space after every character, points (After Effects' tracking).
    public var tracking: Double
    /// Baseline-to-baseline distance, points; nil uses the font's.
    public var lineHeight: Double?
    /// The paragraph direction: `auto` takes each paragraph's first strong character
    /// (UAX #9), `ltr`/`rtl` force it.
    public var direction: TextDirection = .auto
    /// Lays the text out as a Core Text frame does for lottie-ios's text layers
    /// (``TextRequest/coreTextFrame`` in FlipbookText): lines at least the font's height
    /// apart, no optional ligatures, and with a wrapped box the first baseline a cap height
    /// below the top and only the lines whose baseline lies inside the box.
    public var coreTextFrame = false
    /// Characters drawn from their own outlines instead of the font (a Lottie file's glyph
    /// shapes in `chars`), laid out with the font-drawn ones on the same lines
    /// (``TextRequest/suppliedGlyphs`` in FlipbookText).
    public var glyphs: [Character: GlyphOutline] = [:]

    public init(
        string: String, font: FontReference = .family("Helvetica"),
        alignment: TextAlignment = .left,
        wrapped: Bool = false, truncation: TextTruncation = .none, baselineOrigin: Bool = false,
        tracking: Double = 0, lineHeight: Double? = nil
    ) {
        self.tracking = tracking
        self.lineHeight = lineHeight
        self.string = string
        self.font = font
        self.alignment = alignment
        self.wrapped = wrapped
        self.truncation = truncation
        self.baselineOrigin = baselineOrigin
    }
}

/// How a text layer names its font.
public enum FontReference: Sendable, Hashable {
    /// Matched through fontconfig, with fallback fonts for characters it lacks.
    case family(String)
    /// A font file (absolute path).
    case file(String)
    /// A font named as Core Text's `CTFontCreateWithName` takes it (a PostScript name such
    /// as "Helvetica-Bold", a full name or a family): the installed font of that name, else
    /// Helvetica, drawn with a metric-compatible substitute.
    case coreTextName(String)
}

public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right, natural, justified
}
public enum TextTruncation: String, Sendable, CaseIterable { case none, start, middle, end }
public enum TextDirection: String, Sendable, CaseIterable { case auto, ltr, rtl }

/// The non-animatable parts of a CAShapeLayer (colors, widths, dashes and the
/// rect/ellipse/arc numbers live in ``LayerProperties``).
public struct ShapeContent: Sendable, Equatable {
    public var geometry: ShapeGeometry
    public var fillRule: FillRule
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    /// Paints the fill with a gradient instead of `fillColor` (whose alpha then scales it).
    public var fillGradient: ShapeGradient?
    /// Paints the stroke with a gradient instead of `strokeColor` (whose alpha then scales it).
    public var strokeGradient: ShapeGradient?

    public init(
        geometry: ShapeGeometry, fillRule: FillRule = .nonZero, lineCap: LineCap = .butt,
        lineJoin: LineJoin = .miter, fillGradient: ShapeGradient? = nil,
        strokeGradient: ShapeGradient? = nil
    ) {
        self.geometry = geometry
        self.fillRule = fillRule
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.fillGradient = fillGradient
        self.strokeGradient = strokeGradient
    }
}

/// A gradient paint for a shape, in the layer's bounds space: linear from `start` to
/// `end`, or radial about `start` reaching `end`.
public struct ShapeGradient: Sendable, Equatable {
    public var radial: Bool
    public var colors: [Color]
    public var locations: [Double]
    public var start: Point
    public var end: Point
    /// Radial only: the focal point (nil: the centre).
    public var focal: Point?

    public init(
        radial: Bool, colors: [Color], locations: [Double], start: Point, end: Point,
        focal: Point? = nil
    ) {
        self.radial = radial
        self.colors = colors
        self.locations = locations
        self.start = start
        self.end = end
        self.focal = focal
    }
}

/// Where a shape's outline comes from.
public enum ShapeGeometry: Sendable, Equatable {
    /// SVG path data, already parsed, in the layer's bounds space.
    case path(Path)
    /// `LayerProperties.shapeRect`, with `LayerProperties.shapeCornerRadius`.
    case rect
    /// The ellipse inscribed in `LayerProperties.shapeRect`.
    case ellipse
    /// `LayerProperties.arcCenter/arcRadius/arcStart/arcEnd`.
    case arc(clockwise: Bool)
}

public enum FillRule: String, Sendable { case nonZero, evenOdd }
public enum LineCap: String, Sendable { case butt, round, square }
public enum LineJoin: String, Sendable { case miter, round, bevel }

public enum GradientKind: String, Sendable { case axial, radial }

public struct ImageContent: Sendable, Equatable {
    /// Key into ``Scene/assets``.
    public var asset: String
    public var gravity: ContentsGravity

    public init(asset: String, gravity: ContentsGravity = .resize) {
        self.asset = asset
        self.gravity = gravity
    }
}

public enum ContentsGravity: String, Sendable {
    case resize, resizeAspect, resizeAspectFill, center
}

/// CAReplicatorLayer's fixed parameters; `instanceTransform` and `instanceAlphaOffset`
/// are in ``LayerProperties`` because they animate.
public struct Replicator: Sendable {
    /// Counts the original.
    public var instanceCount: Int
    /// Seconds: instance k sees the template's animations k × delay later.
    public var instanceDelay: Double

    public init(instanceCount: Int, instanceDelay: Double = 0) {
        self.instanceCount = instanceCount
        self.instanceDelay = instanceDelay
    }
}

/// A numeric component that follows another layer's animated value through a
/// piecewise-linear map clamped at both ends.
public struct FollowBinding: Sendable, Equatable {
    /// Scalar component of this layer, e.g. `transform.translation.x`.
    public var component: String
    public var sourceLayer: String
    /// Scalar component of the source layer, e.g. `bounds.origin.x`.
    public var sourceComponent: String
    /// (input, output) pairs with increasing input.
    public var map: [Point]

    public init(component: String, sourceLayer: String, sourceComponent: String, map: [Point]) {
        self.component = component
        self.sourceLayer = sourceLayer
        self.sourceComponent = sourceComponent
        self.map = map
    }

    /// The map applied to `input`, clamped to the first and last outputs.
    public func output(for input: Double) -> Double {
        guard let first = map.first, let last = map.last else { return input }
        if input <= first.x { return first.y }
        if input >= last.x { return last.y }
        for i in 1..<map.count where input <= map[i].x {
            let (p0, p1) = (map[i - 1], map[i])
            let span = p1.x - p0.x
            return span == 0 ? p1.y : p0.y + (p1.y - p0.y) * (input - p0.x) / span
        }
        return last.y
    }
}
