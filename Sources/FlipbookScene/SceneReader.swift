import FlipbookGeometry
import Yams

/// The state of one load: where the file is, every problem found so far, and what
/// later checks need (layer ids, follow bindings). Readers report a problem and return
/// nil instead of throwing, so that one run finds every problem.
final class SceneReader {
    let file: String?
    /// Folder that asset paths are relative to.
    let baseDirectory: String
    /// Whether asset and font paths may lead out of `baseDirectory`.
    var allowOutsideAssets = false
    private(set) var diagnostics: [Diagnostic] = []
    var assets: [String: String] = [:]
    /// Names under `assets:`, found on disk or not.
    var declaredAssets: Set<String> = []
    /// Every layer id seen, with the layer's model anchor point (for `frame` animations).
    var layers: [String: LayerRecord] = [:]
    /// Follow bindings of the layer being read; `readLayer` saves and restores it.
    var pendingFollows: [FollowRecord] = []
    /// All follow bindings of the scene, checked once every layer is known.
    var follows: [FollowRecord] = []

    struct LayerRecord {
        var anchorPoint: Point
        var line: Int?
    }

    struct FollowRecord {
        var layer: String
        var binding: FollowBinding
        var node: Node
        var path: String
    }

    init(file: String?, baseDirectory: String) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    // MARK: Reporting

    func error(_ node: Node?, _ path: String, _ message: String) {
        error(at: node?.mark, path, message)
    }

    func error(at mark: Mark?, _ path: String, _ message: String) {
        error(line: mark?.line, column: mark?.column, path, message)
    }

    func error(line: Int?, column: Int?, _ path: String, _ message: String) {
        diagnostics.append(
            Diagnostic(file: file, line: line, column: column, keyPath: path, message: message))
    }

