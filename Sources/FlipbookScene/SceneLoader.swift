import FlipbookGeometry
import Foundation
import Yams

/// Turns a scene file (YAML, or JSON, which YAML reads too) into a validated, resolved
/// ``Scene``: defaults filled in, `frame`s converted, assets made absolute.
///
/// Problems never stop the reading early: every one found is reported, each with file,
/// line, column and the key path where it sits, in one ``SceneError``.
///
/// Defaults where the format is silent:
/// - `version` may be left out (it means 1); any other value is an error.
/// - `canvas.scale` 1, `snap` round, `background` white, `fps` 30, `loop` 0.
/// - `canvas.duration`, when left out, is the end of the last finite animation
///   (`at` + active duration), or 1 s without one: a scene plays its animations through.
public enum SceneLoader {
    /// What a load allows beyond the defaults.
    public struct Options: Sendable, Equatable {
        /// Accept asset, image and font paths that lead out of the scene's folder (`..`,
        /// absolute paths, symlinks pointing elsewhere). Off by default, so that a scene
        /// from an untrusted pull request cannot read files elsewhere on the machine.
        public var allowOutsideAssets: Bool
        /// Treat what a reader could only render without (``Scene/warnings``: Lottie
        /// expressions, 3D layers, unsupported effects) as errors.
        public var strict: Bool
        /// The limits a reader counts while it reads (layers, keyframes, path elements,
        /// gradient stops, text length, and the memory a parsed document may hold), so
        /// that a hostile file is refused before it has been read whole.
        public var limits: ResourceLimits
        /// Which player's rendering a Lottie file is read for where players differ.
        public var lottieCompatibility: LottieCompatibility

        public init(
            allowOutsideAssets: Bool = false, strict: Bool = false,
            limits: ResourceLimits = .default,
            lottieCompatibility: LottieCompatibility = .lottieWeb
        ) {
            self.allowOutsideAssets = allowOutsideAssets
            self.strict = strict
            self.limits = limits
            self.lottieCompatibility = lottieCompatibility
        }
    }

    /// Reads a .yaml/.yml/.json scene file. Asset paths resolve relative to the file's folder.
    public static func load(path: String, options: Options = Options()) throws(SceneError) -> Scene
    {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SceneError(diagnostics: [
                Diagnostic(
                    file: path, line: nil, column: nil, keyPath: "",
                    message: "cannot read the scene file")
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SceneError(diagnostics: [
                Diagnostic(
                    file: path, line: nil, column: nil, keyPath: "",
                    message: "the scene file is not UTF-8 text")
            ])
        }
        return try parse(text, path: path, options: options)
    }

    /// Parses scene text; `path` is used for messages and asset resolution (nil: cwd).
    public static func parse(_ text: String, path: String?, options: Options = Options())
        throws(SceneError) -> Scene
    {
        let base =
            path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.currentDirectoryPath
        let reader = SceneReader(file: path, baseDirectory: base)
        reader.allowOutsideAssets = options.allowOutsideAssets
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            reader.reportSyntax(error)
            throw SceneError(diagnostics: reader.sortedDiagnostics)
        }
        guard let root else {
            reader.error(at: nil, "", "the scene is empty")
            throw SceneError(diagnostics: reader.sortedDiagnostics)
        }
        var scene = reader.readScene(root)
        scene.sourcePath = path
        guard reader.diagnostics.isEmpty else {
            throw SceneError(diagnostics: reader.sortedDiagnostics)
        }
        return scene
    }
}

extension SceneReader {
    static let topKeys = ["version", "canvas", "assets", "layers", "animations"]
    static let canvasKeys = ["size", "scale", "snap", "background", "fps", "duration", "loop"]

