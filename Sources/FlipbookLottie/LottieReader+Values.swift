import FlipbookGeometry
import FlipbookScene

/// Animatable properties: `{"a": 0|1, "k": value | keyframes, "x": expression}`.
///
/// Keyframe rules (Lottie's, both export formats):
/// - `t` is the frame; times are turned into seconds (÷ fr) on the layer's clock.
/// - Each keyframe's `o` (its out handle) and `i` (the next keyframe's in handle) ease
///   the segment that starts there: x and y are numbers or one per dimension, and the
///   first dimension's curve eases every dimension (as lottie-ios, rlottie and ThorVG).
/// - `h: 1` holds the segment's start value.
/// - `to`/`ti` on 2-D values are spatial tangents of the segment (motion paths).
/// - The old format gives each segment `s` and `e`; a last keyframe may carry only `t`,
///   and its value is the previous segment's `e`.
extension LottieReader {
    /// A scalar or vector property; `transform` converts units (opacity ÷ 100…).
    ///
    /// A value players pass over (issue 24 §1: ThorVG draws a file whose opacity is a
    /// string, a keyframe list without times or a null scale) is drawn as players draw it:
    /// with `fallback`, the property's default, when it has one, else left out (nil, which
    /// callers take as an absent property or an item to skip); each problem is a warning
    /// (``tolerating(_:_:_:)``), so `--strict` still refuses the file.
    func animated(
        _ node: JSONNode, _ what: String, default fallback: [Double]? = nil,
        transform: @escaping ([Double]) -> [Double] = { $0 }
    ) -> AnimatedValue? {
        let note = fallback.map { "drawn with the default, \(Self.describe($0))" } ?? "left out"
        return tolerating(note, fallback.map { .constant(transform($0)) }) {
            animatedValue(node, what, default: fallback, transform: transform)
        }
    }

    /// Runs `read`; when it reported problems of the value (not a limit: those stay
    /// errors), they become warnings of the current layer, each ending in `note`, and the
    /// result is `fallback`.
    func tolerating<T>(_ note: String, _ fallback: T?, _ read: () -> T?) -> T? {
        let reported = diagnostics.count
        let result = read()
        guard diagnostics.count > reported, !overLimit,
            diagnostics[reported...].allSatisfy({ $0.violation == nil })
        else { return result }
        for problem in diagnostics[reported...] {
            warn("`\(problem.keyPath)`: \(problem.message) (\(note))")
        }
        diagnostics.removeSubrange(reported...)
        return fallback
    }

    /// ``tolerating(_:_:_:)`` whose fallback is nil: the caller's default then applies.
    func tolerating<T>(_ note: String, _ read: () -> T?) -> T? { tolerating(note, nil, read) }

    /// `[100]` as `100`, `[0, 0]` as `[0, 0]`: a default as the file would write it.
    static func describe(_ values: [Double]) -> String {
        let text = values.map { $0 == $0.rounded() && abs($0) < 1e15 ? "\(Int($0))" : "\($0)" }
        return text.count == 1 ? text[0] : "[" + text.joined(separator: ", ") + "]"
    }

    private func animatedValue(
        _ node: JSONNode, _ what: String, default fallback: [Double]?,
        transform: @escaping ([Double]) -> [Double]
    ) -> AnimatedValue? {
        guard node.exists else { return fallback.map { .constant(transform($0)) } }
        noteExpression(node)
        let k = node["k"]
        guard k.exists else {
            // Some exporters write a bare number or array in place of the property.
            if let v = node.numbers { return .constant(transform(v)) }
            if node.isObject {
                error(k, "expected \(what) in `k`, got \(k.kind)")
            } else {
                error(node, "expected \(what): an object with `k`, got \(node.kind)")
            }
            return nil
        }
        if k.isArray, k[0].has("t") {
            guard let frames = keyframes(k, what, read: { $0.numbers }) else { return nil }
            return AnimatedValue.keyframes(frames).mapped(transform)
        }
        guard let v = k.numbers else {
            error(k, "expected \(what): a number or an array of numbers, got \(k.kind)")
            return nil
        }
        return .constant(transform(v))
    }

    /// A Bézier path property (`ks` of a path, `pt` of a mask): {c, v, i, o} per value. A
    /// path that cannot be read is left out with a warning (its shape or mask skipped, as
    /// ThorVG skips it), unless a limit refused it.
    func animatedPath(_ node: JSONNode) -> AnimatedValue? {
        tolerating("left out") { animatedPathValue(node) }
    }

    private func animatedPathValue(_ node: JSONNode) -> AnimatedValue? {
        noteExpression(node)
        let k = node["k"]
        let path: AnimatedValue?
        if k.isArray, k[0].has("t") {
            path = keyframes(k, "a path") { value in
                // Keyframe values wrap the shape in a one-element array.
                self.pathValue(value.isArray ? value[0] : value)
            }.map { AnimatedValue.keyframes($0) }
        } else {
            path = pathValue(k).map { .constant($0) }
        }
        // The first value's elements count against `maxPathElements`, as the scene's
        // limit check counts them (VectorShape.pathElementCount).
        guard let path else { return nil }
        let first = path.initial
        let elements = first.count >= 2 ? Int(min(max(first[1], 0), 1e9)) + 2 : 0
        guard
            count(
                &pathElementsRead, elements, limit: limits.maxPathElements, at: k,
                item: .pathElements)
        else { return nil }
        return path
    }

