import FlipbookGeometry
import FlipbookScene
import Foundation

/// Reads a Lottie (Bodymovin) document into the resolved ``Scene`` model: one more front
/// end beside the YAML reader, as usvg is for resvg. The timeline and renderer draw the
/// result like any scene.
///
/// Mapping, in short (docs/lottie.md has the whole table):
/// - the composition is the canvas (`w`×`h` points, `fr` fps, frames `ip`…`op`); a root
///   layer's clock starts at `ip`, so frame i of the output shows Lottie frame ip + i;
/// - each Lottie layer is a ``Layer`` with ``LayerCompositing``: its After Effects
///   transform, its clock (`st`), the span it exists in (`ip`…`op`), masks, effects and
///   blend mode; `parent` chains become container layers carrying the parents'
///   transforms (not their opacity); a track matte becomes a container whose `mask` is
///   the matte layer, with the matte's ``MaskMode``;
/// - precomps are a clip container (`w`×`h`, masksToBounds) holding a clock layer
///   (stretch `sr`, time remap `tm`) holding the precomp's layers;
/// - shape layers hold ``VectorShape`` artwork; solids, images and text become
///   sublayers drawn in the layer's coordinates.
final class LottieReader {
    let file: String?
    let baseDirectory: String
    let allowOutsideAssets: Bool
    /// The limits counted while the model is built (layers, keyframes, path elements,
    /// gradient stops, text length); the parser counts layers and memory before.
    let limits: ResourceLimits
    /// Whose drawing to follow where players differ (``LottieCompatibility``).
    let compatibility: LottieCompatibility
    /// Counts against ``limits``, and whether one was passed (reading then winds down
    /// without building more).
    var keyframesRead = 0
    var pathElementsRead = 0
    var textRead = 0
    private(set) var overLimit = false
    /// Images inside a dotLottie archive, by their path in it.
    var packagedImages: [String: [UInt8]] = [:]
    var diagnostics: [Diagnostic] = []
    /// (layer, feature) pairs rendered without, in first-seen order.
    var unsupported: [SceneWarning] = []
    var frameRate = 30.0
    /// The animation's end (the root's `op`) in the frames of the composition being read;
    /// infinity inside a time-remapped precomposition, whose frames need not reach it.
    var endFrame = Double.infinity
    var currentLayer = ""
    var assetNodes: [String: JSONNode] = [:]
    var fileAssets: [String: String] = [:]
    var embeddedAssets: [String: [UInt8]] = [:]
    var fonts: [String: JSONNode] = [:]
    var glyphs: [String: JSONNode] = [:]
    private var usedIDs: Set<String> = []
    private var nextSuffix: [String: Int] = [:]
    var builtLayers: Int { usedIDs.count }

