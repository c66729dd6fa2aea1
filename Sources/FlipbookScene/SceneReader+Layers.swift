import FlipbookGeometry
import Yams

/// Layers: CALayer properties, the layer tree, masks and ids.
extension SceneReader {
    static let layerKeys =
        [
            "id", "position", "bounds", "anchorPoint", "frame", "transform", "opacity", "hidden",
            "backgroundColor", "cornerRadius", "borderWidth", "borderColor", "masksToBounds",
            "mask",
            "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "snap", "sublayers",
        ] + contentKeys
    static let transformKeys = ["translation", "scale", "rotation"]

    /// Plain numeric properties: key (also the catalog key path a follow names), field,
    /// and whether negative values are meaningless.
    static var numberProperties: [(String, WritableKeyPath<LayerProperties, Double>, Bool)] {
        [
            ("opacity", \.opacity, false), ("cornerRadius", \.cornerRadius, true),
            ("borderWidth", \.borderWidth, true), ("shadowOpacity", \.shadowOpacity, false),
            ("shadowRadius", \.shadowRadius, true), ("lineWidth", \.lineWidth, true),
            ("miterLimit", \.miterLimit, true), ("lineDashPhase", \.lineDashPhase, false),
            ("strokeStart", \.strokeStart, false), ("strokeEnd", \.strokeEnd, false),
            ("instanceAlphaOffset", \.instanceAlphaOffset, false),
        ]
    }

    /// Color properties, and whether `none` is allowed (shape colors).
    static var colorProperties: [(String, WritableKeyPath<LayerProperties, Color>, Bool)] {
        [
            ("backgroundColor", \.backgroundColor, false), ("borderColor", \.borderColor, false),
            ("shadowColor", \.shadowColor, false), ("fillColor", \.fillColor, true),
            ("strokeColor", \.strokeColor, true),
        ]
    }

    func readLayers(_ node: Node, _ path: String) -> [Layer] {
        if node.null != nil { return [] }  // `sublayers:` with nothing after it
        guard let items = node.sequence else {
            error(node, path, "expected a list of layers, got \(describe(node))")
            return []
        }
        return items.enumerated().compactMap { readLayer($1, "\(path)[\($0)]", maskOf: nil) }
    }

    /// One layer and its subtree. `maskOf` is the parent's id when this is a mask, whose
    /// id may be left out (it becomes `<parentId>.mask`).
    func readLayer(_ node: Node, _ basePath: String, maskOf parent: String?) -> Layer? {
        // The id first, so that every message about this layer can name it.
        var id = parent.map { $0 + ".mask" } ?? ""
        if let written = node.mapping?["id"]?.scalar?.string, !written.isEmpty { id = written }
        let path = id.isEmpty ? basePath : "\(basePath) (\(id))"
        guard let f = fields(node, path, known: Self.layerKeys, what: "a layer mapping") else {
            return nil
        }
        if let n = f["id"] {
            _ = string(n, f.path("id"))
        } else if parent == nil {
            error(node, basePath, "missing `id`")
        }
        if let parent, id == parent {
            error(f["id"], f.path("id"), "a layer cannot be its own mask")
        } else if !id.isEmpty, let first = layers[id] {
            error(
                f["id"] ?? node, f.path("id"),
                "duplicate layer id `\(id)`; first used on line \(first.line.map(String.init) ?? "?")"
            )
        }

        let saved = pendingFollows
        pendingFollows = []
        var p = LayerProperties()
        readGeometry(f, &p)
        for (key, field, nonNegative) in Self.numberProperties {
            guard let n = f[key], let v = slot(n, f.path(key), follow: [key]) else { continue }
            if nonNegative, v < 0 {
                error(n, f.path(key), "must not be negative, got \(describe(n))")
            } else {
                p[keyPath: field] = v
            }
        }
        for (key, field, allowNone) in Self.colorProperties {
            if let n = f[key], let c = color(n, f.path(key), allowNone: allowNone) {
                p[keyPath: field] = c
            }
        }
        if let n = f["hidden"], let v = bool(n, f.path("hidden")) { p.hidden = v }
        if let n = f["masksToBounds"], let v = bool(n, f.path("masksToBounds")) {
            p.masksToBounds = v
        }
        if let n = f["shadowOffset"],
            let v = slots(n, f.path("shadowOffset"), count: 2, shape: "a point [x, y]", follow: [])
        {
            p.shadowOffset = Point(v[0], v[1])
        }
        if let n = f["transform"],
            let t = readTransform(n, f.path("transform"), prefix: "transform")
        {
            p.transform = t
        }
        let content = readContent(f, &p)
        let replicator = readReplicator(f, &p)
        var layer = Layer(
            id: id, properties: p, content: content, replicator: replicator, line: node.mark?.line)
        if let n = f["snap"] { layer.snap = choice(n, f.path("snap"), SnapMode.allCases) }
        if !id.isEmpty, layers[id] == nil, id != parent {
            layers[id] = LayerRecord(anchorPoint: p.anchorPoint, line: (f["id"] ?? node).mark?.line)
        }
        layer.follows = pendingFollows.map(\.binding)
        follows += pendingFollows.map {
            var r = $0; r.layer = id; return r
        }
        pendingFollows = saved

        if let n = f["mask"] { layer.mask = readLayer(n, f.path("mask"), maskOf: id) }
        if let n = f["sublayers"] { layer.sublayers = readLayers(n, f.path("sublayers")) }
        return layer
    }

