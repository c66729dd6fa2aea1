import FlipbookGeometry
import Yams

/// What a layer draws (shape, gradient, image, text) and the replicator keys.
extension SceneReader {
    static let contentKinds = ["path", "rect", "ellipse", "arc", "gradient", "contents", "text"]
    static let contentKeys =
        contentKinds + [
            "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin",
            "miterLimit",
            "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd", "contentsGravity",
            "instanceCount", "instanceTransform", "instanceDelay", "instanceAlphaOffset",
        ]
    static let arcKeys = ["center", "radius", "start", "end", "clockwise"]
    static let gradientKeys = ["type", "colors", "locations", "startPoint", "endPoint"]
    static let textKeys = [
        "string", "font", "fontSize", "color", "alignment", "wrapped", "truncation", "direction",
    ]

    /// The layer's one content kind. Reads the shape numbers (rect, arc, dashes) into `p`.
    func readContent(_ f: Fields, _ p: inout LayerProperties) -> LayerContent {
        let kinds = f.entries.filter { Self.contentKinds.contains($0.key) }
        if kinds.count > 1 {
            let names = kinds.map { "`\($0.key)`" }.joined(separator: ", ")
            error(
                kinds[1].keyNode, f.path(kinds[1].key),
                "a layer has at most one content kind, found \(names)")
            return .none
        }
        guard let kind = kinds.first else { return .none }
        let (node, path) = (kind.value, f.path(kind.key))
        switch kind.key {
        case "gradient":
            return readGradient(node, path, &p).map { .gradient($0) } ?? .none
        case "contents":
            return readContents(node, path, f).map { .image($0) } ?? .none
        case "text":
            return readText(node, path, &p).map { .text($0) } ?? .none
        default:
            guard let geometry = readShapeGeometry(kind.key, node, path, f, &p) else {
                return .none
            }
            var shape = ShapeContent(geometry: geometry)
            if let n = f["fillRule"],
                let v = choice(n, f.path("fillRule"), [FillRule.nonZero, .evenOdd])
            {
                shape.fillRule = v
            }
            if let n = f["lineCap"],
                let v = choice(n, f.path("lineCap"), [LineCap.butt, .round, .square])
            {
                shape.lineCap = v
            }
            if let n = f["lineJoin"],
                let v = choice(n, f.path("lineJoin"), [LineJoin.miter, .round, .bevel])
            {
                shape.lineJoin = v
            }
            if let n = f["lineDashPattern"], let v = numberList(n, f.path("lineDashPattern")) {
                if v.contains(where: { $0 < 0 }) {
                    error(n, f.path("lineDashPattern"), "dash lengths must not be negative")
                } else {
                    p.lineDashPattern = v
                }
            }
            return .shape(shape)
        }
    }

    private func readShapeGeometry(
        _ kind: String, _ node: Node, _ path: String, _ f: Fields,
        _ p: inout LayerProperties
    ) -> ShapeGeometry? {
        switch kind {
        case "path":
            guard let d = node.scalar?.string else {
                error(node, path, "expected SVG path data, got \(describe(node))")
                return nil
            }
            do {
                return .path(try SVGPathParser.parse(d))
            } catch {
                let (line, column) = svgPlace(node, offset: error.offset)
                self.error(
                    line: line, column: column, path,
                    "invalid SVG path: \(error.message) at offset \(error.offset)")
            }
            return nil
        case "rect":
            // A rect shape takes the layer's cornerRadius unless it has its own.
            p.shapeCornerRadius = p.cornerRadius
            if node.mapping != nil {
                guard let r = fields(node, path, known: ["rect", "cornerRadius"]),
                    require("rect", in: r),
                    let rect = rect(r["rect"]!, r.path("rect"))
                else { return nil }
                p.shapeRect = rect
                if let n = r["cornerRadius"],
                    let v = slot(n, r.path("cornerRadius"), follow: ["rect.cornerRadius"])
                {
                    p.shapeCornerRadius = v
                }
                return .rect
            }
            guard let rect = rect(node, path) else { return nil }
            p.shapeRect = rect
            return .rect
        case "ellipse":
            guard let rect = rect(node, path) else { return nil }
            p.shapeRect = rect
            return .ellipse
        default:
            return readArc(node, path, &p)
        }
    }

