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
/// (`position − anchorPoint × size`). When the parent's accumulated transform and the
/// layer's own transform have no rotation or skew, the frame's two corners are snapped
/// in device pixels (YYKit's `CGRectPixelRound` and friends: origin and far corner each
/// snapped, the size is what lies between), and the frame is stretched onto that rect
/// before the layer transform applies. A zero-width or zero-height frame snaps its
/// origin only.
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
        let size = p.bounds.size
        let anchor = Point(p.anchorPoint.x * size.width, p.anchorPoint.y * size.height)
        let frameOrigin = p.position - anchor
        let own = layer.transformMatrix
        // bounds space → frame-local space (frame's top-left at 0, 0), own transform about the anchor.
        let local = AffineTransform.translation(-p.bounds.x - anchor.x, -p.bounds.y - anchor.y)
            .concatenating(own)
            .concatenating(.translation(anchor.x, anchor.y))
        guard layer.snap != .none, parent.isAxisAligned, own.isAxisAligned else {
            return local.concatenating(.translation(frameOrigin.x, frameOrigin.y)).concatenating(parent)
        }
        let d0 = parent.apply(frameOrigin)
        let d1 = parent.apply(frameOrigin + Point(size.width, size.height))
        let x0 = snap(d0.x, layer.snap), y0 = snap(d0.y, layer.snap)
        let sx = size.width != 0 ? (snap(d1.x, layer.snap) - x0) / size.width : parent.a
        let sy = size.height != 0 ? (snap(d1.y, layer.snap) - y0) / size.height : parent.d
        return local.concatenating(AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: x0, ty: y0))
    }
}
