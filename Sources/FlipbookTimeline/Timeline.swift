import FlipbookGeometry
import FlipbookScene

/// The scene as a pure function of time: `frame(at:)` evaluates every animated value at
/// one instant and returns a ``FrameTree``.
///
/// Nothing is carried from one frame to the next, so frames can be evaluated alone, in
/// any order, on any thread. All per-animation work that does not depend on time
/// (decomposing key paths into scalar components, start values) happens once, here.
public struct Timeline: Sendable {
    public let scene: Scene
    /// Layer id → component → its animations.
    private var tracks: [String: [Component: PropertyTrack]] = [:]
    /// Layer id → resolved follow bindings.
    private var follows: [String: [ResolvedFollow]] = [:]
    /// Layer id → model values, for follow sources.
    private var models: [String: LayerProperties] = [:]
    /// Layer id → its vector artwork, for layers whose artwork has no animated value (a
    /// Lottie shape layer that only moves as a whole): evaluated once here, because building
    /// the same nodes again every frame cost more than drawing them (confetti2's 200
    /// ellipses), and handing back the same array lets the renderer's per-id memo
    /// (VectorLayerCache) see that it is unchanged without comparing it.
    private var staticVectors: [String: [VectorNode]] = [:]

    private struct ResolvedFollow: Sendable {
        var component: Component
        var sourceLayer: String
        var sourceComponent: Component
        var binding: FollowBinding
    }

    public init(scene: Scene) {
        self.scene = scene
        for layer in scene.layers {
            layer.forEachLayer { models[$0.id] = $0.properties }
        }
        var entries: [String: [Component: [PropertyTrack.Entry]]] = [:]
        for animation in scene.animations {
            for target in animation.targets {
                guard let model = models[target.layer] else { continue }
                let overall: TimingCurve
                if case .curve(let c) = animation.timing { overall = c } else { overall = .linear }
                for (component, change, discrete) in Self.decompose(
                    target, model: model, overall: overall)
                {
                    let entry = PropertyTrack.Entry(
                        begin: animation.begin, duration: animation.duration,
                        timing: animation.timing,
                        repeatCount: animation.repeatCount, autoreverses: animation.autoreverses,
                        removedOnCompletion: animation.removedOnCompletion,
                        fillsBackwards: animation.fillMode.fillsBackwards, discrete: discrete,
                        change: change)
                    entries[target.layer, default: [:]][component, default: []].append(entry)
                }
            }
        }
        for (id, byComponent) in entries {
            guard let model = models[id] else { continue }
            for (component, list) in byComponent {
                tracks[id, default: [:]][component] = PropertyTrack(
                    base: model[component], entries: list)
            }
        }
        for layer in scene.layers {
            layer.forEachLayer { l in
                let resolved = l.follows.compactMap { b -> ResolvedFollow? in
                    guard let c = PropertyCatalog.components(of: b.component, count: 1)?.first,
                        let s = PropertyCatalog.components(of: b.sourceComponent, count: 1)?.first
                    else { return nil }
                    return ResolvedFollow(
                        component: c, sourceLayer: b.sourceLayer, sourceComponent: s, binding: b)
                }
                if !resolved.isEmpty { follows[l.id] = resolved }
            }
        }
        staticVectors = Self.staticVectors(of: scene.layers)
    }

    /// The artwork of every layer whose vector shape is static, by id; an id that several
    /// layers share is left out (each is evaluated, as before).
    private static func staticVectors(of layers: [Layer]) -> [String: [VectorNode]] {
        var found: [String: [VectorNode]] = [:]
        var seen: Set<String> = []
        var shared: Set<String> = []
        for layer in layers {
            layer.forEachLayer { l in
                if !seen.insert(l.id).inserted { shared.insert(l.id) }
                if case .vector(let shape) = l.content, shape.isStatic {
                    found[l.id] = shape.evaluate(at: 0)
                }
            }
        }
        for id in shared { found[id] = nil }
        return found
    }

    /// The frame tree at `seconds`.
    public func frame(at seconds: Double) -> FrameTree {
        FrameTree(
            seconds: seconds, canvasSize: scene.canvas.size, background: scene.canvas.background,
            snap: scene.canvas.snap,
            layers: evaluate(scene.layers, at: seconds, snap: scene.canvas.snap))
    }

    /// The frame tree that frame `frameIndex` shows (t = frameIndex / fps).
    public func frame(index frameIndex: Int) -> FrameTree {
        frame(at: scene.canvas.seconds(ofFrame: frameIndex))
    }

    /// A layer's evaluated values at `seconds` (outside any replicator's delay), or nil for
    /// an unknown id.
    public func properties(of layerID: String, at seconds: Double) -> LayerProperties? {
        guard var props = models[layerID] else { return nil }
        apply(to: &props, layerID: layerID, at: seconds)
        return props
    }