    /// Where an SVG error offset lies in the file, for one-line plain or quoted scalars
    /// (escapes aside); the scalar's own place otherwise.
    private func svgPlace(_ node: Node, offset: Int) -> (Int?, Int?) {
        guard let scalar = node.scalar, let mark = scalar.mark else {
            return (node.mark?.line, node.mark?.column)
        }
        let prefix = scalar.string.utf8.prefix(offset)
        let columns = String(decoding: prefix, as: UTF8.self).unicodeScalars.count
        switch scalar.style {
        case .plain where !prefix.contains(10): return (mark.line, mark.column + columns)
        case .singleQuoted where !prefix.contains(10), .doubleQuoted where !prefix.contains(10):
            return (mark.line, mark.column + 1 + columns)
        default: return (mark.line, mark.column)
        }
    }

    /// `{ center, radius, start, end, clockwise }`; `start` defaults to 0 and `clockwise`
    /// to true (on screen, y down), the direction angles grow in.
    private func readArc(_ node: Node, _ path: String, _ p: inout LayerProperties) -> ShapeGeometry?
    {
        guard let f = fields(node, path, known: Self.arcKeys) else { return nil }
        let complete = require("center", "radius", "end", in: f)
        if let n = f["center"],
            let v = slots(n, f.path("center"), count: 2, shape: "a point [x, y]", follow: [])
        {
            p.arcCenter = Point(v[0], v[1])
        }
        if let n = f["radius"], let v = slot(n, f.path("radius"), follow: ["arc.radius"]) {
            if v < 0 {
                error(n, f.path("radius"), "must not be negative, got \(describe(n))")
            } else {
                p.arcRadius = v
            }
        }
        if let n = f["start"], let v = slot(n, f.path("start"), follow: ["arc.start"]) {
            p.arcStart = v
        }
        if let n = f["end"], let v = slot(n, f.path("end"), follow: ["arc.end"]) { p.arcEnd = v }
        var clockwise = true
        if let n = f["clockwise"], let v = bool(n, f.path("clockwise")) { clockwise = v }
        return complete ? .arc(clockwise: clockwise) : nil
    }

    /// CAGradientLayer; start and end points keep Core Animation's defaults,
    /// (0.5, 0) → (0.5, 1), when left out.
    private func readGradient(_ node: Node, _ path: String, _ p: inout LayerProperties)
        -> GradientKind?
    {
        guard let f = fields(node, path, known: Self.gradientKeys), require("colors", in: f) else {
            return nil
        }
        var kind = GradientKind.axial
        if let n = f["type"], let v = choice(n, f.path("type"), [GradientKind.axial, .radial]) {
            kind = v
        }
        let colorsNode = f["colors"]!
        if let items = colorsNode.sequence, !items.isEmpty {
            let colors = items.enumerated().map { color($1, "\(f.path("colors"))[\($0)]") }
            if !colors.contains(where: { $0 == nil }) { p.gradientColors = colors.map { $0! } }
        } else {
            error(
                colorsNode, f.path("colors"),
                "expected a list of colors, got \(describe(colorsNode))")
        }
        if let n = f["locations"], let v = numberList(n, f.path("locations")) {
            if !v.isEmpty, let count = colorsNode.sequence?.count, v.count != count {
                error(
                    n, f.path("locations"),
                    "\(counted(v.count, "location")) for \(counted(count, "color")); give one per color or none"
                )
            }
            p.gradientLocations = v
        }
        if let n = f["startPoint"], let v = point(n, f.path("startPoint")) {
            p.gradientStartPoint = v
        }
        if let n = f["endPoint"], let v = point(n, f.path("endPoint")) { p.gradientEndPoint = v }
        return kind
    }

