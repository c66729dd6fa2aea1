import FlipbookGeometry
import FlipbookScene

/// Lottie layers → scene layers (see ``LottieReader`` for the mapping).
extension LottieReader {
    /// What a Lottie layer entry says about its place in the composition.
    struct Entry {
        var node: JSONNode
        var type: Int
        var name: String
        var index: Int?
        var parent: Int?
        var inPoint: Double
        var outPoint: Double
        var startTime: Double
        var isMatteSource: Bool
        var matteMode: Int
        var matteParent: Int?
        var hidden: Bool
    }

    static let maximumDepth = 32

    /// Whether the layers built so far (precompositions expanded into copies, parent and
    /// matte containers counted) are within `maxLayers`; past it the file is refused
    /// while it is read, before the tree grows further.
    /// `adding` counts containers about to be built (a parent chain being walked).
    func withinLayerLimit(_ node: JSONNode, adding extra: Int = 0) -> Bool {
        guard builtLayers + extra > limits.maxLayers else { return !overLimit }
        var total = builtLayers + extra
        return count(
            &total, 0, limit: limits.maxLayers, at: node, item: .expandedLayers)
    }

    /// A composition's layers, back to front.
    func composition(_ layersNode: JSONNode, stack: [String]) -> [Layer] {
        guard withinLayerLimit(layersNode) else { return [] }
        guard let list = layersNode.elements else {
            error(layersNode, "expected an array of layers, got \(layersNode.kind)")
            return []
        }
        let entries = list.compactMap(entry)
        var byIndex: [Int: Entry] = [:]
        for e in entries { if let i = e.index { byIndex[i] = e } }
        var result: [Layer] = []
        for (position, e) in entries.enumerated() {
            guard withinLayerLimit(e.node) else { return [] }
            if let p = e.parent, byIndex[p] == nil {
                // Every player draws such a layer as if it had no parent.
                currentLayer = e.name
                warn("parent `\(p)` names no layer in this composition (drawn unparented)")
            }
            guard !e.isMatteSource, !e.hidden, var layer = placed(e, byIndex, stack) else {
                continue
            }
            if e.matteMode > 0 {
                let source: Entry?
                if let tp = e.matteParent {
                    // ThorVG draws the layer without a matte (rlottie hides it).
                    source = byIndex[tp]
                    if source == nil {
                        currentLayer = e.name
                        leaveOut(e.node["tp"], "no layer in this composition has `ind` \(tp)")
                    }
                } else {
                    source =
                        position > 0 && entries[position - 1].isMatteSource
                        ? entries[position - 1] : nil
                }
                if let source, let matte = placed(source, byIndex, stack) {
                    let modes: [Int: MaskMode] = [
                        1: .alpha, 2: .alphaInverted, 3: .luminance, 4: .luminanceInverted,
                    ]
                    var container = Layer(
                        id: uniqueID("\(e.name) matte"), sublayers: [layer], mask: matte)
                    container.compositing = LayerCompositing(maskMode: modes[e.matteMode] ?? .alpha)
                    layer = container
                } else if source == nil && e.matteParent == nil {
                    currentLayer = e.name
                    warn("track matte without a matte layer")
                }
            }
            result.append(layer)
        }
        return result.reversed()
    }