    init(
        file: String?, baseDirectory: String, allowOutsideAssets: Bool,
        limits: ResourceLimits = .default,
        compatibility: LottieCompatibility = .lottieWeb
    ) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.allowOutsideAssets = allowOutsideAssets
        self.limits = limits
        self.compatibility = compatibility
    }

    /// Whether the file is read as lottie-ios's Core Animation engine draws it.
    var coreAnimation: Bool { compatibility == .coreAnimation }

    /// Adds `n` to a count; past `limit` it reports once, as a ``LimitViolation`` of
    /// `item` (the caller names the setting that raises it), and reading stops building.
    /// Returns false when over.
    func count(
        _ total: inout Int, _ n: Int, limit: Int, at node: JSONNode,
        item: LimitViolation.CountedItem
    ) -> Bool {
        guard !overLimit else { return false }
        let (sum, overflow) = total.addingReportingOverflow(n)
        total = overflow ? .max : sum
        guard total > limit else { return true }
        overLimit = true
        diagnostics.append(
            Diagnostic(
                file: file, line: nil, column: nil, keyPath: node.path,
                violation: LimitViolation(.fileCount(item), limit: limit)))
        return false
    }

    /// An integer field (`ty`, `ind`, `parent`, `tt`, …): a number that converts exactly
    /// enough (|v| ≤ 2^53, fraction dropped); anything else is an error at its path, so
    /// that no conversion can trap on 1e308.
    func integer(_ node: JSONNode, _ what: String) -> Int? {
        guard node.exists else { return nil }
        guard let v = node.number else {
            error(node, "expected \(what) (an integer), got \(node.kind)")
            return nil
        }
        guard abs(v) <= 9_007_199_254_740_992 else {
            error(node, "expected \(what) (an integer), got \(node.kind), out of range")
            return nil
        }
        return Int(v.rounded(.towardZero))
    }

    func error(_ node: JSONNode, _ message: String) {
        diagnostics.append(
            Diagnostic(file: file, line: nil, column: nil, keyPath: node.path, message: message))
    }

    /// Records a feature the current layer uses that is rendered without.
    func warn(_ feature: String) {
        let entry = SceneWarning(layer: currentLayer, feature: feature)
        if !unsupported.contains(entry) { unsupported.append(entry) }
    }

    /// A part players pass over (issue 24 §1: ThorVG, and mostly rlottie, draw the file
    /// without it) is left out with a warning naming its path, where it used to refuse the
    /// file; `--strict` still does.
    func leaveOut(_ node: JSONNode, _ problem: String) {
        warn("`\(node.path)`: \(problem) (left out)")
    }

    /// A scene-unique layer id built from a Lottie name (`name`, `name#2`, …; the next
    /// suffix per name is remembered, so many layers of one name stay linear).
    func uniqueID(_ base: String) -> String {
        let name = base.isEmpty ? "layer" : base
        var n = nextSuffix[name] ?? 1
        var id = n == 1 ? name : "\(name)#\(n)"
        while usedIDs.contains(id) {
            n += 1
            id = "\(name)#\(n)"
        }
        nextSuffix[name] = n + 1
        usedIDs.insert(id)
        return id
    }

    static let topKeys = ["v", "fr", "ip", "op", "w", "h", "layers"]

    func readDocument(_ root: JSONNode) -> Scene {
        var scene = Scene(canvas: Canvas(size: .zero, scale: 1, snap: .none, background: .clear))
        scene.format = .lottie
        guard root.isObject else {
            error(root, "expected a Lottie document (a JSON object), got \(root.kind)")
            return scene
        }
        for key in Self.topKeys where !root[key].exists { error(root, "missing `\(key)`") }
        guard let fr = positive(root["fr"]), let ip = number(root["ip"]),
            let op = number(root["op"]),
            let w = positive(root["w"]), let h = positive(root["h"]),
            let layers = root["layers"].elements
        else {
            if root["layers"].exists && !root["layers"].isArray {
                error(root["layers"], "expected an array of layers, got \(root["layers"].kind)")
            }
            return scene
        }
        guard op > ip else {
            error(root["op"], "the out point (\(op)) must be after the in point (\(ip))")
            return scene
        }
        frameRate = fr
        endFrame = op
        if root["ddd"].bool == true { currentLayer = "(composition)"; warn("3D composition") }
        for asset in root["assets"].elements ?? [] {
            if let id = asset["id"].string { assetNodes[id] = asset }
        }
        for font in root["fonts"]["list"].elements ?? [] {
            if let name = font["fName"].string { fonts[name] = font }
        }
        for glyph in root["chars"].elements ?? [] {
            if let ch = glyph["ch"].string {
                glyphs["\(ch)|\(glyph["fFamily"].string ?? "")|\(glyph["style"].string ?? "")"] =
                    glyph
            }
        }
        var top = Layer(id: uniqueID("lottie"))
        top.compositing = LayerCompositing(timing: LayerTiming(beginTime: -ip / fr))
        _ = layers
        top.sublayers = composition(root["layers"], stack: [])
        scene.layers = [top]
        scene.canvas = Canvas(
            size: Size(w, h), scale: 1, snap: .none, background: .clear, fps: fr,
            duration: (op - ip) / fr)
        scene.canvas.pausedEndIsEndInstant = coreAnimation
        scene.assets = fileAssets
        scene.embeddedAssets = embeddedAssets
        scene.warnings = unsupported
        return scene
    }

    func number(_ node: JSONNode) -> Double? {
        guard let v = node.number else {
            if node.exists { error(node, "expected a number, got \(node.kind)") }
            return nil
        }
        return v
    }

    func positive(_ node: JSONNode) -> Double? {
        guard let v = number(node) else { return nil }
        guard v > 0 else {
            error(node, "must be greater than 0, got \(v)")
            return nil
        }
        return v
    }
}