    /// An asset name, or a PNG path relative to the scene (which becomes an asset named
    /// by the path as written).
    private func readContents(_ node: Node, _ path: String, _ f: Fields) -> ImageContent? {
        guard let name = string(node, path) else { return nil }
        var image = ImageContent(asset: name)
        if let n = f["contentsGravity"],
            let v = choice(
                n, f.path("contentsGravity"),
                [ContentsGravity.resize, .resizeAspect, .resizeAspectFill, .center])
        {
            image.gravity = v
        }
        if assets[name] != nil { return image }
        // Declared under `assets:` but missing on disk: already reported there.
        if declaredAssets.contains(name) { return nil }
        if name.contains("/")
            || [".png", ".jpg", ".jpeg"].contains(where: name.lowercased().hasSuffix)
        {
            guard let file = resolveFile(name, node, path, what: "image `\(name)`") else {
                return nil
            }
            assets[name] = file
            return image
        }
        error(
            node, path,
            "unknown asset `\(name)`" + Suggestions.hint(for: name, in: assets.keys.sorted())
                + " (name one under `assets:` or give a .png path)")
        return nil
    }

    /// CATextLayer: `text: { string, font, fontSize, color, alignment, wrapped, truncation, direction }`.
    /// A font that looks like a file (has a `/` or a font file extension) is a path
    /// relative to the scene and must exist; anything else is a fontconfig family or pattern.
    private func readText(_ node: Node, _ path: String, _ p: inout LayerProperties) -> TextContent?
    {
        guard let f = fields(node, path, known: Self.textKeys) else { return nil }
        var text = TextContent(string: "")
        if let n = f["string"] {
            if let s = n.scalar?.string {
                text.string = s
            } else {
                error(n, f.path("string"), "expected text, got \(describe(n))")
            }
        }
        if let n = f["font"], let name = string(n, f.path("font")) {
            let lower = name.lowercased()
            if name.contains("/")
                || [".ttf", ".otf", ".ttc", ".otc", ".pfb"].contains(where: lower.hasSuffix)
            {
                if let file = resolveFile(name, n, f.path("font"), what: "font `\(name)`") {
                    text.font = .file(file)
                }
            } else if name.isEmpty {
                error(
                    n, f.path("font"),
                    "expected a font family or a font file path, got an empty string")
            } else {
                text.font = .family(name)
            }
        }
        if let n = f["fontSize"], let v = slot(n, f.path("fontSize"), follow: ["text.fontSize"]) {
            if v < 0 {
                error(n, f.path("fontSize"), "a font size must not be negative, got \(v)")
            } else {
                p.fontSize = v
            }
        }
        if let n = f["color"], let v = color(n, f.path("color")) { p.textColor = v }
        if let n = f["alignment"], let v = choice(n, f.path("alignment"), TextAlignment.allCases) {
            text.alignment = v
        }
        if let n = f["wrapped"], let v = bool(n, f.path("wrapped")) { text.wrapped = v }
        if let n = f["truncation"], let v = choice(n, f.path("truncation"), TextTruncation.allCases)
        {
            text.truncation = v
        }
        if let n = f["direction"], let v = choice(n, f.path("direction"), TextDirection.allCases) {
            text.direction = v
        }
        return text
    }

    /// CAReplicatorLayer's keys; nil when the layer has none of them. `instanceCount`
    /// defaults to 1 (just the original).
    func readReplicator(_ f: Fields, _ p: inout LayerProperties) -> Replicator? {
        let keys = ["instanceCount", "instanceTransform", "instanceDelay", "instanceAlphaOffset"]
        guard keys.contains(where: f.has) else { return nil }
        var replicator = Replicator(instanceCount: 1)
        if let n = f["instanceCount"], let v = number(n, f.path("instanceCount")) {
            // The cap keeps Int(v) safe and a typo from asking for billions of copies.
            if v < 0 || v != v.rounded() || v > 100_000 {
                error(
                    n, f.path("instanceCount"),
                    "expected a whole number of instances from 0 to 100000, got \(describe(n))")
            } else {
                replicator.instanceCount = Int(v)
            }
        }
        if let n = f["instanceDelay"], let v = number(n, f.path("instanceDelay")) {
            replicator.instanceDelay = v
        }
        if let n = f["instanceTransform"],
            let t = readTransform(n, f.path("instanceTransform"), prefix: "instanceTransform")
        {
            p.instanceTransform = t
        }
        return replicator
    }
}