    /// A layer entry; nil, with a warning, for one players pass over: not an object (ThorVG
    /// draws the file without it), without a type (rlottie leaves it out; ThorVG draws it as
    /// a shape layer) or without in and out points (ThorVG leaves it out; rlottie draws it
    /// throughout). An index, parent or matte field that is not an integer is ignored with a
    /// warning (ThorVG draws the layer).
    private func entry(_ node: JSONNode) -> Entry? {
        currentLayer = node["nm"].string ?? node.path
        guard node.isObject else {
            leaveOut(node, "expected a layer object, got \(node.kind)")
            return nil
        }
        guard node["ty"].exists else {
            leaveOut(node, "missing the layer type `ty`")
            return nil
        }
        guard let type = tolerating("left out", { integer(node["ty"], "the layer type `ty`") })
        else { return nil }
        func field(_ key: String, _ what: String) -> Int? {
            tolerating("ignored") { integer(node[key], what) }
        }
        let index = field("ind", "the layer index `ind`")
        let parent = field("parent", "the parent's index `parent`")
        let matteMode = field("tt", "the track matte mode `tt`")
        let matteParent = field("tp", "the matte layer's index `tp`")
        let name = node["nm"].string ?? "layer \(index.map(String.init) ?? "?")"
        currentLayer = name
        guard let ip = tolerating("left out", { number(node["ip"]) }),
            let op = tolerating("left out", { number(node["op"]) })
        else {
            let missing = ["ip", "op"].filter { !node[$0].exists }.map { "`\($0)`" }
            if !missing.isEmpty { leaveOut(node, "missing " + missing.joined(separator: " and ")) }
            return nil
        }
        return Entry(
            node: node, type: type, name: name, index: index, parent: parent, inPoint: ip,
            outPoint: op,
            startTime: node["st"].number ?? 0, isMatteSource: node["td"].bool ?? false,
            matteMode: matteMode ?? 0, matteParent: matteParent, hidden: node["hd"].bool ?? false)
    }

    /// The layer wrapped in containers carrying its parents' transforms, outermost first;
    /// nil for layers that draw nothing (nulls, cameras, audio).
    private func placed(_ e: Entry, _ byIndex: [Int: Entry], _ stack: [String]) -> Layer? {
        var chain: [Entry] = []
        var seen: Set<Int> = e.index.map { [$0] } ?? []
        var next = e.parent
        while let p = next, let parent = byIndex[p] {
            // Each parent becomes a container: a long chain counts against `maxLayers`
            // as it is walked, so chains of thousands stay linear until refused.
            guard withinLayerLimit(e.node, adding: chain.count + 1) else { return nil }
            guard !seen.contains(p) else {
                error(e.node["parent"], "the parent chain of layer `\(e.name)` loops")
                return nil
            }
            seen.insert(p)
            chain.append(parent)
            next = parent.parent
        }
        guard var layer = owner(e, stack: stack) else { return nil }
        for parent in chain {
            currentLayer = parent.name
            var container = Layer(
                id: uniqueID("\(parent.name) (parent of \(e.name))"), sublayers: [layer])
            var transform = keyframedTransform(
                parent.node["ks"], autoOrient: parent.node["ao"].bool ?? false)
            transform.opacity = .constant([1])
            container.compositing = LayerCompositing(transform: transform)
            layer = container
        }
        return layer
    }

    /// The layer itself: transform, range, masks, effects, blend mode and content.
    ///
    /// A layer's own values are keyed on its composition's frames: its start time `st`
    /// shifts only what a precomposition shows (rlottie, ThorVG and lottie-ios agree;
    /// the exporter writes keyframes in composition time).
    private func owner(_ e: Entry, stack: [String]) -> Layer? {
        currentLayer = e.name
        let node = e.node
        if node["ddd"].bool == true { warn("3D layer (drawn flat)") }
        switch e.type {
        case 0, 1, 2, 4, 5: break
        case 3: return nil
        case 13: warn("camera"); return nil
        // Audio, video, placeholders, guides, adjustment layers, lights and data draw nothing.
        case 6...15: return nil
        default: warn("unknown layer type \(e.type) (skipped)"); return nil
        }
        // A layer that ends before it starts never shows.
        guard e.outPoint > e.inPoint else { return nil }
        var layer = Layer(id: uniqueID(e.name))
        let speed = node["sr"].number.flatMap { $0 > 0 ? $0 : nil } ?? 1
        // Core Animation keeps a layer visible in the last frame visible through the end
        // instant itself (lottie-ios, CoreAnimation/Animations/VisibilityAnimation.swift:
        // an out point at the animation's end becomes progress 1), which a player paused at
        // the end shows (``Canvas/pausedEndIsEndInstant``). In a precomposition the end
        // is mapped into its frames (``endFrame``), as lottie-ios maps the out point.
        let end =
            coreAnimation && e.outPoint >= endFrame - 1e-9
            ? Double.infinity : e.outPoint / frameRate
        var compositing = LayerCompositing(
            transform: keyframedTransform(node["ks"], autoOrient: node["ao"].bool ?? false),
            activeRange: e.inPoint / frameRate..<end)
        compositing.masks = masks(node["masksProperties"])
        // A style's shadow first: the timeline keeps the last shadow, and lottie-ios
        // prefers the drop-shadow effect when a layer has both.
        compositing.effects = styles(node["sy"]) + effects(node["ef"])
        compositing.blendMode = blendMode(node["bm"])
        if node["hasMask"].bool == true && compositing.masks.isEmpty {
            warn("mask without mask paths")
        }
        layer.compositing = compositing
        switch e.type {
        case 0:
            guard let content = precomp(e, speed: speed, stack: stack) else { return nil }
            layer.sublayers = content
        case 1:
            var solid = Layer(id: uniqueID("\(e.name) solid"))
            solid.properties.bounds = Rect(0, 0, node["sw"].number ?? 0, node["sh"].number ?? 0)
            solid.properties.anchorPoint = .zero
            solid.properties.backgroundColor = hexColor(node["sc"]) ?? .clear
            layer.sublayers = [solid]
        case 2:
            if let image = imageLayer(e) { layer.sublayers = [image] }
        case 4:
            layer.content = .vector(VectorShape(items: shapeItems(node["shapes"])))
        case 5:
            layer.sublayers = textLayers(e)
        default:
            break
        }
        return layer
    }

