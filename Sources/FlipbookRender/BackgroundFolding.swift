import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Leading layers that paint one solid color over exactly the whole canvas (a full-screen
/// backdrop, a dimming overlay) are composited into the background color once per frame,
/// instead of over every pixel: the frame starts filled with the result.
///
/// Only a layer that draws nothing but its background color qualifies: no content,
/// sublayers, mask, corner radius, border, shadow, transform or any other property away
/// from its default (checked by comparing all its properties with a plain layer that has
/// only its position, bounds, color and opacity, so properties added later disqualify a
/// layer until they are handled here), and whose rect lands exactly on the canvas's pixel
/// edges, so that every pixel is fully covered. Then ``SolidComposite`` computes the very
/// pixel the rasterizer would have written everywhere: the bytes are identical
/// (`BackgroundFoldingTests` renders scenes both ways and compares).
enum BackgroundFolding {
    /// The premultiplied starting pixel and how many leading layers it already holds.
    static func fold(_ frame: FrameTree, root: AffineTransform, width: Int, height: Int) -> (
        pixel: UInt32, layers: Int
    ) {
        var pixel = SolidComposite.premultiplied(frame.background)
        var folded = 0
        for layer in frame.layers {
            guard let color = solidColor(of: layer, root: root, width: width, height: height) else {
                break
            }
            pixel = SolidComposite.over(color, opacity: layer.properties.opacity, onto: pixel)
            folded += 1
        }
        return (pixel, folded)
    }

    /// The color `layer` paints over the whole canvas, or nil when it does anything else.
    static func solidColor(of layer: RenderLayer, root: AffineTransform, width: Int, height: Int)
        -> Color?
    {
        guard case .none = layer.content, layer.sublayers.isEmpty, layer.drawings.isEmpty,
            !layer.hasMask, layer.transformOverride == nil,
            layer.compositing == nil, layer.vector == nil
        else { return nil }
        let p = layer.properties
        var plain = LayerProperties()
        plain.position = p.position
        plain.bounds = p.bounds
        plain.backgroundColor = p.backgroundColor
        plain.opacity = p.opacity
        guard p == plain, !p.backgroundColor.isInvisible else { return nil }
        let toDevice = PixelSnapping.layerToDevice(layer, parent: root)
        guard toDevice.b == 0, toDevice.c == 0, toDevice.a > 0, toDevice.d > 0 else { return nil }
        let b = p.bounds
        let d0 = toDevice.apply(b.origin), d1 = toDevice.apply(Point(b.x + b.width, b.y + b.height))
        guard d0.x == 0, d0.y == 0, d1.x == Double(width), d1.y == Double(height) else {
            return nil
        }
        return p.backgroundColor
    }
}
