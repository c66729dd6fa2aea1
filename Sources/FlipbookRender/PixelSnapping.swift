import FlipbookGeometry
import FlipbookScene
import FlipbookTimeline

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a layer's bounds land on the device, with its frame snapped to the pixel grid.
///
/// A layer maps its bounds space to its parent's space by: bounds origin to the frame's
/// top-left, the layer transform about the anchor point, then the frame's origin
/// (`position − anchorPoint × size`). When that whole mapping to the device has no
/// rotation or skew, the two corners of the layer's rect as it lands on the device are
/// snapped to device pixels (YYKit's `CGRectPixelRound` and friends: origin and far corner
/// each snapped, the size is what lies between), and the layer is stretched onto that
/// rect. Snapping the transformed rect, not the frame before the layer's own transform,
/// keeps a rounding error of half a pixel from being multiplied by a large scale (a
/// 1-pt line grown 280×). A zero-width or zero-height rect snaps its origin only.
enum PixelSnapping {
    /// One device coordinate snapped by `mode`. Halves round away from zero, as C's round().
    static func snap(_ v: Double, _ mode: SnapMode) -> Double {
        switch mode {
        case .none: v
        case .round: v.rounded(.toNearestOrAwayFromZero)
        case .floor: v.rounded(.down)
        case .ceil: v.rounded(.up)
        case .half: v.rounded(.down) + 0.5
        }
    }

    /// The transform from `layer`'s bounds space to device pixels, given the parent's.
    static func layerToDevice(_ layer: RenderLayer, parent: AffineTransform) -> AffineTransform {
        let p = layer.properties
        let toDevice = unsnapped(
            bounds: p.bounds, anchorPoint: p.anchorPoint, position: p.position,
            matrix: layer.transformMatrix, parent: parent)
        guard layer.snap != .none, toDevice.isAxisAligned else { return toDevice }
        let size = p.bounds.size
        let d0 = toDevice.apply(p.bounds.origin)
        let d1 = toDevice.apply(Point(p.bounds.x + size.width, p.bounds.y + size.height))
        let x0 = snap(d0.x, layer.snap), y0 = snap(d0.y, layer.snap)
        let sx = size.width != 0 ? (snap(d1.x, layer.snap) - x0) / size.width : toDevice.a
        let sy = size.height != 0 ? (snap(d1.y, layer.snap) - y0) / size.height : toDevice.d
        return AffineTransform(
            a: sx, b: 0, c: 0, d: sy, tx: x0 - sx * p.bounds.x, ty: y0 - sy * p.bounds.y)
    }

    /// The transform from a ``VectorDrawing``'s space to device pixels: what
    /// ``layerToDevice(_:parent:)`` gives the shape layer it stands for (empty bounds,
    /// anchor and position at the origin, its transform as the override, no snapping),
    /// through the same arithmetic.
    static func drawingToDevice(_ transform: AffineTransform, parent: AffineTransform)
        -> AffineTransform
    {
        unsnapped(
            bounds: .zero, anchorPoint: .zero, position: .zero, matrix: transform, parent: parent)
    }

    /// Bounds space → frame-local space (frame's top-left at 0, 0), own transform about
    /// the anchor, then into the parent and onto the device.
    private static func unsnapped(
        bounds: Rect, anchorPoint: Point, position: Point, matrix: AffineTransform,
        parent: AffineTransform
    ) -> AffineTransform {
        let size = bounds.size
        let anchor = Point(anchorPoint.x * size.width, anchorPoint.y * size.height)
        let frameOrigin = position - anchor
        return AffineTransform.translation(-bounds.x - anchor.x, -bounds.y - anchor.y)
            .concatenating(matrix)
            .concatenating(.translation(anchor.x + frameOrigin.x, anchor.y + frameOrigin.y))
            .concatenating(parent)
    }
}
