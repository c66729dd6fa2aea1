import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookText
import FlipbookTimeline

/// A conservative device-space box around everything a layer and its sublayers draw,
/// so that a layer flattened offscreen (group opacity, mask, shadow) gets a surface of
/// that size instead of the whole canvas.
///
/// Rules: the bounds rect for background, border and gradient; a shape's control points
/// grown by half the line width times max(miterLimit, √2) when stroked (the farthest a
/// miter or square cap reaches); an image's destination rect for its gravity; a text
/// layout's control points; each sublayer's own box grown by its shadow's reach;
/// contents and sublayers cut to the bounds when masksToBounds. nil means "cannot tell"
/// and the caller uses the whole surface.
enum LayerBounds {
    static func device(of layer: RenderLayer, toDevice: AffineTransform, images: [String: Pixmap])
        -> Rect?
    {
        let p = layer.properties
        let own = transformed(p.bounds, toDevice)
        var drawn: Rect? = nil
        if !p.backgroundColor.isInvisible || (p.borderWidth > 0 && !p.borderColor.isInvisible) {
            drawn = own
        }
        var inner: Rect? = nil
        switch layer.content {
        case .none:
            break
        case .shape(let shape):
            inner = shapeBox(
                LayerPainter.shapePath(shape.geometry, p), strokeColor: p.strokeColor,
                lineWidth: p.lineWidth, miterLimit: p.miterLimit, toDevice)
        case .gradient:
            inner = own
        case .image(let content):
            guard let image = images[content.asset] else { break }
            inner = transformed(
                LayerPainter.imageDestination(
                    content.gravity, bounds: p.bounds,
                    imageWidth: image.width, imageHeight: image.height),
                toDevice)
        case .text(let text):
            guard let layout = try? TextEngine.shared.layout(TextRequest(text, properties: p)),
                let box = layout.path.controlBounds
            else { break }
            let shift = LayerPainter.baselineShift(text, layout)
            inner = transformed(
                Rect(box.x + p.bounds.x, box.y + p.bounds.y - shift, box.width, box.height),
                toDevice)
        case .vector:
            // Drawn as generated drawings or sublayers; when the renderer has not expanded
            // them yet (the layer's own `drawings` join below once it has), they are here.
            if let nodes = layer.vector {
                let artwork = VectorLayerCache.artwork(nodes, id: layer.id)
                for drawing in artwork.layers {
                    let childToDevice = PixelSnapping.layerToDevice(drawing, parent: toDevice)
                    guard abs(childToDevice.determinant) > 1e-12 else { continue }
                    guard let box = device(of: drawing, toDevice: childToDevice, images: images)
                    else { return nil }
                    inner = union(inner, box)
                }
                inner = union(inner, box(of: artwork.drawings, toDevice))
            }
        }
        inner = union(inner, box(of: layer.drawings, toDevice))
        // Through the buffer: a for-in loop would copy (and retain the fields of) every
        // sublayer.
        var unknown = false
        layer.sublayers.withUnsafeBufferPointer { layers in
            for i in layers.indices {
                guard let box = sublayerBox(layers[i], parent: toDevice, images: images) else {
                    unknown = true
                    return
                }
                inner = union(inner, box)
            }
        }
        if unknown { return nil }
        if p.masksToBounds, let contents = inner {
            inner = intersection(contents, own)
        }
        return union(drawn, inner) ?? Rect(own.x, own.y, 0, 0)
    }

    /// A sublayer's box under its parent's `toDevice`, grown by its shadow's and effects'
    /// reach: nil when it cannot be told, `.some(nil)` when the sublayer draws nothing
    /// (scaled to nothing).
    private static func sublayerBox(
        _ sublayer: RenderLayer, parent toDevice: AffineTransform, images: [String: Pixmap]
    ) -> Rect?? {
        let childToDevice = PixelSnapping.layerToDevice(sublayer, parent: toDevice)
        guard abs(childToDevice.determinant) > 1e-12 else { return .some(nil) }
        guard var box = device(of: sublayer, toDevice: childToDevice, images: images) else {
            return nil
        }
        if LayerShadow.isVisible(sublayer) {
            box = outset(box, by: LayerShadow.reach(sublayer.properties, parent: toDevice))
        }
        if let effects = sublayer.compositing?.effects, !effects.isEmpty {
            // A blur spreads the sublayer's pixels beyond its drawing.
            box = outset(
                box,
                by: LayerMasks.reach(effects, scale: abs(childToDevice.determinant).squareRoot()))
        }
        return box
    }

