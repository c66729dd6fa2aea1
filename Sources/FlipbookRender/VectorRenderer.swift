import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// Turns evaluated vector artwork (``VectorNode``s) into ordinary render layers, so that
/// groups, opacity and compositing go through the same drawing code as every layer.
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
/// - Earlier items draw over later ones; a group is a layer with its transform and opacity.
/// - Generated layers carry their shape layer's id (a shared string, no allocation per
///   drawing): nothing matches them by id, reuse between frames compares the artwork.
enum VectorRenderer {
    /// Back-to-front layers for a shape layer's artwork.
    static func layers(_ nodes: [VectorNode], id: String) -> [RenderLayer] {
        var builder = Builder(id: id)
        // Build every scope first, so that outer modifiers have reshaped the inner paths
        // before anything is drawn.
        let root = builder.group(nodes)
        return builder.render(root)
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
    }

    struct GroupResult {
        /// Front to back.
        var items: [Drawn]
        /// Every path of the group and its subgroups, in the group's space.
        var refs: [SlotRef]
    }

    struct Builder {
        let id: String

        mutating func group(_ input: [VectorNode]) -> GroupResult {
            let nodes = Repeaters.expand(input)
            var result = GroupResult(items: [], refs: [])
            for node in nodes {
                switch node {
                case .group(let g):
                    let inner = group(g.nodes)
                    result.refs += inner.refs.map { SlotRef(slot: $0.slot, toScope: $0.toScope.concatenating(g.transform)) }
                    result.items.append(.group(inner, g.transform, g.opacity))
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
            return result
        }

        /// Back-to-front drawings of a finished group (its modifiers all applied): the
        /// items are walked last first, so no array of 900-byte layers is reversed.
        mutating func render(_ g: GroupResult) -> [RenderLayer] {
            var out: [RenderLayer] = []
            out.reserveCapacity(g.items.count)   // growing would move 900-byte layers
            for item in g.items.reversed() {
                switch item {
                case .style(let s):
                    appendDrawing(s, to: &out)
                case .group(let inner, let transform, let opacity):
                    guard opacity > 0 else { continue }
                    if inner.items.count == 1, case .style(let s) = inner.items[0] {
                        // One style (a repeater copy): its drawing takes the group's
                        // transform and opacity, as the folding below would give it.
                        appendDrawing(s, to: &out, transform: transform, opacity: min(opacity, 1))
                        continue
                    }
                    var drawings = render(inner)
                    guard !drawings.isEmpty else { continue }
                    if drawings.count == 1, drawings[0].transformOverride == .identity,
                       drawings[0].properties.opacity == 1 {
                        // One drawing (a repeater copy, a group with one shape): it takes
                        // the group's transform and opacity instead of a wrapping layer.
                        // The same device transform (the identity it drops is exact) and
                        // the same opacity product reach the fill, so the same bytes.
                        drawings[0].transformOverride = transform
                        drawings[0].properties.opacity = min(opacity, 1)
                        out.append(contentsOf: drawings)
                        continue
                    }
                    var props = LayerProperties()
                    props.anchorPoint = .zero
                    props.opacity = min(opacity, 1)
                    out.append(RenderLayer(id: id, properties: props, content: .none, snap: .none,
                                           transformOverride: transform, sublayers: drawings))
                }
            }
            return out
        }

        /// Appends the layer that paints `style` (nothing for an empty path or stroke).
        private mutating func appendDrawing(_ style: PendingStyle, to out: inout [RenderLayer],
                                            transform: AffineTransform = .identity, opacity: Double = 1) {
            var path = Path()
            if style.refs.count == 1, style.refs[0].toScope == .identity {
                path = style.refs[0].slot.path   // one path in its own space: shared, not copied
            } else {
                for ref in style.refs where !ref.slot.path.isEmpty {
                    path.elements += ref.toScope == .identity ? ref.slot.path.elements
                        : ref.slot.path.applying(ref.toScope).elements
                }
            }
            guard !path.isEmpty else { return }
            var props = LayerProperties()
            props.anchorPoint = .zero
            props.opacity = opacity
            props.fillColor = .clear
            var shape = ShapeContent(geometry: .path(path))
            switch style.node {
            case .fill(let paint, let rule):
                shape.fillRule = rule
                (props.fillColor, shape.fillGradient) = Self.paint(paint)
            case .stroke(let paint, let s):
                guard s.width > 0 else { return }
                (props.strokeColor, shape.strokeGradient) = Self.paint(paint)
                props.lineWidth = s.width
                props.miterLimit = s.miterLimit
                shape.lineCap = s.cap
                shape.lineJoin = s.join
                if !s.dashes.isEmpty, s.dashes.contains(where: { $0 > 0 }) {
                    props.lineDashPattern = s.dashes.count % 2 == 1 ? s.dashes + s.dashes : s.dashes
                    props.lineDashPhase = s.dashOffset
                }
            default:
                return
            }
            out.append(RenderLayer(id: id, properties: props, content: .shape(shape), snap: .none,
                                   transformOverride: transform))
        }

        /// The color (or the gradient and the opacity its color's alpha carries).
        private static func paint(_ paint: VectorPaintFrame) -> (Color, ShapeGradient?) {
            switch paint {
            case .solid(let c): return (c, nil)
            case .gradient(let g):
                return (Color(red: 1, green: 1, blue: 1, alpha: g.opacity),
                        ShapeGradient(radial: g.radial, colors: g.colors, locations: g.locations, start: g.start,
                                      end: g.end, focal: g.focal))
            }
        }
    }
}

/// Repeater expansion (see ``VectorRenderer``).
enum Repeaters {
    static func expand(_ nodes: [VectorNode]) -> [VectorNode] {
        guard let index = nodes.firstIndex(where: { if case .repeater = $0 { true } else { false } }),
              case .repeater(let r) = nodes[index] else { return nodes }
        let above = Array(nodes[..<index])
        let below = expand(Array(nodes[(index + 1)...]))
        guard r.copies > 0 else { return below }
        var copies: [VectorNode] = []
        for k in 0..<r.copies {
            let opacity = r.copies > 1
                ? r.startOpacity + (r.endOpacity - r.startOpacity) * Double(k) / Double(r.copies - 1) : r.startOpacity
            copies.append(.group(VectorGroupFrame(nodes: above, transform: matrix(r, steps: Double(k) + r.offset),
                                                  opacity: opacity)))
        }
        // Earlier nodes draw on top: "above" (later copies on top) lists them last first.
        return (r.newerAbove ? copies.reversed() : copies) + below
    }

    /// Copy `steps`'s transform, as lottie-web accumulates it: rotation and scale about
    /// the anchor and the position offset each build up on their own (rotation steps·r,
    /// scale s^steps, translation steps·p), then apply in that order — so copies march
    /// along a straight line while each turns in place. Fractional steps scale by
    /// s + (1 − s)(1 − fraction) for the last part step.
    static func matrix(_ r: VectorRepeaterFrame, steps: Double) -> AffineTransform {
        let whole = min(Int(steps.magnitude.rounded(.down)), 1000)
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
            .concatenating(.translation(r.anchor.x + r.position.x * n, r.anchor.y + r.position.y * n))
        if steps < 0 { m = m.inverted ?? .identity }
        return m
    }
}
