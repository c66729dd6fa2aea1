import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Draws a ``FrameTree`` into pixels at a chosen scale: the last pure stage before the
/// encoders.
///
/// Drawing order within a layer follows CALayer: shadow, background, contents (shape,
/// gradient, image or text), sublayers, border; then mask and group opacity apply to the
/// whole.
/// A layer is flattened into an offscreen surface only when it must be: when it has a
/// mask, or when it is translucent and draws more than one thing that could overlap
/// (so that overlapping parts of a half-transparent group do not darken). Otherwise its
/// opacity multiplies straight into its single drawing.
public struct FrameRenderer: Sendable {
    /// Pixels per point.
    public let scale: Double
    /// Decoded image assets by name.
    public let images: [String: Pixmap]
    /// Composite leading full-canvas solid layers into the background once (see
    /// ``BackgroundFolding``); off only to check that the bytes do not depend on it.
    public var foldsBackground = true

    public init(scale: Double, images: [String: Pixmap] = [:]) {
        self.scale = scale
        self.images = images
    }

    /// The output size in pixels for a canvas of `size` points.
    public func pixelSize(of size: Size) -> (width: Int, height: Int) {
        let (width, height) = Canvas.roundedPixelSize(of: size, scale: scale)
        return (max(1, Int(saturating: width)), max(1, Int(saturating: height)))
    }

    /// Renders one frame.
    public func render(_ frame: FrameTree) -> Pixmap {
        let (width, height) = pixelSize(of: frame.canvasSize)
        let root = AffineTransform.scale(scale, scale)
        // Full-canvas solid layers at the bottom are composited into the starting color.
        let start =
            foldsBackground
            ? BackgroundFolding.fold(frame, root: root, width: width, height: height)
            : (pixel: SolidComposite.premultiplied(frame.background), layers: 0)
        var surface = Pixmap(width: width, height: height, filledWithPremultiplied: start.pixel)
        for layer in frame.layers.dropFirst(start.layers) {
            // On a stop request (Ctrl-C) the frame is left half drawn: the caller checks
            // the request before using it, and discards it.
            if RenderCancellation.shared.isCancelled { break }
            draw(layer, parent: root, into: &surface, clip: nil)
        }
        return surface
    }

    /// Draws `layer` and its subtree; `inherited` is the opacity of single-child parents
    /// above it that had nothing else to draw (see `drawResolved`).
    func draw(
        _ layer: RenderLayer, parent: AffineTransform, into surface: inout Pixmap, clip: Mask?,
        inherited: Double = 1
    ) {
        if RenderCancellation.shared.isCancelled { return }
        if layer.vector != nil {
            // Only then is the layer copied: the copy moves its fields.
            drawResolved(
                Self.withVectorSublayers(layer), parent: parent, into: &surface, clip: clip,
                inherited: inherited)
        } else {
            drawResolved(layer, parent: parent, into: &surface, clip: clip, inherited: inherited)
        }
    }

