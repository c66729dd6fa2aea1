import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookText
import FlipbookTimeline

/// Paints one layer's own drawings (background, contents, border) with its evaluated
/// values; the sublayers and the group are the ``FrameRenderer``'s business.
///
/// The layer is passed to each call, not stored: a painter is made for every drawing of
/// every frame, and storing would copy the 900-byte layer (and retain its fields) each time.
struct LayerPainter {
    /// Bounds space → device pixels.
    let toDevice: AffineTransform
    /// Multiplies every drawing (the layer's opacity when it is not flattened as a group).
    let opacity: Double
    let images: [String: Pixmap]

    /// The (rounded) bounds: background, border and masksToBounds all use it.
    static func boundsPath(_ layer: RenderLayer) -> Path {
        let (bounds, radius) = (layer.properties.bounds, layer.properties.cornerRadius)
        return radius > 0 ? .roundedRect(bounds, cornerRadius: radius) : .rect(bounds)
    }

    /// Whether the layer paints anything of its own (background, contents or border), as
    /// opposed to only holding sublayers (most Lottie layers): the others need no painter.
    static func paintsItself(_ layer: RenderLayer) -> Bool {
        switch layer.content {
        case .none, .vector:
            let p = layer.properties
            return (!p.backgroundColor.isInvisible && !p.bounds.isEmpty) || hasBorder(p)
        case .shape, .gradient, .image, .text:
            return true
        }
    }

    /// How many separate drawings the layer makes; more than one means a translucent
    /// layer must be flattened first so that they do not blend with each other.
    static func drawingCount(_ layer: RenderLayer) -> Int {
        let p = layer.properties
        var n = p.backgroundColor.isInvisible || p.bounds.isEmpty ? 0 : 1
        switch layer.content {
        case .none, .vector: break
        case .shape: n += (p.fillColor.isInvisible ? 0 : 1) + (strokes(p) ? 1 : 0)
        case .gradient, .image, .text: n += 1
        }
        if !layer.sublayers.isEmpty || !layer.drawings.isEmpty { n += 2 }
        if hasBorder(p) { n += 1 }
        return n
    }

    /// What ``drawingCount(_:)`` counts for the sublayers alone.
    static func drawingCount(sublayersOnly layer: RenderLayer) -> Int {
        layer.sublayers.isEmpty && layer.drawings.isEmpty ? 0 : 2
    }

    /// As ``ShapeStyle/strokes``, without copying the style out.
    private static func strokes(_ p: LayerProperties) -> Bool {
        !p.strokeColor.isInvisible && p.lineWidth > 0 && p.strokeEnd > p.strokeStart
    }

    private static func hasBorder(_ p: LayerProperties) -> Bool {
        p.borderWidth > 0 && !p.borderColor.isInvisible && !p.bounds.isEmpty
    }

    private func fill(
        _ path: Path, _ rule: FlipbookRaster.FillRule, _ paint: Paint, into surface: inout Pixmap,
        clip: Mask?
    ) {
        surface.fill(
            path, transform: toDevice, rule: rule, paint: paint, opacity: opacity, clip: clip)
    }

    func paintBackground(_ layer: RenderLayer, into surface: inout Pixmap, clip: Mask?) {
        guard !layer.properties.backgroundColor.isInvisible, !layer.properties.bounds.isEmpty else {
            return
        }
        fill(
            Self.boundsPath(layer), .nonZero, .solid(layer.properties.backgroundColor),
            into: &surface, clip: clip)
    }

    /// Inside the bounds, over contents and sublayers; inner corners of radius
    /// max(r − borderWidth, 0).
    func paintBorder(_ layer: RenderLayer, into surface: inout Pixmap, clip: Mask?) {
        guard Self.hasBorder(layer.properties) else { return }
        let b = layer.properties.bounds.standardized
        let w = min(layer.properties.borderWidth, b.width / 2, b.height / 2)
        let inner = Rect(b.x + w, b.y + w, b.width - 2 * w, b.height - 2 * w)
        var ring = Self.boundsPath(layer)
        if !inner.isEmpty {
            let r = max(layer.properties.cornerRadius - w, 0)
            ring.elements +=
                (r > 0 ? Path.roundedRect(inner, cornerRadius: r) : Path.rect(inner)).elements
        }
        fill(ring, .evenOdd, .solid(layer.properties.borderColor), into: &surface, clip: clip)
    }

    func paintContents(_ layer: RenderLayer, into surface: inout Pixmap, clip: Mask?) {
        switch layer.content {
        case .none, .vector: break
        case .shape(let shape): paintShape(layer, shape, into: &surface, clip: clip)
        case .gradient(let kind): paintGradient(layer, kind, into: &surface, clip: clip)
        case .image(let image): paintImage(layer, image, into: &surface, clip: clip)
        case .text(let text): paintText(layer, text, into: &surface, clip: clip)
        }
    }