    /// position, bounds, anchorPoint and `frame`, which needs the anchor point whatever
    /// the key order: position = origin + anchor × size, the bounds keep their origin.
    private func readGeometry(_ f: Fields, _ p: inout LayerProperties) {
        if let n = f["position"],
            let v = slots(
                n, f.path("position"), count: 2, shape: "a point [x, y]",
                follow: ["position.x", "position.y"])
        {
            p.position = Point(v[0], v[1])
        }
        if let n = f["bounds"],
            let v = slots(
                n, f.path("bounds"), count: 4, shape: "a rect [x, y, width, height]",
                follow: [
                    "bounds.origin.x", "bounds.origin.y",
                    "bounds.size.width", "bounds.size.height",
                ])
        {
            if v[2] < 0 || v[3] < 0 {
                error(n, f.path("bounds"), "width and height must not be negative")
            } else {
                p.bounds = Rect(v[0], v[1], v[2], v[3])
            }
        }
        if let n = f["anchorPoint"],
            let v = slots(
                n, f.path("anchorPoint"), count: 2, shape: "a point [x, y]",
                follow: ["anchorPoint.x", "anchorPoint.y"])
        {
            p.anchorPoint = Point(v[0], v[1])
        }
        guard let n = f["frame"] else { return }
        if f.has("position") {
            error(n, f.path("frame"), "`frame` and `position` both place the layer; keep one")
        }
        guard let r = rect(n, f.path("frame")) else { return }
        p.position = Point(r.x + p.anchorPoint.x * r.width, r.y + p.anchorPoint.y * r.height)
        p.bounds.width = r.width
        p.bounds.height = r.height
    }

    /// `{ translation: [x, y], scale: s or [sx, sy], rotation: degrees }`; `prefix` is
    /// `transform` or `instanceTransform`, naming the components for follows.
    func readTransform(_ node: Node, _ path: String, prefix: String) -> LayerTransform? {
        guard let f = fields(node, path, known: Self.transformKeys) else { return nil }
        var t = LayerTransform.identity
        if let n = f["translation"],
            let v = slots(
                n, f.path("translation"), count: 2, shape: "a point [x, y]",
                follow: ["\(prefix).translation.x", "\(prefix).translation.y"])
        {
            t.translation = Point(v[0], v[1])
        }
        let scaleNames = ["\(prefix).scale.x", "\(prefix).scale.y"]
        if let n = f["scale"] {
            if n.sequence != nil {
                if let v = slots(
                    n, f.path("scale"), count: 2, shape: "a scale s or [sx, sy]", follow: scaleNames
                ) {
                    t.scale = Point(v[0], v[1])
                }
            } else if let s = slot(n, f.path("scale"), follow: scaleNames) {
                t.scale = Point(s, s)
            }
        }
        if let n = f["rotation"],
            let v = slot(n, f.path("rotation"), follow: ["\(prefix).rotation"])
        {
            t.rotation = v
        }
        return t
    }
}
