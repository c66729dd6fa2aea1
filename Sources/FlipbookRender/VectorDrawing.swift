import FlipbookGeometry
import FlipbookScene
import FlipbookTimeline

extension RenderLayer {
    /// Leaf drawings of vector artwork, drawn beneath the sublayers: set by the renderer
    /// when it expands ``vector`` into the layers it generates (empty in the timeline's
    /// trees). Kept in the layer's ``attachment``, so the timeline knows nothing of them.
    var drawings: [VectorDrawing] {
        get { (attachment as? VectorDrawings)?.list ?? [] }
        set { attachment = newValue.isEmpty ? nil : VectorDrawings(newValue) }
    }
}

/// A generated layer's drawings, as its ``RenderLayer/attachment``.
final class VectorDrawings: LayerAttachment {
    let list: [VectorDrawing]

    init(_ list: [VectorDrawing]) { self.list = list }

    func isEqual(to other: any LayerAttachment) -> Bool {
        other === self || (other as? VectorDrawings)?.list == list
    }
}

/// One leaf drawing of a shape layer's vector artwork: a path filled or stroked with one
/// paint, through its own transform and opacity — what a generated shape layer (anchor at
/// the origin, empty bounds, a transform override) would draw, without the layer.
///
/// Why: repeater copies and simple groups are most of a Lottie file's drawings, and a
/// 900-byte render layer built, copied and destroyed for each of them every frame cost
/// more than drawing it. The renderer keeps full layers for groups that need one (a
/// group of several drawings, which may be flattened offscreen).
package struct VectorDrawing: Sendable, Equatable {
    /// What is drawn and how, held by reference: the copies of a repeater share it, and a
    /// drawing is moved several times on its way to the rasterizer.
    package let look: Look
    /// From the drawing's space into its layer's bounds space.
    package var transform: AffineTransform
    package var opacity: Double

    /// Fill rule, caps, joins and gradients; `geometry` is always `.path`.
    package var shape: ShapeContent { look.shape }
    package var style: ShapeStyle { look.style }

    package init(
        shape: ShapeContent, style: ShapeStyle, transform: AffineTransform, opacity: Double
    ) {
        self.look = Look(shape: shape, style: style)
        self.transform = transform
        self.opacity = opacity
    }

    /// A drawing's path, paints and style values.
    package final class Look: Sendable, Equatable {
        package let shape: ShapeContent
        package let style: ShapeStyle

        init(shape: ShapeContent, style: ShapeStyle) {
            self.shape = shape
            self.style = style
        }

        package static func == (a: Look, b: Look) -> Bool {
            a === b || (a.shape == b.shape && a.style == b.style)
        }
    }
}

/// The values of a shape layer's properties that its fill and stroke read.
package struct ShapeStyle: Sendable, Equatable {
    package var fillColor: Color
    package var strokeColor: Color
    package var lineWidth: Double
    package var miterLimit: Double
    package var lineDashPattern: [Double]
    package var lineDashPhase: Double
    package var strokeStart: Double
    package var strokeEnd: Double

    /// CAShapeLayer's defaults (``LayerProperties``'), but a clear fill, as generated
    /// drawings start.
    package init() {
        self.init(LayerProperties())
        fillColor = .clear
    }

    /// The style of a shape layer.
    package init(_ p: LayerProperties) {
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
    package func apply(to p: inout LayerProperties) {
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
    package var strokes: Bool {
        !strokeColor.isInvisible && lineWidth > 0 && strokeEnd > strokeStart
    }
}