    /// CATextLayer: glyph outlines laid out in the bounds (first line at the top) and
    /// filled with the text color like any path, so text anti-aliases, transforms and masks
    /// as shapes do. A font that cannot be loaded draws nothing (`SceneRenderer` lays
    /// every text layer out once before rendering and reports it first).
    private func paintText(
        _ layer: RenderLayer, _ text: TextContent, into surface: inout Pixmap, clip: Mask?
    ) {
        guard !layer.properties.textColor.isInvisible, layer.properties.fontSize > 0,
            !text.string.isEmpty
        else { return }
        let request = TextRequest(text, properties: layer.properties)
        guard let layout = try? TextEngine.shared.layout(request), !layout.path.isEmpty else {
            return
        }
        let placed = layout.path.applying(
            .translation(
                layer.properties.bounds.x,
                layer.properties.bounds.y - Self.baselineShift(text, layout)))
        fill(placed, .nonZero, .solid(layer.properties.textColor), into: &surface, clip: clip)
    }

    /// How far up a point-text layout moves so that its first baseline sits at the top.
    static func baselineShift(_ text: TextContent, _ layout: TextLayout) -> Double {
        text.baselineOrigin ? layout.lines.first?.baseline ?? 0 : 0
    }

    /// The outline of a shape layer, in its bounds space.
    static func shapePath(_ geometry: ShapeGeometry, _ props: LayerProperties) -> Path {
        switch geometry {
        case .path(let path): return path
        case .rect:
            return props.shapeCornerRadius > 0
                ? .roundedRect(props.shapeRect, cornerRadius: props.shapeCornerRadius)
                : .rect(props.shapeRect)
        case .ellipse: return .ellipse(in: props.shapeRect)
        case .arc(let clockwise):
            return .arc(
                center: props.arcCenter, radius: props.arcRadius, startDegrees: props.arcStart,
                endDegrees: props.arcEnd, clockwise: clockwise)
        }
    }

    /// CAShapeLayer: fill, then the stroke (trimmed to strokeStart…strokeEnd by length,
    /// dashed, outlined in the layer's space so that a non-uniform scale shapes the pen as
    /// Core Animation's does).
    private func paintShape(
        _ layer: RenderLayer, _ shape: ShapeContent, into surface: inout Pixmap, clip: Mask?
    ) {
        paintShape(
            Self.shapePath(shape.geometry, layer.properties), shape, ShapeStyle(layer.properties),
            into: &surface, clip: clip)
    }

    /// Fills and strokes `path` (in bounds space) as a shape layer with `shape` and `style`
    /// does; vector drawings are painted through here too.
    func paintShape(
        _ path: Path, _ shape: ShapeContent, _ style: ShapeStyle, into surface: inout Pixmap,
        clip: Mask?
    ) {
        if !style.fillColor.isInvisible {
            let rule: FlipbookRaster.FillRule = shape.fillRule == .evenOdd ? .evenOdd : .nonZero
            fill(path, rule, paint(shape.fillGradient, style.fillColor), into: &surface, clip: clip)
        }
        guard style.strokes else { return }
        var stroked = path
        if style.strokeStart > 0 || style.strokeEnd < 1 {
            stroked = PathTrimmer.trim(
                path, from: max(style.strokeStart, 0), to: min(style.strokeEnd, 1))
        }
        let pen = StrokeStyle(
            width: style.lineWidth, cap: Self.cap(shape.lineCap), join: Self.join(shape.lineJoin),
            miterLimit: style.miterLimit, dashes: style.lineDashPattern,
            dashPhase: style.lineDashPhase)
        fill(
            Stroker.outline(of: stroked, style: pen, drawnThrough: toDevice), .nonZero,
            paint(shape.strokeGradient, style.strokeColor),
            into: &surface, clip: clip)
    }