    private func drawResolved(
        _ layer: RenderLayer, parent: AffineTransform, into surface: inout Pixmap, clip: Mask?,
        inherited: Double
    ) {
        let toDevice = PixelSnapping.layerToDevice(layer, parent: parent)
        // A layer scaled to nothing draws nothing (and cannot be inverted for paints).
        guard abs(toDevice.determinant) > 1e-12 else { return }
        let casts = LayerShadow.isVisible(layer)
        let compositing = layer.compositing
        let opacity = layer.properties.opacity * inherited
        let plain = !casts && !layer.hasMask && compositing?.needsGroup != true
        if plain && opacity < 1 && layer.sublayers.count + layer.drawings.count == 1
            && LayerPainter.drawingCount(layer) == LayerPainter.drawingCount(sublayersOnly: layer)
        {
            // Nothing of its own to draw and one sublayer: group opacity over a single
            // child is the child drawn with the product of the opacities, so no
            // offscreen (Lottie layers are transform layers holding one content layer).
            paint(
                layer, toDevice, into: &surface, clip: clip, opacity: opacity,
                sublayerOpacity: opacity)
            return
        }
        guard !plain || (opacity < 1 && LayerPainter.drawingCount(layer) > 1) else {
            paint(layer, toDevice, into: &surface, clip: clip, opacity: opacity)
            return
        }
        // The offscreen covers what the layer draws (plus its shadow's and effects'
        // reach), not the whole surface.
        let whole = PixelBounds(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        let effects = compositing?.effects ?? []
        let deviceScale = abs(toDevice.determinant).squareRoot()
        var reach =
            (casts ? LayerShadow.reach(layer.properties, parent: parent) : 0)
            + LayerMasks.reach(effects, scale: deviceScale)
        // A reach that cannot be told (NaN from inf − inf in a hostile transform) is unbounded.
        if reach.isNaN { reach = .infinity }
        var area = whole
        if let drawn = LayerBounds.device(of: layer, toDevice: toDevice, images: images) {
            area = LayerBounds.pixels(LayerBounds.outset(drawn, by: reach), within: whole)
        }
        if let clip {
            // Nothing outside the clip shows, but a shadow may be cast into it from outside.
            let grow = Int(saturating: reach.rounded(.up)) + 1
            area = area.intersection(
                PixelBounds(
                    x0: clip.bounds.x0 - grow, y0: clip.bounds.y0 - grow,
                    x1: clip.bounds.x1 + grow, y1: clip.bounds.y1 + grow))
        }
        let maskMode = compositing?.maskMode ?? .alpha
        if let maskLayer = layer.mask, !casts, effects.isEmpty,
            maskMode == .alpha || maskMode == .luminance,
            let matte = Self.deviceBounds(of: maskLayer, parent: toDevice, images: images)
        {
            // Outside what a matte draws its alpha and luminance are 0, so the layer
            // shows only where the two overlap: the offscreens need no more (a water
            // level's rectangle matted by a glass shape draws the glass's box, not the
            // rectangle's). Not with a shadow or effects, which reach past the drawing.
            area = area.intersection(LayerBounds.pixels(matte, within: whole))
        }
        guard !area.isEmpty else { return }
        let toGroup = toDevice.concatenating(.translation(Double(-area.x0), Double(-area.y0)))
        // Offscreens come from the thread's pool and go back once drawn (see PixelBufferPool).
        var group = Pixmap.pooled(width: area.width, height: area.height)
        defer { group.recycle() }
        paint(layer, toGroup, into: &group, clip: nil, opacity: 1)
        var maskAlpha: Mask?
        if let masks = compositing?.masks,
            let coverage = LayerMasks.coverage(
                masks, toGroup: toGroup, width: area.width, height: area.height)
        {
            group.multiply(by: coverage)
        }
        if !effects.isEmpty { LayerMasks.apply(effects, to: &group, scale: deviceScale) }
        if let maskLayer = layer.mask {
            // The mask lives in the layer's space; its own opacity scales its alpha
            // because it is drawn with it.
            var maskSurface = Pixmap.pooled(width: area.width, height: area.height)
            defer { maskSurface.recycle() }
            draw(maskLayer, parent: toGroup, into: &maskSurface, clip: nil)
            if maskMode == .alpha && !casts {
                // Nothing else needs the matte as a mask (a shadow does): the group is
                // multiplied by its alpha straight away, the same bytes in one pass.
                group.multiply(byAlphaOf: maskSurface)
            } else {
                maskAlpha = LayerMasks.matte(
                    maskSurface, mode: maskMode, width: area.width, height: area.height)
            }
        } else if maskMode != .alpha, compositing != nil {
            maskAlpha = LayerMasks.matte(
                nil, mode: maskMode, width: area.width, height: area.height)
        }
        if casts {
            var faded = layer.properties
            faded.opacity = opacity
            // The timeline made the last drop-shadow effect the layer's shadow.
            let spread =
                effects.reversed().lazy.compactMap { effect -> Double? in
                    if case .dropShadow(_, _, _, let spread) = effect {
                        return spread
                    } else {
                        return nil
                    }
                }.first ?? 0
            LayerShadow.draw(
                for: group, at: area, mask: maskAlpha, properties: faded, spread: spread,
                parent: parent, into: &surface, clip: clip)
        }
        if let maskAlpha { group.multiply(by: maskAlpha) }
        if let blend = compositing.flatMap({ LayerMasks.blendFunction($0.blendMode) }) {
            surface.draw(group, x: area.x0, y: area.y0, opacity: opacity, blend: blend, mask: clip)
        } else {
            surface.draw(group, x: area.x0, y: area.y0, opacity: opacity, mask: clip)
        }
    }

    private func paint(
        _ layer: RenderLayer, _ toDevice: AffineTransform, into surface: inout Pixmap,
        clip: Mask?, opacity: Double, sublayerOpacity: Double = 1
    ) {
        // Holding sublayers only (most Lottie layers), a layer needs no painter.
        let painter =
            LayerPainter.paintsItself(layer)
            ? LayerPainter(toDevice: toDevice, opacity: opacity, images: images) : nil
        painter?.paintBackground(layer, into: &surface, clip: clip)
        var contentClip = clip
        var sublayers = layer.sublayers
        if layer.properties.masksToBounds
            && !Self.coversSurface(layer.properties, toDevice, surface)
        {
            // A clip mask costs the whole surface (cleared, then the bounds rasterized into
            // it); measuring the sublayers costs their artwork built and copied first. The
            // measurement pays for itself on large surfaces only (5317-fireworkds: 13 %
            // faster at 720×1280, 13 % slower at 144×256), hence the threshold.
            var inside = false
            if surface.width * surface.height >= Self.measuredClipPixels {
                // Vector artwork is expanded once here, so that measuring what the
                // sublayers draw and drawing them do not build it twice.
                if sublayers.contains(where: Self.hasVectors) {
                    sublayers = sublayers.map(Self.expandingVectors)
                }
                inside = drawsInside(layer, sublayers: sublayers, toDevice)
            }
            if !inside {
                var bounds = ClipMaskCache.mask(
                    LayerPainter.boundsPath(layer), transform: toDevice,
                    width: surface.width, height: surface.height)
                if let clip { bounds.intersect(clip) }
                contentClip = bounds
            }
        }
        painter?.paintContents(layer, into: &surface, clip: contentClip)
        // Vector drawings, each as the shape layer it stands for would be drawn (see
        // ``drawResolved``: a plain layer with one drawing paints it with its opacity).
        layer.drawings.withUnsafeBufferPointer { drawings in
            for i in drawings.indices {
                if RenderCancellation.shared.isCancelled { return }
                let toDrawing = PixelSnapping.drawingToDevice(
                    drawings[i].transform, parent: toDevice)
                guard abs(toDrawing.determinant) > 1e-12,
                    case .path(let path) = drawings[i].shape.geometry
                else { continue }
                LayerPainter(
                    toDevice: toDrawing, opacity: drawings[i].opacity * sublayerOpacity,
                    images: images
                )
                .paintShape(
                    path, drawings[i].shape, drawings[i].style, into: &surface, clip: contentClip)
            }
        }
        // Through the buffer: each sublayer is borrowed, where a for-in loop would copy
        // (and retain the fields of) every one.
        sublayers.withUnsafeBufferPointer { layers in
            for i in layers.indices {
                draw(
                    layers[i], parent: toDevice, into: &surface, clip: contentClip,
                    inherited: sublayerOpacity)
            }
        }
        painter?.paintBorder(layer, into: &surface, clip: clip)
    }

    /// The device box around what `layer` draws under `parent`, its own shadow and effects
    /// included (nil: cannot tell).
    static func deviceBounds(
        of layer: RenderLayer, parent: AffineTransform, images: [String: Pixmap]
    ) -> Rect? {
        let toDevice = PixelSnapping.layerToDevice(layer, parent: parent)
        guard abs(toDevice.determinant) > 1e-12 else { return Rect(0, 0, 0, 0) }
        guard var box = LayerBounds.device(of: layer, toDevice: toDevice, images: images) else {
            return nil
        }
        if LayerShadow.isVisible(layer) {
            box = LayerBounds.outset(box, by: LayerShadow.reach(layer.properties, parent: parent))
        }
        if let effects = layer.compositing?.effects, !effects.isEmpty {
            box = LayerBounds.outset(
                box, by: LayerMasks.reach(effects, scale: abs(toDevice.determinant).squareRoot()))
        }
        return box
    }

    /// Surfaces from this many pixels up check whether a clip to bounds can be skipped.
    static let measuredClipPixels = 512 * 512

    /// `layer` with its vector artwork turned into sublayers, all the way down (masks
    /// excepted: they are drawn apart).
    static func expandingVectors(_ layer: RenderLayer) -> RenderLayer {
        var expanded = withVectorSublayers(layer)
        if expanded.sublayers.contains(where: hasVectors) {
            expanded.sublayers = expanded.sublayers.map(expandingVectors)
        }
        return expanded
    }

    /// Vector artwork draws as the layer's contents: generated drawings (or, when a group
    /// needs a layer, generated sublayers) beneath the real sublayers (this level only).
    private static func withVectorSublayers(_ layer: RenderLayer) -> RenderLayer {
        guard let nodes = layer.vector else { return layer }
        let artwork = VectorLayerCache.artwork(nodes, id: layer.id)
        var sublayers = artwork.layers
        // Shape layers rarely have sublayers: then the cached array is shared, not copied.
        if !layer.sublayers.isEmpty { sublayers.append(contentsOf: layer.sublayers) }
        var expanded = layer
        expanded.sublayers = sublayers
        expanded.attachment = artwork.attachment
        expanded.vector = nil
        return expanded
    }

    private static func hasVectors(_ layer: RenderLayer) -> Bool {
        layer.vector != nil || layer.sublayers.contains(where: hasVectors)
    }

    /// Whether everything the layer's contents and `sublayers` can touch lies on pixels
    /// that its (square-cornered) bounds cover entirely, so that clipping to the bounds
    /// changes no pixel (a precomposition whose artwork stays inside it): the clip mask is
    /// then skipped, with the same bytes. The test is conservative: the pixel box around
    /// the drawing, grown by one pixel, must have its four corners inside the bounds'
    /// device quadrilateral (convex, so the whole box is inside).
    func drawsInside(_ layer: RenderLayer, sublayers: [RenderLayer], _ toDevice: AffineTransform)
        -> Bool
    {
        let p = layer.properties
        guard p.cornerRadius <= 0, !p.bounds.isEmpty else { return false }
        if case .none = layer.content, sublayers.isEmpty, layer.drawings.isEmpty { return true }
        // What the layer would draw unclipped: its contents and sublayers (with their
        // shadows' and effects' reach), not its own background and border.
        var unclipped = layer
        unclipped.sublayers = sublayers
        unclipped.properties.masksToBounds = false
        unclipped.properties.backgroundColor = .clear
        unclipped.properties.borderWidth = 0
        guard let box = LayerBounds.device(of: unclipped, toDevice: toDevice, images: images) else {
            return false
        }
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else {
            return false
        }
        let x0 = box.minX.rounded(.down) - 1, y0 = box.minY.rounded(.down) - 1
        let x1 = box.maxX.rounded(.up) + 1, y1 = box.maxY.rounded(.up) + 1
        guard let toLayer = toDevice.inverted else { return false }
        let b = p.bounds.standardized
        for corner in [Point(x0, y0), Point(x1, y0), Point(x0, y1), Point(x1, y1)] {
            let q = toLayer.apply(corner)
            guard q.x >= b.minX, q.x <= b.maxX, q.y >= b.minY, q.y <= b.maxY else { return false }
        }
        return true
    }

    /// Whether a layer's (square-cornered) bounds cover the whole surface on the device, so
    /// that clipping to them changes no pixel (a precomposition as large as its
    /// composition): the clip mask is then skipped, with the same bytes.
    static func coversSurface(_ p: LayerProperties, _ toDevice: AffineTransform, _ surface: Pixmap)
        -> Bool
    {
        guard p.cornerRadius <= 0, toDevice.isAxisAligned else { return false }
        let a = toDevice.apply(p.bounds.origin)
        let b = toDevice.apply(Point(p.bounds.maxX, p.bounds.maxY))
        return min(a.x, b.x) <= 0 && min(a.y, b.y) <= 0
            && max(a.x, b.x) >= Double(surface.width) && max(a.y, b.y) >= Double(surface.height)
    }
}