    private func apply(to props: inout LayerProperties, layerID: String, at seconds: Double) {
        // Most scenes (every Lottie file) have neither: no id hashed for nothing.
        if tracks.isEmpty && follows.isEmpty { return }
        if let byComponent = tracks[layerID] {
            for (component, track) in byComponent {
                props[component] = track.value(at: seconds, base: props[component])
            }
        }
        if let list = follows[layerID] {
            for f in list {
                let input = componentValue(f.sourceLayer, f.sourceComponent, at: seconds, depth: 0)
                props[f.component] = f.binding.output(for: input)
            }
        }
    }

    /// One component's value, following chains of follow maps (the loader refuses cycles;
    /// the depth bound keeps a malformed scene from recursing forever).
    private func componentValue(
        _ layerID: String, _ component: Component, at seconds: Double, depth: Int
    ) -> Double {
        guard let model = models[layerID] else { return 0 }
        if depth < 64, let f = follows[layerID]?.first(where: { $0.component == component }) {
            let input = componentValue(
                f.sourceLayer, f.sourceComponent, at: seconds, depth: depth + 1)
            return f.binding.output(for: input)
        }
        let base = model[component]
        return tracks[layerID]?[component]?.value(at: seconds, base: base) ?? base
    }

    /// Appends the layer's render layer to `result` when it shows at `parentSeconds`.
    /// Borrowing: a layer is never copied whole here (the compiler refuses implicit
    /// copies); and the render layer is built in the array and finished there, not built,
    /// returned and then appended (each a move of a 1 KB value: about 2 % of a small
    /// Lottie frame's time went to those moves).
    private func evaluate(
        _ layer: borrowing Layer, at parentSeconds: Double, snap inherited: SnapMode,
        appendingTo result: inout [RenderLayer]
    ) {
        // A stop request (Ctrl-C) leaves the tree incomplete: whoever asked for it checks
        // the request before using the frame, and discards it.
        if RenderCancellation.shared.isCancelled { return }
        var seconds = parentSeconds
        // Field by field: binding `layer.compositing` copied all of it (its keyframes'
        // arrays retained) for every layer every frame.
        if let range = layer.compositing?.activeRange, !range.contains(parentSeconds) {
            return
        }
        if let timing = layer.compositing?.timing { seconds = timing.localTime(parentSeconds) }
        var props = layer.properties
        apply(to: &props, layerID: layer.id, at: seconds)
        if let opacity = layer.compositing?.transform?.opacity.scalar(at: seconds) {
            props.opacity = opacity
        }
        if props.hidden || props.opacity <= 0 { return }
        // The matrix only for a layer that shows (a Lottie layer faded out is most of some
        // files' frames), with the same values as before.
        let transformOverride = layer.compositing?.transform?.matrix(at: seconds)
        let snap = layer.snap ?? inherited
        let compositing = layer.compositing?.evaluate(at: seconds)
        for effect in compositing?.effects ?? [] {
            // After Effects' drop shadow is CALayer's shadow: a blurred, offset copy beneath.
            // The last one wins (a layer has one shadow; the reader puts a drop-shadow
            // effect after a layer style, as lottie-ios prefers the effect). The renderer
            // reads the spread from the effect itself.
            if case .dropShadow(let color, let offset, let sigma, _) = effect {
                props.shadowColor = Color(red: color.red, green: color.green, blue: color.blue)
                props.shadowOpacity = color.alpha
                // The effect works in the layer's own space, so its offset and blur turn
                // and scale with the layer (After Effects; lottie-ios's snapshots show a
                // layer at 150 % casting a 150 % shadow); a CALayer's shadow properties
                // are in its superlayer's space, so they are carried there.
                let m = transformOverride ?? .identity
                props.shadowOffset = Point(
                    m.a * offset.x + m.c * offset.y, m.b * offset.x + m.d * offset.y)
                props.shadowRadius = sigma * abs(m.determinant).squareRoot()
            }
        }
        // The mask goes straight into what becomes the render layer's mask storage.
        var masks: [RenderLayer] = []
        if let maskLayer = layer.mask {
            evaluate(maskLayer, at: seconds, snap: snap, appendingTo: &masks)
            // A hidden or fully transparent mask lets nothing through (and an inverted
            // matte, everything).
            switch compositing?.maskMode ?? .alpha {
            case .alpha, .luminance: guard !masks.isEmpty else { return }
            case .alphaInverted, .luminanceInverted: break
            }
        }
        let sublayers: [RenderLayer]
        if let replicator = layer.replicator {
            sublayers = instances(of: layer, replicator, props: props, at: seconds, snap: snap)
        } else {
            sublayers = evaluate(layer.sublayers, at: seconds, snap: snap)
        }
        result.append(
            RenderLayer(
                id: layer.id, properties: props, content: layer.content, snap: snap,
                transformOverride: transformOverride, sublayers: sublayers))
        let last = result.count - 1
        result[last].maskStorage = masks
        if case .vector(let shape) = layer.content {
            result[last].vector = staticVectors[layer.id] ?? shape.evaluate(at: seconds)
        }
        result[last].compositing = compositing
    }

