import FlipbookGeometry
import Yams

/// Animation values: a scene value read into the flat vector ``PropertyCatalog`` gives
/// its key path (a color [r, g, b, a], a transform [tx, ty, sx, sy, degrees], …).
extension SceneReader {
    func value(_ node: Node, _ path: String, _ keyPath: String) -> [Double]? {
        if keyPath == "frame" { return rect(node, path).map { [$0.x, $0.y, $0.width, $0.height] } }
        guard let info = PropertyCatalog.info(for: keyPath) else { return nil }
        // Follow maps belong to layers; an animation value is a plain value.
        let followsBefore = pendingFollows.count
        defer {
            if pendingFollows.count > followsBefore {
                error(node, path, "an animation value cannot follow another value")
                pendingFollows.removeLast(pendingFollows.count - followsBefore)
            }
        }
        switch info.kind {
        case .number:
            // A scale may name both axes: `transform.scale: [2, 1]`.
            if info.components.count == 2, node.sequence != nil {
                return numbers(node, path, count: 2, shape: "a scale s or [sx, sy]")
            }
            return number(node, path).map { [$0] }
        case .bool:
            return bool(node, path).map { [$0 ? 1 : 0] }
        case .point:
            return point(node, path).map { [$0.x, $0.y] }
        case .size:
            return size(node, path).map { [$0.width, $0.height] }
        case .rect:
            return rect(node, path).map { [$0.x, $0.y, $0.width, $0.height] }
        case .color:
            return color(node, path, allowNone: ["fillColor", "strokeColor"].contains(keyPath)).map(
                Self.channels)
        case .transform:
            let prefix = keyPath.hasPrefix("instance") ? "instanceTransform" : "transform"
            return readTransform(node, path, prefix: prefix).map {
                [$0.translation.x, $0.translation.y, $0.scale.x, $0.scale.y, $0.rotation]
            }
        case .numberList:
            return numberList(node, path)
        case .colorList:
            guard let items = node.sequence else {
                error(node, path, "expected a list of colors, got \(describe(node))")
                return nil
            }
            let colors = items.enumerated().map { color($1, "\(path)[\($0)]") }
            return colors.contains { $0 == nil } ? nil : colors.flatMap { Self.channels($0!) }
        }
    }

    static func channels(_ c: Color) -> [Double] { [c.red, c.green, c.blue, c.alpha] }
}