    /// The diagnostics in file order (stable, so that problems on one line keep the
    /// order they were found in; file-less ones last).
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let ka = (a.element.line ?? .max, a.element.column ?? .max, a.offset)
            let kb = (b.element.line ?? .max, b.element.column ?? .max, b.offset)
            return ka < kb
        }.map(\.element)
    }

    // MARK: Mappings

    /// A mapping whose keys have been checked against the keys its level accepts.
    struct Fields {
        let node: Node
        let path: String
        let entries: [(key: String, keyNode: Node, value: Node)]

        subscript(key: String) -> Node? { entries.first { $0.key == key }?.value }
        func has(_ key: String) -> Bool { self[key] != nil }
        func path(_ key: String) -> String { SceneReader.join(path, key) }
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// Reads `node` as a mapping and reports every key not in `known`, with a suggestion.
    /// Nil (and a diagnostic) when the node is not a mapping.
    func fields(_ node: Node, _ path: String, known: [String], what: String = "a mapping")
        -> Fields?
    {
        guard let mapping = node.mapping else {
            error(node, path, "expected \(what), got \(describe(node))")
            return nil
        }
        var entries: [(String, Node, Node)] = []
        for (keyNode, value) in Self.merged(mapping) {
            guard let key = keyNode.scalar?.string else {
                error(keyNode, path, "keys must be plain names")
                continue
            }
            if known.contains(key) {
                entries.append((key, keyNode, value))
            } else {
                error(
                    keyNode, Self.join(path, key),
                    "unknown key `\(key)`" + Suggestions.hint(for: key, in: known))
            }
        }
        return Fields(node: node, path: path, entries: entries)
    }

    /// The pairs of a mapping with YAML merge keys (`<<: *style`) expanded; keys
    /// written in the mapping itself win over merged ones, as YAML specifies.
    static func merged(_ mapping: Node.Mapping) -> [(key: Node, value: Node)] {
        var own: [(key: Node, value: Node)] = []
        var inherited: [(key: Node, value: Node)] = []
        for pair in mapping {
            guard pair.key.scalar?.string == "<<", pair.key.scalar?.style == .plain else {
                own.append(pair)
                continue
            }
            let sources =
                pair.value.mapping.map { [$0] } ?? pair.value.sequence?.compactMap(\.mapping) ?? []
            for source in sources { inherited += merged(source) }
        }
        let ownKeys = Set(own.compactMap { $0.key.scalar?.string })
        var seen = Set<String>()
        let extra = inherited.filter { pair in
            guard let key = pair.key.scalar?.string else { return false }
            return !ownKeys.contains(key) && seen.insert(key).inserted
        }
        return own + extra
    }

    /// Reports each of `keys` that is missing from `fields`.
    @discardableResult
    func require(_ keys: String..., in f: Fields) -> Bool {
        var ok = true
        for key in keys where !f.has(key) {
            error(f.node, f.path, "missing `\(key)`")
            ok = false
        }
        return ok
    }

    /// A short picture of a node for "expected …, got …" messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            if s.string.isEmpty || node.null != nil { return "nothing" }
            return "`\(s.string)`"
        case .mapping: return "a mapping"
        case .sequence(let s): return "a list of \(s.count)"
        case .alias: return "an alias"
        }
    }

    // MARK: Scalars

    /// A finite number; ints and floats alike.
    func number(_ node: Node, _ path: String) -> Double? {
        guard let value = rawNumber(node) else {
            error(node, path, "expected a number, got \(describe(node))")
            return nil
        }
        guard value.isFinite else {
            error(node, path, "expected a finite number, got \(describe(node))")
            return nil
        }
        return value
    }

    /// Any number YAML or Swift can read, including `.inf` and `.nan`.
    func rawNumber(_ node: Node) -> Double? {
        guard let scalar = node.scalar, node.bool == nil else { return nil }
        return node.float ?? Double(scalar.string)
    }

    func nonNegative(_ node: Node, _ path: String) -> Double? {
        guard let value = number(node, path) else { return nil }
        guard value >= 0 else {
            error(node, path, "must not be negative, got \(describe(node))")
            return nil
        }
        return value
    }

    func bool(_ node: Node, _ path: String) -> Bool? {
        guard node.scalar != nil, let value = node.bool else {
            error(node, path, "expected true or false, got \(describe(node))")
            return nil
        }
        return value
    }

    func string(_ node: Node, _ path: String) -> String? {
        guard let scalar = node.scalar, !scalar.string.isEmpty else {
            error(node, path, "expected a name, got \(describe(node))")
            return nil
        }
        return scalar.string
    }

    /// One of a fixed set of names.
    func choice<T: RawRepresentable>(_ node: Node, _ path: String, _ options: [T]) -> T?
    where T.RawValue == String {
        guard let text = string(node, path) else { return nil }
        if let value = options.first(where: { $0.rawValue == text }) { return value }
        let names = options.map(\.rawValue)
        error(
            node, path,
            "unknown value `\(text)`; expected one of "
                + names.map { "`\($0)`" }.joined(separator: ", ")
                + Suggestions.hint(for: text, in: names))
        return nil
    }

    // MARK: Vectors

    /// Exactly `count` finite numbers; `shape` names the expected form in messages.
    func numbers(_ node: Node, _ path: String, count: Int, shape: String) -> [Double]? {
        guard let items = node.sequence, items.count == count else {
            error(node, path, "expected \(shape), got \(describe(node))")
            return nil
        }
        let values = items.enumerated().map { number($1, "\(path)[\($0)]") }
        return values.contains(where: { $0 == nil }) ? nil : values.map { $0! }
    }

    func point(_ node: Node, _ path: String) -> Point? {
        numbers(node, path, count: 2, shape: "a point [x, y]").map { Point($0[0], $0[1]) }
    }

    func size(_ node: Node, _ path: String) -> Size? {
        guard let v = numbers(node, path, count: 2, shape: "a size [width, height]") else {
            return nil
        }
        guard v[0] >= 0, v[1] >= 0 else {
            error(node, path, "width and height must not be negative")
            return nil
        }
        return Size(v[0], v[1])
    }

    func rect(_ node: Node, _ path: String) -> Rect? {
        guard let v = numbers(node, path, count: 4, shape: "a rect [x, y, width, height]") else {
            return nil
        }
        guard v[2] >= 0, v[3] >= 0 else {
            error(node, path, "width and height must not be negative")
            return nil
        }
        return Rect(v[0], v[1], v[2], v[3])
    }

    /// Any-length list of finite numbers.
    func numberList(_ node: Node, _ path: String) -> [Double]? {
        guard let items = node.sequence else {
            error(node, path, "expected a list of numbers, got \(describe(node))")
            return nil
        }
        let values = items.enumerated().map { number($1, "\(path)[\($0)]") }
        return values.contains(where: { $0 == nil }) ? nil : values.map { $0! }
    }

    /// A color: name, hex string, or [r, g, b(, a)] in 0…1. `allowNone` accepts `none`
    /// for clear, as fill and stroke colors do.
    func color(_ node: Node, _ path: String, allowNone: Bool = false) -> Color? {
        if let items = node.sequence {
            guard items.count == 3 || items.count == 4 else {
                error(
                    node, path, "expected a color [r, g, b] or [r, g, b, a], got \(describe(node))")
                return nil
            }
            guard let v = numberList(node, path) else { return nil }
            guard v.allSatisfy({ (0...1).contains($0) }) else {
                error(node, path, "color components must be in 0…1")
                return nil
            }
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        }
        guard let text = node.scalar?.string else {
            error(node, path, "expected a color, got \(describe(node))")
            return nil
        }
        if allowNone, text == "none" { return .clear }
        if let color = ColorParser.parse(text) { return color }
        if text.hasPrefix("#") {
            error(node, path, "invalid hex color `\(text)`; expected #rgb, #rrggbb or #rrggbbaa")
        } else {
            let names = ColorParser.named.keys.sorted() + (allowNone ? ["none"] : [])
            error(node, path, "unknown color `\(text)`" + Suggestions.hint(for: text, in: names))
        }
        return nil
    }
}