    /// Turns a YAML syntax error into a diagnostic at its mark.
    func reportSyntax(_ error: any Error) {
        guard let yamlError = error as? YamlError else {
            self.error(at: nil, "", "cannot parse the scene: \(error)")
            return
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text))" } ?? ""
            self.error(at: mark, "", "YAML syntax error: \(problem)\(while_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            self.error(at: context.mark, "", "duplicate key \(names) in one mapping")
        default:
            self.error(at: nil, "", "cannot parse the scene: \(yamlError)")
        }
    }

    func readScene(_ root: Node) -> Scene {
        var scene = Scene(canvas: Canvas(size: .zero))
        guard let f = fields(root, "", known: Self.topKeys, what: "a mapping of scene keys") else {
            return scene
        }
        if let v = f["version"], let version = number(v, "version"), version != 1 {
            error(v, "version", "unsupported version \(describe(v)); this loader reads version 1")
        }
        var durationGiven = false
        if let c = f["canvas"] {
            (scene.canvas, durationGiven) = readCanvas(c)
        } else {
            error(root, "", "missing `canvas`")
        }
        if let a = f["assets"] { readAssets(a) }
        // Layers before animations whatever the key order: animations name layers.
        if let l = f["layers"] { scene.layers = readLayers(l, "layers") }
        if let a = f["animations"] { scene.animations = readAnimations(a) }
        checkFollows()
        scene.assets = assets
        if !durationGiven {
            let ends = scene.animations.map { $0.begin + $0.activeDuration }.filter(\.isFinite)
            scene.canvas.duration = ends.max().map { max($0, 1 / scene.canvas.fps) } ?? 1
        }
        return scene
    }

    /// The canvas, and whether it named a duration.
    func readCanvas(_ node: Node) -> (Canvas, Bool) {
        var canvas = Canvas(size: .zero)
        guard let f = fields(node, "canvas", known: Self.canvasKeys) else { return (canvas, true) }
        if let n = f["size"] {
            if let s = size(n, f.path("size")) {
                if s.width > 0, s.height > 0 {
                    canvas.size = s
                } else {
                    error(n, f.path("size"), "the canvas needs a positive width and height")
                }
            }
        } else {
            error(node, "canvas", "missing `size`")
        }
        if let n = f["scale"], let v = positive(n, f.path("scale")) { canvas.scale = v }
        if let n = f["snap"], let v = choice(n, f.path("snap"), SnapMode.allCases) {
            canvas.snap = v
        }
        if let n = f["background"], let v = color(n, f.path("background")) { canvas.background = v }
        if let n = f["fps"], let v = positive(n, f.path("fps")) { canvas.fps = v }
        if let n = f["duration"], let v = nonNegative(n, f.path("duration")) { canvas.duration = v }
        if let n = f["loop"], let v = nonNegative(n, f.path("loop")) {
            // GIF stores the loop count in 16 bits.
            if v == v.rounded(), v <= 65535 {
                canvas.loop = Int(v)
            } else {
                error(
                    n, f.path("loop"), "expected a whole number from 0 to 65535, got \(describe(n))"
                )
            }
        }
        return (canvas, f.has("duration"))
    }

    func positive(_ node: Node, _ path: String) -> Double? {
        guard let v = number(node, path) else { return nil }
        guard v > 0 else {
            error(node, path, "must be greater than 0, got \(describe(node))")
            return nil
        }
        return v
    }

    /// Asset name → absolute path; a missing file is an error naming the asset.
    func readAssets(_ node: Node) {
        if node.null != nil { return }
        guard let mapping = node.mapping else {
            error(
                node, "assets",
                "expected a mapping of asset names to file paths, got \(describe(node))")
            return
        }
        for (keyNode, value) in mapping {
            guard let name = keyNode.scalar?.string else { continue }
            let path = SceneReader.join("assets", name)
            declaredAssets.insert(name)
            guard let file = string(value, path) else { continue }
            if let resolved = resolveFile(file, value, path, what: "asset `\(name)`") {
                assets[name] = resolved
            }
        }
    }

    /// An absolute, standardized path for `file` (relative to the scene's folder), or nil
    /// with a diagnostic when no such file exists.
    func resolveFile(_ file: String, _ node: Node, _ path: String, what: String) -> String? {
        let url =
            file.hasPrefix("/")
            ? URL(fileURLWithPath: file)
            : URL(fileURLWithPath: baseDirectory).appendingPathComponent(file)
        let resolved = url.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else {
            error(node, path, "\(what): no file at `\(resolved)`")
            return nil
        }
        if !allowOutsideAssets {
            let (inside, real) = AssetConfinement.check(resolved, inside: baseDirectory)
            guard inside else {
                error(
                    node, path,
                    "\(what): `\(file)` leads outside the scene's folder (to `\(real)`); "
                        + "pass --allow-outside-assets to allow it")
                return nil
            }
        }
        return resolved
    }
}