    /// The box around a shape's path, grown by its stroke's reach (half the line width
    /// times max(miterLimit, √2)) when stroked, on the device.
    private static func shapeBox(
        _ path: Path, strokeColor: Color, lineWidth: Double, miterLimit: Double,
        _ toDevice: AffineTransform
    ) -> Rect? {
        guard var box = path.controlBounds else { return nil }
        if !strokeColor.isInvisible && lineWidth > 0 {
            let reach = lineWidth / 2 * max(miterLimit, 2.0.squareRoot())
            box = Rect(box.x - reach, box.y - reach, box.width + 2 * reach, box.height + 2 * reach)
        }
        return transformed(box, toDevice)
    }

    /// The box around vector drawings, each as the shape layer it stands for.
    private static func box(of drawings: [VectorDrawing], _ toDevice: AffineTransform) -> Rect? {
        var result: Rect? = nil
        // Read in place: a copy of each drawing would retain its path and style.
        drawings.withUnsafeBufferPointer { drawings in
            for i in drawings.indices {
                let t = PixelSnapping.drawingToDevice(drawings[i].transform, parent: toDevice)
                guard abs(t.determinant) > 1e-12, case .path(let path) = drawings[i].shape.geometry
                else { continue }
                // A path without a box counts as the point its layer's bounds would be.
                result = union(
                    result,
                    shapeBox(
                        path, strokeColor: drawings[i].style.strokeColor,
                        lineWidth: drawings[i].style.lineWidth,
                        miterLimit: drawings[i].style.miterLimit, t) ?? transformed(.zero, t))
            }
        }
        return result
    }

    /// How far from the origin a device box reaches at most (2^40 px): far past any
    /// surface, and small enough that a canvas-sized box added to one stays exact. A layer
    /// moved to 1e306 would otherwise absorb the canvas in a union (1e306 + 100 is 1e306),
    /// leaving a box smaller than what is drawn, and frame reuse would keep stale pixels.
    static let farthest = Double(1 << 40)

    /// The axis-aligned box around `r` mapped through `t`, within ±``farthest``.
    ///
    /// The four corners are folded one by one, as `min()`/`max()` over an array of them
    /// would (a NaN corner is kept where it comes first), without the arrays: this runs
    /// for every layer and drawing a frame measures.
    static func transformed(_ r: Rect, _ t: AffineTransform) -> Rect {
        @inline(__always) func near(_ v: Double) -> Double { min(max(v, -farthest), farthest) }
        let (minX, maxX, minY, maxY) = (r.minX, r.maxX, r.minY, r.maxY)
        let p0 = t.apply(Point(minX, minY)), p1 = t.apply(Point(maxX, minY))
        let p2 = t.apply(Point(minX, maxY)), p3 = t.apply(Point(maxX, maxY))
        var x0 = near(p0.x), x1 = x0, y0 = near(p0.y), y1 = y0
        @inline(__always) func fold(_ p: Point) {
            let x = near(p.x), y = near(p.y)
            if x < x0 { x0 = x }
            if x > x1 { x1 = x }
            if y < y0 { y0 = y }
            if y > y1 { y1 = y }
        }
        fold(p1); fold(p2); fold(p3)
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    /// `r` grown by `d` on every side; a reach past 1e300 (infinite, or NaN that cannot be
    /// told) is 1e300, everywhere yet finite, so that intersections and unions keep it.
    static func outset(_ r: Rect, by d: Double) -> Rect {
        let d = d.isNaN ? 1e300 : min(d, 1e300)
        return Rect(r.x - d, r.y - d, r.width + 2 * d, r.height + 2 * d)
    }

    private static func union(_ a: Rect?, _ b: Rect?) -> Rect? {
        guard let a else { return b }
        guard let b else { return a }
        let x0 = min(a.minX, b.minX), y0 = min(a.minY, b.minY)
        return Rect(x0, y0, max(a.maxX, b.maxX) - x0, max(a.maxY, b.maxY) - y0)
    }

    private static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x0 = max(a.minX, b.minX), y0 = max(a.minY, b.minY)
        let x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        return x0 < x1 && y0 < y1 ? Rect(x0, y0, x1 - x0, y1 - y0) : nil
    }

    /// Whole pixels covering `r` (grown by one pixel for anti-aliasing), within `limit`.
    static func pixels(_ r: Rect, within limit: PixelBounds) -> PixelBounds {
        guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else { return limit }
        // Saturating: a layer far off the surface (a position of 1e20) has one side beyond
        // Int's range, and then an empty box.
        let x0 = Int(saturating: max(Double(limit.x0), (r.minX - 1).rounded(.down)))
        let y0 = Int(saturating: max(Double(limit.y0), (r.minY - 1).rounded(.down)))
        let x1 = Int(saturating: min(Double(limit.x1), (r.maxX + 1).rounded(.up)))
        let y1 = Int(saturating: min(Double(limit.y1), (r.maxY + 1).rounded(.up)))
        return PixelBounds(x0: x0, y0: y0, x1: max(x0, x1), y1: max(y0, y1))
    }
}
