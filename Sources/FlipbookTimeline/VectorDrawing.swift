import FlipbookGeometry
import FlipbookScene

/// One leaf drawing of a shape layer's vector artwork: a path filled or stroked with one
/// paint, through its own transform and opacity — what a generated shape layer (anchor at
/// the origin, empty bounds, a transform override) would draw, without the layer.
///
/// Why: repeater copies and simple groups are most of a Lottie file's drawings, and a
/// 900-byte render layer built, copied and destroyed for each of them every frame cost
/// more than drawing it. The renderer keeps full layers for groups that need one (a
/// group of several drawings, which may be flattened offscreen).
public struct VectorDrawing: Sendable, Equatable {
    /// What is drawn and how, held by reference: the copies of a repeater share it, and a
    /// drawing is moved several times on its way to the rasterizer.
    public let look: Look
    /// From the drawing's space into its layer's bounds space.
    public var transform: AffineTransform
    public var opacity: Double

    /// Fill rule, caps, joins and gradients; `geometry` is always `.path`.
    public var shape: ShapeContent { look.shape }
    public var style: ShapeStyle { look.style }

    public init(shape: ShapeContent, style: ShapeStyle, transform: AffineTransform, opacity: Double) {
        self.look = Look(shape: shape, style: style)
        self.transform = transform
        self.opacity = opacity
    }

    /// A drawing's path, paints and style values.
    public final class Look: Sendable, Equatable {
        public let shape: ShapeContent
        public let style: ShapeStyle

        init(shape: ShapeContent, style: ShapeStyle) {
            self.shape = shape
            self.style = style
        }

        public static func == (a: Look, b: Look) -> Bool { a === b || (a.shape == b.shape && a.style == b.style) }
    }
}

/// The values of a shape layer's properties that its fill and stroke read.
public struct ShapeStyle: Sendable, Equatable {
    public var fillColor: Color
    public var strokeColor: Color
    public var lineWidth: Double
    public var miterLimit: Double
    public var lineDashPattern: [Double]
    public var lineDashPhase: Double
    public var strokeStart: Double
    public var strokeEnd: Double

    /// CAShapeLayer's defaults (``LayerProperties``'), but a clear fill, as generated
    /// drawings start.
    public init() {
        self.init(LayerProperties())
        fillColor = .clear
    }

    /// The style of a shape layer.
    public init(_ p: LayerProperties) {
        fillColor = p.fillColor
        strokeColor = p.strokeColor
        lineWidth = p.lineWidth
        miterLimit = p.miterLimit
        lineDashPattern = p.lineDashPattern
        lineDashPhase = p.lineDashPhase
        strokeStart = p.strokeStart
        strokeEnd = p.strokeEnd
    }

    /// Sets these values in a shape layer's properties (the inverse of ``init(_:)``).
    public func apply(to p: inout LayerProperties) {
        p.fillColor = fillColor
        p.strokeColor = strokeColor
        p.lineWidth = lineWidth
        p.miterLimit = miterLimit
        p.lineDashPattern = lineDashPattern
        p.lineDashPhase = lineDashPhase
        p.strokeStart = strokeStart
        p.strokeEnd = strokeEnd
    }

    /// Whether a stroke is drawn at all.
    public var strokes: Bool { !strokeColor.isInvisible && lineWidth > 0 && strokeEnd > strokeStart }
}
