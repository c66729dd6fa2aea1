import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Turns evaluated vector artwork (``VectorNode``s) into what the frame renderer draws:
/// ``VectorDrawing``s painted as the shape layers they stand for, and render layers for
/// groups that need one, so that groups, opacity and compositing go through the same
/// drawing code as every layer.
///
/// Rules (After Effects' shape stack, as lottie-web applies it):
/// - A repeater replaces the items above it in its group by `copies` groups, copy k
///   turned by (k + offset)·rotation and scaled by scale^(k + offset) about the anchor,
///   then moved by (k + offset)·position (see ``Repeaters/matrix(_:steps:)``), its
///   opacity stepping from the start to the end opacity; "above" puts later copies on top.
/// - Paths collect in their group; a nested group's paths join the enclosing scopes
///   through the group's transform.
/// - A modifier (trim, round corners, pucker/bloat, zig-zag, offset) reshapes every path
///   collected before it in its group, subgroups included, in each path's own space;
///   modifiers apply innermost and nearest first. Trim "individually" measures all those
///   paths as one length; "simultaneously" trims each path on its own.
/// - A fill or stroke paints every path collected before it, with its final geometry
///   (modifiers below it still apply, as lottie-web does).
/// - Earlier items draw over later ones; a group of several drawings is a layer with its
///   transform and opacity (translucent, it is flattened as a group); a group of one
///   drawing composes its transform and opacity into the drawing.
/// - Generated layers carry their shape layer's id (a shared string, no allocation per
///   drawing): nothing matches them by id, reuse between frames compares the artwork.
enum VectorRenderer {
    /// What a shape layer's artwork draws, back to front.
    static func artwork(_ nodes: [VectorNode], id: String) -> Artwork {
        var builder = Builder(id: id)
        // Build every scope first, so that outer modifiers have reshaped the inner paths
        // before anything is drawn.
        let root = builder.group(nodes)
        return Artwork(builder.render(root), id: id)
    }

    /// A generated drawing, or a layer for a group that needs one (boxed: the enum is as
    /// large as its largest case, and drawings are moved far more often).
    enum Generated {
        case drawing(VectorDrawing)
        indirect case layer(RenderLayer)
    }

    /// Back-to-front drawings of artwork (or of a group): drawings only when nothing
    /// needed a layer, else all of them as layers (drawings draw beneath all sublayers, so
    /// a mix cannot keep its order otherwise).
    struct Artwork {
        private(set) var drawings: [VectorDrawing] = []
        private(set) var layers: [RenderLayer] = []
        /// `drawings` as a layer's attachment (``RenderLayer/drawings``), made once: the
        /// artwork is remembered between frames (``VectorLayerCache``), and a layer given it
        /// every frame allocated a new one.
        private(set) var attachment: VectorDrawings?

        init(_ generated: [Generated], id: String) {
            drawings.reserveCapacity(generated.count)
            for item in generated {
                guard case .drawing(let d) = item else {
                    drawings = []
                    layers = generated.map { Self.layer($0, id: id) }
                    return
                }
                drawings.append(d)
            }
            if !drawings.isEmpty { attachment = VectorDrawings(drawings) }
        }

        /// The shape layer a drawing stands for.
        static func layer(_ item: Generated, id: String) -> RenderLayer {
            switch item {
            case .layer(let l): return l
            case .drawing(let d):
                var props = LayerProperties()
                props.anchorPoint = .zero
                props.opacity = d.opacity
                d.style.apply(to: &props)
                return RenderLayer(
                    id: id, properties: props, content: .shape(d.shape), snap: .none,
                    transformOverride: d.transform)
            }
        }
    }

    /// A path and the transform from its own space into the scope that sees it.
    struct SlotRef {
        let slot: PathSlot
        let toScope: AffineTransform
    }

    final class PathSlot {
        var path: Path
        init(_ path: Path) { self.path = path }
    }

    /// A style waiting for its paths' final geometry.
    struct PendingStyle {
        var node: VectorNode
        var refs: [SlotRef]
    }

    enum Drawn {
        case style(PendingStyle)
        case group(GroupResult, AffineTransform, Double)
        /// A repeater's copies sharing one built scope: each placement is a group of it
        /// with that transform and opacity, front to back.
        case copies(GroupResult, [(transform: AffineTransform, opacity: Double)])
    }

    struct GroupResult {
        /// Front to back.
        var items: [Drawn]
        /// Every path of the group and its subgroups, in the group's space.
        var refs: [SlotRef]
    }

    struct Builder {
        let id: String

        /// The scope of `input`. `reshapedLater` says whether a modifier after this scope
        /// (in an enclosing one) may still reshape its paths.
        mutating func group(_ input: [VectorNode], reshapedLater: Bool = false) -> GroupResult {
            var result = GroupResult(items: [], refs: [])
            add(
                input[...], reshapedLater: reshapedLater || input.contains(where: Self.isModifier),
                to: &result)
            return result
        }