    func pathValue(_ node: JSONNode) -> [Double]? {
        guard node.isObject else {
            error(node, "expected a path: an object with `v`, `i`, `o` and `c`, got \(node.kind)")
            return nil
        }
        // One path longer than the whole limit is refused before its points are read.
        guard node["v"].count <= limits.maxPathElements else {
            var total = node["v"].count
            _ = count(
                &total, 0, limit: limits.maxPathElements, at: node["v"], item: .pathElements)
            return nil
        }
        func points(_ key: String) -> [Point]? {
            let list = node[key]
            if !list.exists && key != "v" { return [] }
            guard let elements = list.elements else {
                error(list, "expected an array of [x, y] points, got \(list.kind)")
                return nil
            }
            var out: [Point] = []
            for e in elements {
                guard let xy = e.numbers, xy.count >= 2 else {
                    error(e, "expected a point [x, y], got \(e.kind)")
                    return nil
                }
                out.append(Point(xy[0], xy[1]))
            }
            return out
        }
        guard let v = points("v"), let i = points("i"), let o = points("o") else { return nil }
        let closed = node["c"].bool ?? false
        return VectorPathValue.encode(closed: closed, vertices: v, inTangents: i, outTangents: o)
    }

    /// Keyframes with values read by `read`; nil (with a diagnostic) when malformed.
    func keyframes(_ k: JSONNode, _ what: String, read: (JSONNode) -> [Double]?) -> [Keyframe]? {
        // Counted before any is built: a million keyframes are refused at once.
        guard
            count(
                &keyframesRead, k.count, limit: limits.maxKeyframes, at: k, item: .keyframes),
            let list = k.elements
        else { return nil }
        var out: [Keyframe] = []
        var previousEnd: [Double]?
        for (index, node) in list.enumerated() {
            guard let t = node["t"].number else {
                error(node["t"], "expected the keyframe's frame number `t`, got \(node["t"].kind)")
                return nil
            }
            var value: [Double]
            let s = node["s"]
            if s.exists {
                guard let v = read(s) else {
                    // Paths report their own, more precise, problem.
                    if what != "a path" {
                        error(s, "expected \(what) as the keyframe's value, got \(s.kind)")
                    }
                    return nil
                }
                value = v
            } else if let previousEnd {
                value = previousEnd
            } else if index == list.count - 1, let last = out.last {
                value = last.value
            } else {
                error(node, "expected the keyframe's value `s`")
                return nil
            }
            let e = node["e"]
            previousEnd = e.exists ? read(e) : nil
            var easing: [TimingCurve] = [.linear]
            let o = node["o"], i = node["i"]
            if o.exists, i.exists, let ox = o["x"].numbers, let oy = o["y"].numbers,
                let ix = i["x"].numbers, let iy = i["y"].numbers, !ox.isEmpty, !oy.isEmpty,
                !ix.isEmpty, !iy.isEmpty
            {
                // One curve for every dimension, the first one's: lottie-ios (what an
                // iPhone shows), rlottie and ThorVG all read `x`/`y` arrays so; only
                // lottie-web eases each dimension by its own entry. 5317-fireworkds
                // scales a group with different x and y curves, and at 75 % the players
                // agree with each other and not with per-dimension easing.
                easing = [TimingCurve(min(max(ox[0], 0), 1), oy[0], min(max(ix[0], 0), 1), iy[0])]
            }
            let hold = node["h"].bool ?? false
            let frame = Keyframe(
                time: t / frameRate, value: value, easing: easing, hold: hold,
                outTangent: node["to"].numbers, inTangent: node["ti"].numbers)
            if let last = out.last, frame.time < last.time {
                error(
                    node["t"],
                    "keyframe times must not decrease (\(t) after \(last.time * frameRate))")
                return nil
            }
            out.append(frame)
        }
        guard !out.isEmpty else {
            error(k, "no keyframes")
            return nil
        }
        return out
    }

    /// A color property: [r, g, b(, a)] in 0…1 (or 0…255 in some old files).
    func color(_ node: JSONNode, default fallback: [Double]? = nil) -> AnimatedValue? {
        if coreAnimation {
            // lottie-ios reads r, g, b (divided by 255 only when all three exceed 1) and
            // sets alpha to 1 whatever the fourth value says
            // (Sources/Private/Utility/Primitives/ColorExtension.swift).
            return animated(node, "a color [r, g, b, a]", default: fallback) { v in
                let rgb = (0..<3).map { $0 < v.count ? v[$0] : 0 }
                return (rgb.allSatisfy { $0 > 1 } ? rgb.map { $0 / 255 } : rgb) + [1]
            }
        }
        return animated(node, "a color [r, g, b, a]", default: fallback) { v in
            let scaled = v.prefix(3).contains { $0 > 1 } ? v.map { $0 / 255 } : v
            // A colour written with fewer than three numbers gets zeros for the rest, so that
            // every reader of it may index r, g and b (`[1]` trapped in text before).
            return Array(scaled.prefix(4)) + Array(repeating: 0, count: max(0, 3 - scaled.count))
        }
    }

    func noteExpression(_ node: JSONNode) {
        if node["x"].string != nil { warn("expressions") }
    }
}
