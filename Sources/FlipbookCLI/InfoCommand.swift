import ArgumentParser
import Flipbook
import FlipbookScene

/// `flipbook info SCENE`: frame count, duration, pixel size and the layer tree.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a scene's frame count, duration, pixel size and layer tree.")

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "Pixels per point; overrides the scene's canvas scale.")
    var scale: Double?

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let loaded = try limits.load(scene, scale: scale)
        let canvas = loaded.canvas
        let (w, h) = canvas.pixelSize(scale: scale)
        print("scene:      \(loaded.name)")
        print("frames:     \(canvas.frameCount) at \(format(canvas.fps)) fps")
        print("duration:   \(format(canvas.duration)) s")
        print(
            "size:       \(format(canvas.size.width))×\(format(canvas.size.height)) pt, "
                + "\(w)×\(h) px at \(format(scale ?? canvas.scale))×")
        print("format:     \(loaded.format)")
        print("animations: \(loaded.animations.count)")
        if !loaded.warnings.isEmpty {
            print("unsupported (rendered without):")
            for warning in loaded.warnings { print("  \(warning)") }
        }
        print("layers:")
        for layer in loaded.layers { printTree(layer, depth: 1) }
    }

    private func printTree(_ layer: Layer, depth: Int, role: String = "") {
        let indent = String(repeating: "  ", count: depth)
        let p = layer.properties
        var kind: String
        switch layer.content {
        case .none: kind = "layer"
        case .shape: kind = "shape"
        case .gradient(let g): kind = "gradient(\(g.rawValue))"
        case .image(let i): kind = "image(\(i.asset))"
        case .text(let t): kind = "text(\"\(t.string.prefix(24))\")"
        case .vector(let v): kind = "vector(\(v.items.count) items)"
        }
        if let r = layer.replicator { kind = "replicator ×\(r.instanceCount)" }
        let frame =
            "\(format(p.position.x - p.anchorPoint.x * p.bounds.width)), "
            + "\(format(p.position.y - p.anchorPoint.y * p.bounds.height)), "
            + "\(format(p.bounds.width))×\(format(p.bounds.height))"
        print("\(indent)\(role)\(layer.id)  [\(kind)]  frame \(frame)")
        if let mask = layer.mask { printTree(mask, depth: depth + 1, role: "mask: ") }
        for sublayer in layer.sublayers { printTree(sublayer, depth: depth + 1) }
    }

    private func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e12 ? String(Int(v)) : String(v)
    }
}
