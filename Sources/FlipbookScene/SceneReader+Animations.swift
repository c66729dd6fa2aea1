import FlipbookGeometry
import Yams

/// The `animations` list: UIView.animate `set:` blocks, from/to animations and keyframe
/// animations, with their timing.
extension SceneReader {
    static let timingKeys = [
        "at", "duration", "curve", "spring", "repeat", "autoreverse",
        "removedOnCompletion", "fillMode",
    ]
    static let animationKeys =
        timingKeys + ["set", "layer", "keyPath", "from", "to", "values", "keyTimes", "curves"]
    static let springKeys = ["dampingRatio", "initialVelocity", "mass", "stiffness", "damping"]

    func readAnimations(_ node: Node) -> [Animation] {
        if node.null != nil { return [] }
        guard let items = node.sequence else {
            error(node, "animations", "expected a list of animations, got \(describe(node))")
            return []
        }
        return items.enumerated().compactMap { readAnimation($1, "animations[\($0)]") }
    }

    private func readAnimation(_ node: Node, _ path: String) -> Animation? {
        guard let f = fields(node, path, known: Self.animationKeys, what: "an animation mapping")
        else { return nil }
        let forms = [f.has("set"), f.has("to") || f.has("from"), f.has("values")]
        guard forms.filter({ $0 }).count == 1 else {
            let problem = forms.contains(true) ? "has more than one of" : "needs one of"
            error(node, path, "an animation \(problem) `set`, `from`/`to` and `values`")
            return nil
        }
        for key in ["layer", "keyPath"] where forms[0] && f.has(key) {
            error(
                f[key], f.path(key),
                "`\(key)` does not belong in a `set:` animation; write `layer.keyPath: value` inside `set`"
            )
        }
        for key in ["keyTimes", "curves"] where !forms[2] && f.has(key) {
            error(f[key], f.path(key), "`\(key)` belongs to keyframe animations (with `values`)")
        }
        var animation = Animation(duration: 0, targets: [], line: node.mark?.line)
        let isKeyframes = forms[2]
        if isKeyframes, let n = f["spring"] {
            // CAKeyframeAnimation has no spring timing; silently running it linearly would
            // hide the mistake.
            error(
                n, f.path("spring"),
                "a keyframe animation (with `values`) is timed by `curve` and `curves`; "
                    + "springs belong to `set:` and from/to animations")
        }
        readTiming(f, &animation, defaultCurve: isKeyframes ? .linear : .easeInEaseOut)
        if forms[0] {
            animation.targets = readSet(f["set"]!, f.path("set"))
        } else if let layer = f["layer"].flatMap({ string($0, f.path("layer")) }),
            let keyPath = f["keyPath"].flatMap({ string($0, f.path("keyPath")) }),
            checkTarget(
                layer, f["layer"]!, f.path("layer"), keyPath, f["keyPath"]!, f.path("keyPath"))
        {
            let line = node.mark?.line
            animation.targets =
                isKeyframes
                ? readKeyframes(f, layer, keyPath, line)
                : readFromTo(f, layer, keyPath, line)
        } else {
            require("layer", "keyPath", in: f)
        }
        return animation
    }

    /// at, duration, curve or spring, repeat, autoreverse, removedOnCompletion, fillMode.
    private func readTiming(_ f: Fields, _ a: inout Animation, defaultCurve: TimingCurve) {
        if let n = f["at"], let v = number(n, f.path("at")) { a.begin = v }
        var duration: Double?
        if let n = f["duration"] { duration = nonNegative(n, f.path("duration")) }
        a.timing = .curve(defaultCurve)
        if let n = f["curve"], let c = curve(n, f.path("curve")) { a.timing = .curve(c) }
        if let n = f["spring"] {
            if f.has("curve") {
                error(n, f.path("spring"), "an animation has a `curve` or a `spring`, not both")
            }
            if let (spring, settles) = readSpring(
                n, f.path("spring"), duration: duration, given: f.has("duration"))
            {
                a.timing = .spring(spring)
                // CASpringAnimation runs until the motion settles unless told otherwise.
                if settles, duration == nil { duration = spring.settlingDuration }
            }
        }
        let uiKitSpring = f["spring"]?.mapping?["dampingRatio"] != nil
        if let duration {
            a.duration = duration
        } else if !f.has("duration"), !uiKitSpring {
            require("duration", in: f)
        }
        if let n = f["repeat"] {
            // Core Animation plays a repeatCount of 0 once, like 1.
            if let v = rawNumber(n), !v.isNaN, v >= 0 {
                a.repeatCount = v == 0 ? 1 : v
            } else {
                error(
                    n, f.path("repeat"),
                    "expected a repeat count of 0 or more, or `infinity`, got \(describe(n))")
            }
        }
        if let n = f["autoreverse"], let v = bool(n, f.path("autoreverse")) { a.autoreverses = v }
        if let n = f["removedOnCompletion"], let v = bool(n, f.path("removedOnCompletion")) {
            a.removedOnCompletion = v
        }
        if let n = f["fillMode"],
            let v = choice(n, f.path("fillMode"), [FillMode.removed, .forwards, .backwards, .both])
        {
            a.fillMode = v
        }
    }