    /// The precomposition's layers in their clock and clip; nil when the layer is skipped.
    private func precomp(_ e: Entry, speed: Double, stack: [String]) -> [Layer]? {
        let node = e.node
        // A precomposition without its asset is skipped, as the players skip it.
        guard let ref = node["refId"].string else {
            warn("precomposition without `refId` (skipped)")
            return nil
        }
        guard let asset = assetNodes[ref], asset["layers"].exists else {
            warn("precomposition `\(ref)` names no asset (skipped)")
            return nil
        }
        guard !stack.contains(ref) else {
            error(
                node["refId"],
                "precomposition `\(ref)` contains itself (\((stack + [ref]).joined(separator: " → ")))"
            )
            return []
        }
        guard stack.count < Self.maximumDepth else {
            error(node["refId"], "precompositions nest more than \(Self.maximumDepth) deep")
            return []
        }
        var remap: AnimatedValue?
        if node["tm"].exists { remap = animated(node["tm"], "a time in seconds") }
        // The precomposition's frame: time-remapped (`tm`, seconds, keyed on the
        // composition's frames), else (frame − st) / sr.
        var clock = Layer(id: uniqueID("\(e.name) time"))
        clock.compositing = LayerCompositing(
            timing: remap == nil
                ? LayerTiming(beginTime: e.startTime / frameRate, speed: 1 / speed)
                : LayerTiming(remap: remap))
        let saved = (currentLayer, endFrame)
        // Parent frame F shows precomposition frame (F − st) / sr.
        endFrame = remap == nil ? (endFrame - e.startTime) / speed : .infinity
        clock.sublayers = composition(asset["layers"], stack: stack + [ref])
        (currentLayer, endFrame) = saved
        let w = node["w"].number ?? asset["w"].number ?? 0,
            h = node["h"].number ?? asset["h"].number ?? 0
        guard w > 0, h > 0 else { return [clock] }
        var clip = Layer(id: uniqueID("\(e.name) clip"), sublayers: [clock])
        clip.properties.bounds = Rect(0, 0, w, h)
        clip.properties.anchorPoint = .zero
        clip.properties.masksToBounds = true
        return [clip]
    }