        /// Adds `nodes` to a scope. A repeater replaces the nodes above it by its copies
        /// (see ``Repeaters``); when no modifier can reach the copies' paths afterwards,
        /// they share one built scope (its paths are only read from then on), instead of
        /// each building the same groups, paths and styles again.
        private mutating func add(
            _ nodes: ArraySlice<VectorNode>, reshapedLater: Bool, to result: inout GroupResult
        ) {
            if let index = nodes.firstIndex(where: {
                if case .repeater = $0 { true } else { false }
            }),
                case .repeater(let r) = nodes[index]
            {
                let above = Array(nodes[nodes.startIndex..<index])
                if r.copies > 0 {
                    let placements =
                        (r.newerAbove ? Array((0..<r.copies).reversed()) : Array(0..<r.copies)).map
                    { k in
                        (
                            transform: Repeaters.matrix(r, steps: Double(k) + r.offset),
                            opacity: r.copies > 1
                                ? r.startOpacity + (r.endOpacity - r.startOpacity) * Double(k)
                                    / Double(r.copies - 1)
                                : r.startOpacity
                        )
                    }
                    if reshapedLater {
                        for p in placements {
                            append(
                                group(above, reshapedLater: true), transform: p.transform,
                                opacity: p.opacity,
                                to: &result)
                        }
                    } else {
                        let shared = group(above)
                        for p in placements {
                            appendRefs(shared, transform: p.transform, to: &result)
                        }
                        result.items.append(.copies(shared, placements))
                    }
                }
                add(nodes[(index + 1)...], reshapedLater: reshapedLater, to: &result)
                return
            }
            for node in nodes {
                switch node {
                case .group(let g):
                    append(
                        group(g.nodes, reshapedLater: reshapedLater), transform: g.transform,
                        opacity: g.opacity,
                        to: &result)
                case .path(let p):
                    result.refs.append(SlotRef(slot: PathSlot(p), toScope: .identity))
                case .fill, .stroke:
                    result.items.append(.style(PendingStyle(node: node, refs: result.refs)))
                case .repeater, .merge:
                    break
                default:
                    PathModifiers.apply(node, to: result.refs)
                }
            }
        }

        /// Adds a built subgroup: its paths join the scope through its transform.
        private func append(
            _ inner: GroupResult, transform: AffineTransform, opacity: Double,
            to result: inout GroupResult
        ) {
            appendRefs(inner, transform: transform, to: &result)
            result.items.append(.group(inner, transform, opacity))
        }

        private func appendRefs(
            _ inner: GroupResult, transform: AffineTransform, to result: inout GroupResult
        ) {
            for ref in inner.refs {
                result.refs.append(
                    SlotRef(slot: ref.slot, toScope: ref.toScope.concatenating(transform)))
            }
        }

        /// Whether a node reshapes the paths collected before it.
        private static func isModifier(_ node: VectorNode) -> Bool {
            switch node {
            case .group, .path, .fill, .stroke, .repeater, .merge: false
            case .trim, .roundCorners, .offsetPath, .puckerBloat, .zigZag, .twist: true
            }
        }

        /// Back-to-front drawings of a finished group (its modifiers all applied): the
        /// items are walked last first, so nothing is reversed.
        mutating func render(_ g: GroupResult) -> [Generated] {
            var out: [Generated] = []
            out.reserveCapacity(g.items.count)
            for item in g.items.reversed() {
                switch item {
                case .style(let s):
                    if let d = drawing(s) { out.append(.drawing(d)) }
                case .group(let inner, let transform, let opacity):
                    place(inner, rendered: nil, transform: transform, opacity: opacity, into: &out)
                case .copies(let inner, let placements):
                    // Rendered once for all copies: their drawings differ only in where
                    // they are placed, and share what they draw.
                    let rendered = render(inner)
                    for p in placements.reversed() {
                        place(
                            inner, rendered: rendered, transform: p.transform, opacity: p.opacity,
                            into: &out)
                    }
                }
            }
            return out
        }

