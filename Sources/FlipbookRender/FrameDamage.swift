import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Where two frame trees can render differently: the pixels outside the box this returns
/// are the same in both frames' full renders, so a renderer that kept the older frame's
/// pixels only repaints the box (see ``FrameReuse``).
///
/// Rules (each keeps the answer conservative; "the whole frame" is always allowed):
/// - The canvas, snap mode, background and the folded starting pixel
///   (``BackgroundFolding``) must be equal, and the top-level layers the same in number and
///   order; otherwise the whole frame.
/// - Layers are compared in order by value (``RenderLayer/sameOwnValues(_:)``: every field
///   but the sublayers; sublayers one by one). An equal layer adds nothing.
/// - A layer whose own values are equal, that is not flattened offscreen and has as many
///   sublayers adds what its sublayers add: it draws itself and passes its transform and
///   clip to them exactly as before. A flattened layer (group opacity, mask, shadow,
///   effects) is not entered: its offscreen is sized from everything it draws, so one
///   moving sublayer can shift the others on the offscreen's grid; and a blur or shadow
///   spreads any change.
/// - Any other changed layer adds the union of its old and new device boxes: what
///   ``LayerBounds`` says it draws, grown by its shadow's and effects' reach and by a pixel
///   for anti-aliasing (the box the renderer gives its offscreen, which nothing it draws
///   leaves). A layer whose box cannot be told makes it the whole frame.
enum FrameDamage {
    /// The pixel box of `new` that can differ from `old`'s render (empty when nothing can),
    /// or nil for the whole frame.
    static func box(
        from old: FrameTree, oldStart: (pixel: UInt32, layers: Int), to new: FrameTree,
        newStart: (pixel: UInt32, layers: Int), renderer: FrameRenderer
    ) -> PixelBounds? {
        guard old.canvasSize == new.canvasSize, old.snap == new.snap,
            old.background == new.background,
            oldStart == newStart, old.layers.count == new.layers.count
        else { return nil }
        let (width, height) = renderer.pixelSize(of: new.canvasSize)
        let root = AffineTransform.scale(renderer.scale, renderer.scale)
        let whole = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        var damage = PixelBounds.empty
        for (a, b) in zip(old.layers, new.layers).dropFirst(newStart.layers) {
            guard let d = layerDamage(a, b, parent: root, whole: whole, images: renderer.images)
            else { return nil }
            damage = damage.union(d)
            if damage == whole { return nil }
        }
        return damage
    }

    private static func layerDamage(
        _ a: RenderLayer, _ b: RenderLayer, parent: AffineTransform,
        whole: PixelBounds, images: [String: Pixmap]
    ) -> PixelBounds? {
        if a.sameOwnValues(b), a.sublayers.count == b.sublayers.count {
            if !mayBeGroup(a) {
                let toDevice = PixelSnapping.layerToDevice(a, parent: parent)
                // Scaled to nothing, it draws nothing in either frame.
                guard abs(toDevice.determinant) > 1e-12 else { return .empty }
                var damage = PixelBounds.empty
                for (x, y) in zip(a.sublayers, b.sublayers) {
                    guard let d = layerDamage(x, y, parent: toDevice, whole: whole, images: images)
                    else { return nil }
                    damage = damage.union(d)
                }
                return damage
            }
            if zip(a.sublayers, b.sublayers).allSatisfy({ $0.equals($1) }) { return .empty }
        }
        guard let boxA = deviceBox(of: a, parent: parent, whole: whole, images: images),
            let boxB = deviceBox(of: b, parent: parent, whole: whole, images: images)
        else { return nil }
        return boxA.union(boxB)
    }

    /// Whether ``FrameRenderer`` may flatten the layer offscreen; true when unsure (a
    /// layer with vector artwork draws generated sublayers, which count as drawings).
    static func mayBeGroup(_ layer: RenderLayer) -> Bool {
        let p = layer.properties
        return LayerShadow.isVisible(layer) || layer.hasMask
            || layer.compositing?.needsGroup == true
            || (p.opacity < 1 && (LayerPainter.drawingCount(layer) > 1 || layer.vector != nil))
    }

    /// The pixels a layer can write, as ``FrameRenderer/draw`` bounds its offscreen;
    /// nil when that cannot be told.
    static func deviceBox(
        of layer: RenderLayer, parent: AffineTransform, whole: PixelBounds,
        images: [String: Pixmap]
    ) -> PixelBounds? {
        let toDevice = PixelSnapping.layerToDevice(layer, parent: parent)
        guard abs(toDevice.determinant) > 1e-12 else { return .empty }
        let p = layer.properties
        let effects = layer.compositing?.effects ?? []
        let reach =
            (LayerShadow.isVisible(layer) ? LayerShadow.reach(p, parent: parent) : 0)
            + LayerMasks.reach(effects, scale: abs(toDevice.determinant).squareRoot())
        guard reach.isFinite,
            let drawn = LayerBounds.device(of: layer, toDevice: toDevice, images: images)
        else { return nil }
        let box = LayerBounds.pixels(LayerBounds.outset(drawn, by: reach), within: whole)
        return box == whole ? nil : box
    }
}

extension RenderLayer {
    /// Equal in every field but the sublayers. Each field is compared by value; image,
    /// text and shape contents by their descriptions; vector content by its evaluated
    /// nodes (`vector`), which is all the renderer draws of it.
    /// `FrameReuseTests` checks that this covers every stored field.
    func sameOwnValues(_ o: RenderLayer) -> Bool {
        id == o.id && properties == o.properties && snap == o.snap
            && transformOverride == o.transformOverride
            && vector == o.vector && drawings == o.drawings && compositing == o.compositing
            && Self.sameContent(content, o.content)
            && Self.sameMask(mask, o.mask)
    }

    /// Equal with all sublayers.
    func equals(_ o: RenderLayer) -> Bool {
        sameOwnValues(o) && sublayers.count == o.sublayers.count
            && zip(sublayers, o.sublayers).allSatisfy { $0.equals($1) }
    }

    private static func sameMask(_ a: RenderLayer?, _ b: RenderLayer?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): a.equals(b)
        default: false
        }
    }

    private static func sameContent(_ a: LayerContent, _ b: LayerContent) -> Bool {
        switch (a, b) {
        case (.none, .none): true
        case let (.shape(x), .shape(y)): x == y
        case let (.gradient(x), .gradient(y)): x == y
        case let (.image(x), .image(y)): x == y
        case let (.text(x), .text(y)): x == y
        // The renderer draws `vector` (compared above), never the animated shape itself.
        case (.vector, .vector): true
        case (.none, _), (.shape, _), (.gradient, _), (.image, _), (.text, _), (.vector, _): false
        }
    }
}