    /// `ks`: anchor `a`, position `p` (or split `x`/`y`), scale `s` (%), rotation `r`
    /// (or `rz`), opacity `o` (%), skew `sk`, skew axis `sa`.
    func keyframedTransform(_ ks: JSONNode, autoOrient: Bool) -> KeyframedTransform {
        var t = KeyframedTransform(autoOrient: autoOrient)
        guard ks.exists else { return t }
        t.anchor = animated(ks["a"], "an anchor point [x, y]", default: [0, 0]) ?? t.anchor
        let p = ks["p"]
        if p["s"].bool == true || (p["x"].isObject && p["y"].isObject) {
            t.positionX = animated(p["x"], "a position x", default: [0])
            t.positionY = animated(p["y"], "a position y", default: [0])
        } else {
            t.position = animated(p, "a position [x, y]", default: [0, 0]) ?? t.position
        }
        if coreAnimation {
            // lottie-ios's Core Animation engine gives only `position` a CGPath built from
            // the spatial tangents and animates it in the linear calculation mode, which
            // moves by the curve's parameter; every other value gets plain `values`
            // (Sources/Private/CoreAnimation/Animations/CALayer+addAnimation.swift).
            t.position = Self.spatial(t.position) { $0.spatialByParameter = true }
            t.anchor = Self.spatial(t.anchor) {
                $0.outTangent = nil; $0.inTangent = nil
            }
        }
        t.scale =
            animated(ks["s"], "a scale [x, y] in percent", default: [100, 100]) {
                $0.map { $0 / 100 }
            } ?? t.scale
        let rotation = ks["r"].exists ? ks["r"] : ks["rz"]
        t.rotation = animated(rotation, "a rotation in degrees", default: [0]) ?? t.rotation
        if ks["rx"].exists || ks["ry"].exists || ks["or"].exists { warn("3D rotation") }
        t.opacity =
            animated(ks["o"], "an opacity in percent", default: [100]) { $0.map { $0 / 100 } }
            ?? t.opacity
        t.skew = animated(ks["sk"], "a skew in degrees", default: [0]) ?? t.skew
        t.skewAxis = animated(ks["sa"], "a skew axis in degrees", default: [0]) ?? t.skewAxis
        return t
    }

    /// The value with `change` applied to each keyframe.
    static func spatial(_ value: AnimatedValue, _ change: (inout Keyframe) -> Void) -> AnimatedValue
    {
        guard case .keyframes(var list) = value else { return value }
        for i in list.indices { change(&list[i]) }
        return .keyframes(list)
    }

    private func masks(_ node: JSONNode) -> [VectorMask] {
        guard let list = node.elements else { return [] }
        let modes: [String: VectorMask.Mode] = [
            "a": .add, "s": .subtract, "i": .intersect, "l": .lighten,
            "d": .darken, "f": .difference, "n": .none,
        ]
        return list.compactMap { m in
            let modeName = m["mode"].string ?? "a"
            guard let mode = modes[modeName] else {
                // ThorVG draws the layer without such a mask.
                leaveOut(
                    m["mode"], "expected a mask mode (a, s, i, l, d, f or n), got \(m["mode"].kind)"
                )
                return nil
            }
            guard let path = animatedPath(m["pt"]) else { return nil }
            var mask = VectorMask(mode: mode, path: path, inverted: m["inv"].bool ?? false)
            mask.opacity =
                animated(m["o"], "a mask opacity in percent", default: [100]) {
                    $0.map { $0 / 100 }
                }
                ?? mask.opacity
            mask.expansion = animated(m["x"], "a mask expansion", default: [0]) ?? mask.expansion
            if m["f"].exists {
                mask.feather = animated(m["f"], "a mask feather", default: [0, 0]) ?? mask.feather
            }
            return mask
        }
    }

    private func blendMode(_ node: JSONNode) -> BlendMode {
        let modes: [BlendMode] = [
            .normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
            .hardLight, .softLight, .difference, .exclusion, .hue, .saturation, .color,
            .luminosity,
        ]
        guard
            let i = tolerating("drawn with the default, 0", { integer(node, "a blend mode `bm`") })
        else { return .normal }
        if i >= 0 && i < modes.count { return modes[i] }
        warn("blend mode \(i)")
        return .normal
    }

    /// `#rrggbb` (solid layers' `sc`).
    func hexColor(_ node: JSONNode) -> Color? {
        guard var text = node.string, !text.isEmpty else { return nil }
        if text.hasPrefix("#") { text.removeFirst() }
        guard text.count == 6 || text.count == 8, var color = Color(hexDigits: text) else {
            error(node, "expected a color like #rrggbb, got \(node.kind)")
            return nil
        }
        color.alpha = 1  // of #rrggbbaa only the colour counts: the alpha byte is ignored
        return color
    }
}