        /// Appends a group of `inner` (already rendered, or rendered here) with the
        /// group's transform and opacity.
        private mutating func place(
            _ inner: GroupResult, rendered: [Generated]?, transform: AffineTransform,
            opacity: Double, into out: inout [Generated]
        ) {
            guard opacity > 0 else { return }
            if rendered == nil, inner.items.count == 1, case .style(let s) = inner.items[0] {
                // One style (a repeater copy): its drawing takes the group's transform and
                // opacity, as the folding below would give it.
                if let d = drawing(s, transform: transform, opacity: min(opacity, 1)) {
                    out.append(.drawing(d))
                }
                return
            }
            let drawn = rendered ?? render(inner)
            guard !drawn.isEmpty else { return }
            // One drawing (a group with one shape, a repeater copy of one): it takes the
            // group's transform and opacity, composed with its own, instead of a wrapping
            // layer: a wrapper of one drawing would paint it with the product of the
            // opacities and the composed transform anyway (up to the rounding of the
            // composition's order). One layer whose transform and opacity are still the
            // identity and 1 takes the group's (exactly the same values).
            if drawn.count == 1 {
                switch drawn[0] {
                case .drawing(var d):
                    d.transform = d.transform.concatenating(transform)
                    d.opacity *= min(opacity, 1)
                    out.append(.drawing(d))
                    return
                case .layer(var l)
                where l.transformOverride == .identity && l.properties.opacity == 1:
                    l.transformOverride = transform
                    l.properties.opacity = min(opacity, 1)
                    out.append(.layer(l))
                    return
                default:
                    break
                }
            }
            var props = LayerProperties()
            props.anchorPoint = .zero
            props.opacity = min(opacity, 1)
            var wrapper = RenderLayer(
                id: id, properties: props, content: .none, snap: .none, transformOverride: transform
            )
            let artwork = Artwork(drawn, id: id)
            wrapper.attachment = artwork.attachment
            wrapper.sublayers = artwork.layers
            out.append(.layer(wrapper))
        }

        /// The drawing that paints `style` (nil for an empty path or stroke).
        private func drawing(
            _ style: PendingStyle, transform: AffineTransform = .identity,
            opacity: Double = 1
        ) -> VectorDrawing? {
            var path = Path()
            if style.refs.count == 1, style.refs[0].toScope == .identity {
                path = style.refs[0].slot.path  // one path in its own space: shared, not copied
            } else {
                for ref in style.refs where !ref.slot.path.isEmpty {
                    path.elements +=
                        ref.toScope == .identity
                        ? ref.slot.path.elements
                        : ref.slot.path.applying(ref.toScope).elements
                }
            }
            guard !path.isEmpty else { return nil }
            var look = ShapeStyle()
            var shape = ShapeContent(geometry: .path(path))
            switch style.node {
            case .fill(let paint, let rule):
                shape.fillRule = rule
                (look.fillColor, shape.fillGradient) = Self.paint(paint)
            case .stroke(let paint, let s):
                guard s.width > 0 else { return nil }
                (look.strokeColor, shape.strokeGradient) = Self.paint(paint)
                look.lineWidth = s.width
                look.miterLimit = s.miterLimit
                shape.lineCap = s.cap
                shape.lineJoin = s.join
                if !s.dashes.isEmpty, s.dashes.contains(where: { $0 > 0 }) {
                    look.lineDashPattern = s.dashes.count % 2 == 1 ? s.dashes + s.dashes : s.dashes
                    look.lineDashPhase = s.dashOffset
                }
            default:
                return nil
            }
            return VectorDrawing(shape: shape, style: look, transform: transform, opacity: opacity)
        }

        /// The color (or the gradient and the opacity its color's alpha carries).
        private static func paint(_ paint: VectorPaintFrame) -> (Color, ShapeGradient?) {
            switch paint {
            case .solid(let c): return (c, nil)
            case .gradient(let g):
                return (
                    Color(red: 1, green: 1, blue: 1, alpha: g.opacity),
                    ShapeGradient(
                        radial: g.radial, colors: g.colors, locations: g.locations, start: g.start,
                        end: g.end, focal: g.focal)
                )
            }
        }
    }
}

/// A repeater copy's transform (see ``VectorRenderer``).
enum Repeaters {
    /// Copy `steps`'s transform, as lottie-web accumulates it: rotation and scale about
    /// the anchor and the position offset each build up on their own (rotation steps·r,
    /// scale s^steps, translation steps·p), then apply in that order — so copies march
    /// along a straight line while each turns in place. Fractional steps scale by
    /// s + (1 − s)(1 − fraction) for the last part step.
    static func matrix(_ r: VectorRepeaterFrame, steps: Double) -> AffineTransform {
        // Compared before converting: an offset of 1e20 steps is past Int (NaN is 1000 steps
        // of NaN, drawn nowhere).
        let whole = steps.magnitude < 1000 ? Int(steps.magnitude.rounded(.down)) : 1000
        let fraction = steps.magnitude - Double(whole)
        var sx = 1.0, sy = 1.0
        for _ in 0..<whole { sx *= r.scale.x; sy *= r.scale.y }
        if fraction > 0 {
            sx *= r.scale.x + (1 - r.scale.x) * (1 - fraction)
            sy *= r.scale.y + (1 - r.scale.y) * (1 - fraction)
        }
        let n = steps.magnitude
        var m = AffineTransform.translation(-r.anchor.x, -r.anchor.y)
            .concatenating(.rotation(degrees: r.rotation * n))
            .concatenating(.scale(sx, sy))
            .concatenating(
                .translation(r.anchor.x + r.position.x * n, r.anchor.y + r.position.y * n))
        if steps < 0 { m = m.inverted ?? .identity }
        return m
    }
}