    /// A shape's paint: the color, or the gradient with every stop's alpha scaled by the
    /// color's alpha (the style's opacity).
    private func paint(_ gradient: ShapeGradient?, _ color: Color) -> Paint {
        guard let g = gradient, let last = g.colors.last, let toBounds = toDevice.inverted else {
            return .solid(color)
        }
        let colors = g.colors.map {
            Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha * color.alpha)
        }
        let d = g.end - g.start
        let length2 = d.x * d.x + d.y * d.y
        guard colors.count > 1, length2 > 0 else {
            return .solid(
                Color(
                    red: last.red, green: last.green, blue: last.blue,
                    alpha: last.alpha * color.alpha))
        }
        let space: AffineTransform
        var kind: Gradient.Kind = g.radial ? .radial : .axial
        if g.radial {
            let r = length2.squareRoot()
            space = AffineTransform(
                a: 1 / r, b: 0, c: 0, d: 1 / r, tx: -g.start.x / r, ty: -g.start.y / r)
            if let f = g.focal, f != g.start {
                kind = .focal(x: (f.x - g.start.x) / r, y: (f.y - g.start.y) / r)
            }
        } else {
            space = AffineTransform(
                a: d.x / length2, b: -d.y, c: d.y / length2, d: d.x,
                tx: -(g.start.x * d.x + g.start.y * d.y) / length2, ty: 0)
        }
        return .gradient(
            Gradient(
                kind: kind, colors: colors, locations: g.locations,
                transform: toBounds.concatenating(space)))
    }

    private static func cap(_ c: FlipbookScene.LineCap) -> FlipbookRaster.LineCap {
        switch c {
        case .butt: .butt
        case .round: .round
        case .square: .square
        }
    }

    private static func join(_ j: FlipbookScene.LineJoin) -> FlipbookRaster.LineJoin {
        switch j {
        case .miter: .miter
        case .round: .round
        case .bevel: .bevel
        }
    }

    /// CAGradientLayer fills its bounds (contents are clipped only by masksToBounds).
    /// Start and end points are unit coordinates of the bounds; the axial isolines are
    /// perpendicular to start→end in points, as CGContextDrawLinearGradient draws them.
    /// Radial: an ellipse centered on startPoint whose radii reach endPoint on each axis;
    /// when one radius is 0 the other is used for both (a circle).
    private func paintGradient(
        _ layer: RenderLayer, _ kind: GradientKind, into surface: inout Pixmap, clip: Mask?
    ) {
        let colors = layer.properties.gradientColors
        guard let last = colors.last, !layer.properties.bounds.isEmpty,
            let toBounds = toDevice.inverted
        else { return }
        let b = layer.properties.bounds
        let start = Point(
            b.x + layer.properties.gradientStartPoint.x * b.width,
            b.y + layer.properties.gradientStartPoint.y * b.height)
        let end = Point(
            b.x + layer.properties.gradientEndPoint.x * b.width,
            b.y + layer.properties.gradientEndPoint.y * b.height)
        let locations =
            layer.properties.gradientLocations.count == colors.count
            ? layer.properties.gradientLocations : nil
        var space: AffineTransform?
        switch kind {
        case .axial:
            let d = end - start
            let length2 = d.x * d.x + d.y * d.y
            if length2 > 0 {
                space = AffineTransform(
                    a: d.x / length2, b: -d.y, c: d.y / length2, d: d.x,
                    tx: -(start.x * d.x + start.y * d.y) / length2, ty: 0)
            }
        case .radial:
            var rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            if rx == 0 { rx = ry }
            if ry == 0 { ry = rx }
            if rx > 0 {
                space = AffineTransform(
                    a: 1 / rx, b: 0, c: 0, d: 1 / ry, tx: -start.x / rx, ty: -start.y / ry)
            }
        }
        let paint: Paint
        if let space, colors.count > 1 {
            paint = .gradient(
                Gradient(
                    kind: kind == .axial ? .axial : .radial, colors: colors, locations: locations,
                    transform: toBounds.concatenating(space)))
        } else {
            paint = .solid(last)
        }
        fill(.rect(b), .nonZero, paint, into: &surface, clip: clip)
    }

    /// Where contentsGravity puts an image of the given pixel size in `bounds` (natural
    /// size: one point per image pixel).
    static func imageDestination(
        _ gravity: ContentsGravity, bounds: Rect, imageWidth: Int, imageHeight: Int
    ) -> Rect {
        let b = bounds.standardized
        let iw = Double(imageWidth), ih = Double(imageHeight)
        switch gravity {
        case .resize:
            return b
        case .resizeAspect, .resizeAspectFill:
            let s =
                gravity == .resizeAspect
                ? min(b.width / iw, b.height / ih) : max(b.width / iw, b.height / ih)
            return Rect(b.midX - iw * s / 2, b.midY - ih * s / 2, iw * s, ih * s)
        case .center:
            return Rect(b.midX - iw / 2, b.midY - ih / 2, iw, ih)
        }
    }

    /// Image contents placed by contentsGravity, sampled bilinearly.
    private func paintImage(
        _ layer: RenderLayer, _ content: ImageContent, into surface: inout Pixmap, clip: Mask?
    ) {
        guard let image = images[content.asset], image.width > 0, image.height > 0,
            !layer.properties.bounds.isEmpty, let toBounds = toDevice.inverted
        else { return }
        let dest = Self.imageDestination(
            content.gravity, bounds: layer.properties.bounds,
            imageWidth: image.width, imageHeight: image.height)
        let toImage = toBounds.concatenating(.translation(-dest.x, -dest.y))
            .concatenating(
                .scale(Double(image.width) / dest.width, Double(image.height) / dest.height))
        fill(
            .rect(dest), .nonZero, .image(ImagePattern(image: image, transform: toImage)),
            into: &surface, clip: clip)
    }
}