    /// A named curve or `[x1, y1, x2, y2]`.
    func curve(_ node: Node, _ path: String) -> TimingCurve? {
        if node.sequence != nil {
            guard let v = numbers(node, path, count: 4, shape: "a curve name or [x1, y1, x2, y2]")
            else { return nil }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                error(node, path, "the control points' x values must lie in 0…1")
                return nil
            }
            return TimingCurve(v[0], v[1], v[2], v[3])
        }
        guard let name = string(node, path) else { return nil }
        if let c = TimingCurve.named[name] { return c }
        let names = TimingCurve.named.keys.sorted()
        // CSS and SwiftUI spell it easeInOut; edit distance would point at easeOut.
        let hint =
            name.lowercased() == "easeinout"
            ? "; did you mean `easeInEaseOut`?" : Suggestions.hint(for: name, in: names)
        error(
            node, path,
            "unknown curve `\(name)`; expected one of "
                + names.map { "`\($0)`" }.joined(separator: ", ")
                + " or [x1, y1, x2, y2]" + hint)
        return nil
    }

    /// UIKit's `{ dampingRatio, initialVelocity }` (needs the duration) or
    /// CASpringAnimation's `{ mass, stiffness, damping, initialVelocity }`; the flag is
    /// true for the latter, whose duration defaults to the settling time.
    private func readSpring(_ node: Node, _ path: String, duration: Double?, given: Bool) -> (
        Spring, Bool
    )? {
        guard let f = fields(node, path, known: Self.springKeys) else { return nil }
        var velocity = 0.0
        if let n = f["initialVelocity"], let v = number(n, f.path("initialVelocity")) {
            velocity = v
        }
        if let n = f["dampingRatio"] {
            for key in ["mass", "stiffness", "damping"] where f.has(key) {
                error(
                    f[key], f.path(key),
                    "`\(key)` belongs to the CASpringAnimation form; UIKit's form has `dampingRatio` and `initialVelocity`"
                )
            }
            guard let ratio = number(n, f.path("dampingRatio")) else { return nil }
            guard let duration else {
                if !given {
                    error(node, path, "a `dampingRatio` spring needs the animation's `duration`")
                }
                return nil
            }
            return (
                Spring.uiKit(duration: duration, dampingRatio: ratio, initialVelocity: velocity),
                false
            )
        }
        var spring = Spring(initialVelocity: velocity)
        if let n = f["mass"], let v = positive(n, f.path("mass")) { spring.mass = v }
        if let n = f["stiffness"], let v = positive(n, f.path("stiffness")) { spring.stiffness = v }
        if let n = f["damping"], let v = nonNegative(n, f.path("damping")) { spring.damping = v }
        return (spring, true)
    }

    /// `set:` entries `layerId.keyPath: value`, split at the first dot.
    private func readSet(_ node: Node, _ path: String) -> [AnimationTarget] {
        guard let mapping = node.mapping else {
            error(
                node, path, "expected a mapping of `layerId.keyPath: value`, got \(describe(node))")
            return []
        }
        var targets: [AnimationTarget] = []
        for (keyNode, valueNode) in mapping {
            guard let key = keyNode.scalar?.string else { continue }
            let entryPath = SceneReader.join(path, key)
            guard let (layer, keyPath) = splitKeyPath(key, keyNode, entryPath),
                checkTarget(layer, keyNode, entryPath, keyPath, keyNode, entryPath),
                let v = value(valueNode, entryPath, keyPath)
            else { continue }
            targets += resolved(layer, keyPath, [v], line: keyNode.mark?.line) {
                .to(from: nil, to: $0[0])
            }
        }
        return targets
    }

    private func readFromTo(_ f: Fields, _ layer: String, _ keyPath: String, _ line: Int?)
        -> [AnimationTarget]
    {
        guard require("to", in: f), let to = value(f["to"]!, f.path("to"), keyPath) else {
            return []
        }
        if let n = f["from"] {
            guard let from = value(n, f.path("from"), keyPath) else { return [] }
            return resolved(layer, keyPath, [from, to], line: line) { .to(from: $0[0], to: $0[1]) }
        }
        return resolved(layer, keyPath, [to], line: line) { .to(from: nil, to: $0[0]) }
    }

    /// values, keyTimes (default: evenly spaced) and curves (default: linear), with
    /// matching counts.
    private func readKeyframes(_ f: Fields, _ layer: String, _ keyPath: String, _ line: Int?)
        -> [AnimationTarget]
    {
        let valuesNode = f["values"]!
        guard let items = valuesNode.sequence, !items.isEmpty else {
            error(
                valuesNode, f.path("values"),
                "expected a list of values, got \(describe(valuesNode))")
            return []
        }
        let parsed = items.enumerated().map { value($1, "\(f.path("values"))[\($0)]", keyPath) }
        let n = items.count
        var keyTimes = (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        var ok = !parsed.contains { $0 == nil }
        if let node = f["keyTimes"], let times = numberList(node, f.path("keyTimes")) {
            if times.count != n {
                error(
                    node, f.path("keyTimes"),
                    "\(counted(times.count, "keyTime")) for \(counted(n, "value")); give one per value"
                )
                ok = false
            } else if !times.allSatisfy({ (0...1).contains($0) }) {
                error(
                    node, f.path("keyTimes"), "keyTimes must lie in 0…1 (fractions of the duration)"
                )
                ok = false
            } else if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
                error(node, f.path("keyTimes"), "keyTimes must not decrease")
                ok = false
            } else {
                keyTimes = times
            }
        }
        var curves = [TimingCurve](repeating: .linear, count: max(n - 1, 0))
        if let node = f["curves"] {
            let list = node.sequence.map { Array($0) }
            if list == nil || list!.count != n - 1 {
                error(
                    node, f.path("curves"),
                    "expected \(counted(n - 1, "curve")), one per segment between \(n) values, got \(describe(node))"
                )
                ok = false
            } else {
                let read = list!.enumerated().map { curve($1, "\(f.path("curves"))[\($0)]") }
                if read.contains(where: { $0 == nil }) {
                    ok = false
                } else {
                    curves = read.map { $0! }
                }
            }
        }
        guard ok else { return [] }
        return resolved(layer, keyPath, parsed.map { $0! }, line: line) {
            .keyframes(values: $0, keyTimes: keyTimes, curves: curves)
        }
    }

    /// The targets for `vectors` (from/to or keyframe values) of `keyPath`: `frame`
    /// becomes `position` and `bounds.size`, placed with the layer's model anchor point.
    private func resolved(
        _ layer: String, _ keyPath: String, _ vectors: [[Double]], line: Int?,
        _ change: ([[Double]]) -> AnimationChange
    ) -> [AnimationTarget] {
        guard keyPath == "frame" else {
            return [
                AnimationTarget(layer: layer, keyPath: keyPath, change: change(vectors), line: line)
            ]
        }
        let anchor = layers[layer]?.anchorPoint ?? Point(0.5, 0.5)
        let positions = vectors.map { [$0[0] + anchor.x * $0[2], $0[1] + anchor.y * $0[3]] }
        let sizes = vectors.map { [$0[2], $0[3]] }
        return [
            AnimationTarget(
                layer: layer, keyPath: "position", change: change(positions), line: line),
            AnimationTarget(
                layer: layer, keyPath: "bounds.size", change: change(sizes), line: line),
        ]
    }

    /// Reports an unknown layer or key path (with suggestions); true when both are fine.
    private func checkTarget(
        _ layer: String, _ layerNode: Node, _ layerPath: String,
        _ keyPath: String, _ keyNode: Node, _ keyPathPath: String
    ) -> Bool {
        let layerOK = checkLayer(layer, layerNode, layerPath)
        guard keyPath == "frame" || PropertyCatalog.info(for: keyPath) != nil else {
            error(
                keyNode, keyPathPath,
                "unknown key path `\(keyPath)`"
                    + Suggestions.hint(for: keyPath, in: PropertyCatalog.keyPaths))
            return false
        }
        return layerOK
    }
}
