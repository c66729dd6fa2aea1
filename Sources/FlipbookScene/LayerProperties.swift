import FlipbookGeometry

/// A layer transform in the format's terms, applied about the anchor point in the
/// order scale, rotate, translate.
public struct LayerTransform: Sendable, Hashable {
    public var translation: Point
    /// Per-axis scale factors.
    public var scale: Point
    /// Degrees, clockwise on screen.
    public var rotation: Double

    public init(translation: Point = .zero, scale: Point = Point(1, 1), rotation: Double = 0) {
        self.translation = translation
        self.scale = scale
        self.rotation = rotation
    }

    public static let identity = LayerTransform()

    public var isIdentity: Bool { self == .identity }

    /// The matrix: scale, then rotate, then translate.
    public var matrix: AffineTransform {
        AffineTransform.scale(scale.x, scale.y)
            .concatenating(.rotation(degrees: rotation))
            .concatenating(.translation(translation.x, translation.y))
    }
}

/// Every animatable value of a layer, with Core Animation's defaults.
///
/// The model values a scene file sets; the timeline copies this struct per frame and
/// overwrites the components that animations and follow maps drive.
public struct LayerProperties: Sendable, Hashable {
    // CALayer
    public var position = Point.zero
    public var bounds = Rect.zero
    public var anchorPoint = Point(0.5, 0.5)
    public var transform = LayerTransform.identity
    public var opacity = 1.0
    public var hidden = false
    public var backgroundColor = Color.clear
    public var cornerRadius = 0.0
    public var borderWidth = 0.0
    public var borderColor = Color.black
    public var masksToBounds = false
    public var shadowColor = Color.black
    public var shadowOpacity = 0.0
    public var shadowOffset = Point(0, -3)
    public var shadowRadius = 3.0
    // CAShapeLayer
    public var fillColor = Color.black
    public var strokeColor = Color.clear
    public var lineWidth = 1.0
    public var miterLimit = 10.0
    public var lineDashPattern: [Double] = []
    public var lineDashPhase = 0.0
    public var strokeStart = 0.0
    public var strokeEnd = 1.0
    /// The rect of a `rect:` or `ellipse:` shape.
    public var shapeRect = Rect.zero
    /// Corner radius of a `rect:` shape (circular corners, clamped to half the shorter side).
    public var shapeCornerRadius = 0.0
    public var arcCenter = Point.zero
    public var arcRadius = 0.0
    /// Degrees from +x toward +y.
    public var arcStart = 0.0
    public var arcEnd = 0.0
    // CAGradientLayer
    public var gradientColors: [Color] = []
    /// Empty means evenly spaced.
    public var gradientLocations: [Double] = []
    public var gradientStartPoint = Point(0.5, 0)
    public var gradientEndPoint = Point(0.5, 1)
    // CAReplicatorLayer
    public var instanceTransform = LayerTransform.identity
    public var instanceAlphaOffset = 0.0
    // CATextLayer: foregroundColor defaults to opaque white and fontSize to 36, as there.
    public var textColor = Color.white
    public var fontSize = 36.0

    public init() {}
}
