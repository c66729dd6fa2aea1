import FlipbookGeometry
import Yams

/// Numeric slots, which may follow another layer's value, and the checks on follows.
extension SceneReader {
    /// A number, or `{ follow: layer.keyPath, map: [[in, out], …] }`. `components` are
    /// the catalog key paths of this layer the slot drives (two for a broadcast scale);
    /// empty where the slot has no single-number key path and so cannot follow.
    /// A follow's static value is its map's first output.
    func slot(_ node: Node, _ path: String, follow components: [String]) -> Double? {
        guard node.mapping != nil else { return number(node, path) }
        guard !components.isEmpty else {
            error(
                node, path,
                "expected a number, got \(describe(node)); this value has no single-number key path, so it cannot follow"
            )
            return nil
        }
        return readFollow(node, path, components)
    }

    /// `count` slots in a list, slot i following as `components[i]` (if given).
    func slots(_ node: Node, _ path: String, count: Int, shape: String, follow components: [String])
        -> [Double]?
    {
        guard let items = node.sequence, items.count == count else {
            error(node, path, "expected \(shape), got \(describe(node))")
            return nil
        }
        let values = items.enumerated().map { i, item in
            slot(item, "\(path)[\(i)]", follow: i < components.count ? [components[i]] : [])
        }
        return values.contains(where: { $0 == nil }) ? nil : values.map { $0! }
    }

    private func readFollow(_ node: Node, _ path: String, _ components: [String]) -> Double? {
        guard let f = fields(node, path, known: ["follow", "map"]), require("follow", "map", in: f),
            let source = string(f["follow"]!, f.path("follow"))
        else { return nil }
        let map = readMap(f["map"]!, f.path("map"))
        guard let (layer, keyPath) = splitKeyPath(source, f["follow"]!, f.path("follow")) else {
            return nil
        }
        guard let info = PropertyCatalog.info(for: keyPath), info.components.count == 1 else {
            let singles = PropertyCatalog.keyPaths.filter {
                PropertyCatalog.info(for: $0)?.components.count == 1
            }
            if PropertyCatalog.info(for: keyPath) == nil {
                error(
                    f["follow"]!, f.path("follow"),
                    "unknown key path `\(keyPath)`" + Suggestions.hint(for: keyPath, in: singles))
            } else {
                let example = singles.first { $0.hasPrefix(keyPath + ".") } ?? "position.x"
                error(
                    f["follow"]!, f.path("follow"),
                    "`\(keyPath)` is not a single number; follow one component, such as `\(example)`"
                )
            }
            return nil
        }
        guard let map else { return nil }
        for component in components {
            let binding = FollowBinding(
                component: component, sourceLayer: layer, sourceComponent: keyPath, map: map)
            pendingFollows.append(
                FollowRecord(layer: "", binding: binding, node: f["follow"]!, path: path))
        }
        return map[0].y
    }

    /// `[[in, out], …]`: at least two pairs, inputs strictly increasing.
    private func readMap(_ node: Node, _ path: String) -> [Point]? {
        guard let items = node.sequence, items.count >= 2 else {
            error(node, path, "expected at least two [input, output] pairs, got \(describe(node))")
            return nil
        }
        var points: [Point] = []
        for (i, item) in items.enumerated() {
            guard let p = numbers(item, "\(path)[\(i)]", count: 2, shape: "an [input, output] pair")
            else { return nil }
            if let last = points.last, p[0] <= last.x {
                error(
                    item, "\(path)[\(i)]",
                    "map inputs must increase: \(formatted(p[0])) follows \(formatted(last.x))")
                return nil
            }
            points.append(Point(p[0], p[1]))
        }
        return points
    }

    /// `layer.key.path` split at the first dot, unless only a later dot leaves a known
    /// key path: ids with dots (a mask's `card.mask`) stay reachable, and no key path
    /// the first dot would find is given up (none starts with a layer-id-like word).
    func splitKeyPath(_ text: String, _ node: Node, _ path: String) -> (String, String)? {
        let dots = text.indices.filter {
            text[$0] == "." && $0 != text.startIndex && text.index(after: $0) != text.endIndex
        }
        guard let first = dots.first else {
            error(node, path, "expected `layerId.keyPath`, got `\(text)`")
            return nil
        }
        func known(_ keyPath: Substring) -> Bool {
            keyPath == "frame" || PropertyCatalog.info(for: String(keyPath)) != nil
        }
        let dot = dots.first { known(text[text.index(after: $0)...]) } ?? first
        return (String(text[..<dot]), String(text[text.index(after: dot)...]))
    }

    /// "1 curve", "2 curves".
    func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    func formatted(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// Reports an unknown layer id with a suggestion; true when the id exists.
    func checkLayer(_ id: String, _ node: Node, _ path: String) -> Bool {
        guard layers[id] == nil else { return true }
        error(
            node, path,
            "unknown layer `\(id)`" + Suggestions.hint(for: id, in: layers.keys.sorted()))
        return false
    }

    /// Once every layer is known: follow sources exist, and no component follows itself
    /// through a chain of follows (the value would be undefined).
    func checkFollows() {
        var edges: [FollowKey: (FollowKey, FollowRecord)] = [:]
        for record in follows {
            guard
                checkLayer(
                    record.binding.sourceLayer, record.node, SceneReader.join(record.path, "follow")
                )
            else { continue }
            for target in FollowKey.keys(record.layer, record.binding.component) {
                if let source = FollowKey.keys(
                    record.binding.sourceLayer, record.binding.sourceComponent
                ).first {
                    edges[target] = (source, record)
                }
            }
        }
        var reported = Set<FollowKey>()
        for start in edges.keys.sorted(by: { $0.name < $1.name }) where !reported.contains(start) {
            var chain = [start]
            var current = start
            while let (next, _) = edges[current] {
                if let loopStart = chain.firstIndex(of: next) {
                    let loop = Array(chain[loopStart...])
                    guard !loop.contains(where: reported.contains) else { break }
                    reported.formUnion(loop)
                    let record = edges[loop[0]]!.1
                    let names = (loop + [loop[0]]).map(\.name).joined(separator: " → ")
                    error(
                        record.node, SceneReader.join(record.path, "follow"),
                        "follow cycle: \(names)")
                    break
                }
                chain.append(next)
                current = next
            }
        }
    }
}

/// One scalar of one layer, as a node of the follow graph (aliases such as `bounds.x`
/// and `bounds.origin.x` meet at the same component).
struct FollowKey: Hashable {
    var layer: String
    var component: Component
    var name: String

    static func == (a: FollowKey, b: FollowKey) -> Bool {
        a.layer == b.layer && a.component == b.component
    }
    func hash(into hasher: inout Hasher) {
        hasher.combine(layer)
        hasher.combine(component)
    }

    static func keys(_ layer: String, _ keyPath: String) -> [FollowKey] {
        (PropertyCatalog.info(for: keyPath)?.components ?? []).map {
            FollowKey(layer: layer, component: $0, name: "\(layer).\(keyPath)")
        }
    }
}