    /// The layers that show at `seconds`, in order. The result has its room from the start
    /// (grown as it fills, the large render layers were moved again at each doubling).
    /// Each layer still reaches the callee as a copy (the release build copies
    /// `buffer[i]`, a kilobyte with its fields retained, as a for-in loop would, and an
    /// element pointer's subscript did the same): about 1 % of a small Lottie frame.
    private func evaluate(_ layers: [Layer], at seconds: Double, snap: SnapMode) -> [RenderLayer] {
        var result: [RenderLayer] = []
        result.reserveCapacity(layers.count)
        layers.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                evaluate(buffer[i], at: seconds, snap: snap, appendingTo: &result)
            }
        }
        return result
    }

    /// CAReplicatorLayer: instance k is the template seen k × instanceDelay earlier, moved
    /// by instanceTransform applied k times about the replicator's center, with its alpha
    /// offset by k × instanceAlphaOffset.
    private func instances(
        of layer: Layer, _ replicator: Replicator, props: LayerProperties,
        at seconds: Double, snap: SnapMode
    ) -> [RenderLayer] {
        let step = props.instanceTransform.matrix
        var accumulated = AffineTransform.identity
        var result: [RenderLayer] = []
        for k in 0..<max(replicator.instanceCount, 0) {
            defer { accumulated = accumulated.concatenating(step) }
            let alpha = min(max(1 + Double(k) * props.instanceAlphaOffset, 0), 1)
            guard alpha > 0 else { continue }
            let time = seconds - Double(k) * replicator.instanceDelay
            var container = LayerProperties()
            container.bounds = props.bounds
            container.position = Point(props.bounds.midX, props.bounds.midY)
            container.opacity = alpha
            result.append(
                RenderLayer(
                    id: "\(layer.id)#\(k)", properties: container, content: .none, snap: .none,
                    transformOverride: accumulated,
                    sublayers: evaluate(layer.sublayers, at: time, snap: snap)))
        }
        return result
    }

    /// Splits an animation target into per-component changes.
    private static func decompose(
        _ target: AnimationTarget, model: LayerProperties, overall: TimingCurve
    )
        -> [(Component, PropertyTrack.ComponentChange, Bool)]
    {
        if target.keyPath == "frame" {
            return decomposeFrame(target, model: model, overall: overall)
        }
        guard let info = PropertyCatalog.info(for: target.keyPath) else { return [] }
        let width: Int
        switch target.change {
        case .to(_, let to): width = to.count
        case .keyframes(let values, _, _): width = values.first?.count ?? 0
        }
        guard let components = PropertyCatalog.components(of: target.keyPath, count: width) else {
            return []
        }
        let discrete = info.kind == .bool
        func pick(_ v: [Double], _ j: Int) -> Double {
            v.count == 1 ? v[0] : (j < v.count ? v[j] : 0)
        }
        return components.enumerated().map { j, c in
            switch target.change {
            case .to(let from, let to):
                return (c, .to(from: from.map { pick($0, j) }, to: pick(to, j)), discrete)
            case .keyframes(let values, let keyTimes, let curves):
                return (
                    c,
                    .keyframes(
                        values: values.map { pick($0, j) }, keyTimes: keyTimes,
                        curves: curves, overall: overall), discrete
                )
            }
        }
    }

    /// `frame` [x, y, w, h] → position (from the model anchor point) and bounds size.
    private static func decomposeFrame(
        _ target: AnimationTarget, model: LayerProperties, overall: TimingCurve
    )
        -> [(Component, PropertyTrack.ComponentChange, Bool)]
    {
        let a = model.anchorPoint
        func split(_ r: [Double]) -> [Double] {
            guard r.count == 4 else { return [0, 0, 0, 0] }
            return [r[0] + a.x * r[2], r[1] + a.y * r[3], r[2], r[3]]
        }
        let components: [Component] = [
            .scalar(.positionX), .scalar(.positionY),
            .scalar(.boundsWidth), .scalar(.boundsHeight),
        ]
        return components.enumerated().map { j, c in
            switch target.change {
            case .to(let from, let to):
                return (c, .to(from: from.map { split($0)[j] }, to: split(to)[j]), false)
            case .keyframes(let values, let keyTimes, let curves):
                return (
                    c,
                    .keyframes(
                        values: values.map { split($0)[j] }, keyTimes: keyTimes,
                        curves: curves, overall: overall), false
                )
            }
        }
    }
}
