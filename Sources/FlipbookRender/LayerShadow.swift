import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// CALayer's shadow: a blurred copy of the layer's composited alpha (contents, sublayers,
/// background and border, after its mask), tinted with shadowColor × shadowOpacity,
/// moved by shadowOffset and drawn beneath the layer.
///
/// Rules chosen where Core Animation is not documented:
/// - Blur: a Gaussian with σ = shadowRadius points. Design tools that export to Core
///   Animation (Sketch, Figma) write a CSS-style blur of 2 × shadowRadius, and a CSS blur
///   b is a Gaussian of σ = b / 2.
/// - shadowOffset and shadowRadius are in the superlayer's space: they follow its scale
///   but not the layer's own transform. On iOS y grows downward, so the default offset
///   (0, −3) puts the shadow 3 pt above the layer, as on a device.
/// - masksToBounds clips the shadow away entirely, the behaviour iOS developers know.
/// - The layer's opacity fades its shadow with it.
enum LayerShadow {
    /// Whether the layer casts a shadow (read field by field: passing its 600-byte
    /// properties whole would copy them, once per layer per frame).
    static func isVisible(_ layer: RenderLayer) -> Bool {
        layer.properties.shadowOpacity > 0 && !layer.properties.shadowColor.isInvisible
            && !layer.properties.masksToBounds
    }

    /// How far (device pixels) the shadow reaches beyond the layer: three σ of blur plus
    /// the offset.
    static func reach(_ p: LayerProperties, parent: AffineTransform) -> Double {
        let (sigma, offset) = deviceBlurAndOffset(p, parent: parent)
        return 3 * sigma + max(abs(offset.x), abs(offset.y)) + 1
    }

    private static func deviceBlurAndOffset(_ p: LayerProperties, parent: AffineTransform) -> (
        Double, Point
    ) {
        let scale = abs(parent.determinant).squareRoot()
        let offset = Point(
            parent.a * p.shadowOffset.x + parent.c * p.shadowOffset.y,
            parent.b * p.shadowOffset.x + parent.d * p.shadowOffset.y)
        return (max(p.shadowRadius, 0) * scale, offset)
    }

    /// Draws the shadow of `group` (the flattened layer, whose top-left sits at `area`'s
    /// origin on `surface`) beneath where the group will go. The group's area has room
    /// for the shadow's reach, so the blur is computed on the group's grid. `spread` (0…1,
    /// a Lottie layer style's choke) hardens the blurred edge; it stays within the reach.
    static func draw(
        for group: Pixmap, at area: PixelBounds, mask: Mask?, properties p: LayerProperties,
        spread: Double = 0, parent: AffineTransform, into surface: inout Pixmap, clip: Mask?
    ) {
        var alpha = Mask(alphaOf: group)
        if let mask { alpha.intersect(mask) }
        let (sigma, offset) = deviceBlurAndOffset(p, parent: parent)
        // An offset that is not a number (inf − inf in a hostile transform) puts the shadow
        // nowhere; a huge one saturates, off the grid. The blur bounds its own cost.
        guard !offset.x.isNaN, !offset.y.isNaN else { return }
        var shadow = alpha.blurred(
            sigma: sigma, dx: Int(saturating: offset.x.rounded()),
            dy: Int(saturating: offset.y.rounded()))
        shadow.spread(spread)
        var color = p.shadowColor
        color.alpha *= min(max(p.shadowOpacity, 0), 1)
        var tinted = Pixmap(width: group.width, height: group.height)
        let whole = Path.rect(Rect(0, 0, Double(group.width), Double(group.height)))
        tinted.fill(whole, transform: .identity, rule: .nonZero, paint: .solid(color), clip: shadow)
        // The layer's opacity fades its shadow with it.
        surface.draw(tinted, x: area.x0, y: area.y0, opacity: p.opacity, mask: clip)
    }
}
