import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookScene

/// Why a scene cannot be shown: the lines `flipbook validate` prints for it
/// (file:line:column: message for the loader's diagnostics).
public struct PreviewProblem: Error, Sendable {
    public var messages: [String]
    public init(messages: [String]) { self.messages = messages }
}

/// Loads the scene file and prepares a renderer at a scale (nil: the scene's own), the
/// way `render` and `validate` do; supplied by the command so that the preview shows
/// exactly what they would.
public typealias PreviewPrepare =
    @Sendable (_ scale: Double?) -> Result<SceneRenderer, PreviewProblem>

/// The state of one preview: the last good scene, the current errors, the files to
/// watch, the encoded frames, and the pages listening for changes.
///
/// Rules:
/// - a reload that succeeds replaces the scene, bumps ``generation``, empties the frame
///   cache and clears the errors; one that fails keeps the last good scene (its frames
///   stay on screen) and sets the errors;
/// - watched files: the scene file always, plus the assets and font files of the last
///   good scene;
/// - every change of state is sent to every listener as one JSON message.
actor PreviewSession {
    let scenePath: String
    let prepare: PreviewPrepare
    private(set) var generation = 0
    private(set) var errors: [String] = []
    private var renderers: [Double: SceneRenderer] = [:]
    private var base: SceneRenderer?
    private var stamps: [String: FileStamp?] = [:]
    private var cache: [String: [UInt8]] = [:]
    private var cacheOrder: [String] = []
    private var cacheBytes = 0
    private var listeners: [UUID: AsyncStream<String>.Continuation] = [:]

    /// Encoded frames kept, in bytes; the oldest go first.
    static let cacheLimit = 256 << 20

    init(scenePath: String, prepare: @escaping PreviewPrepare) {
        self.scenePath = scenePath
        self.prepare = prepare
    }

    /// Loads the scene again and tells the listeners.
    func reload() {
        switch prepare(nil) {
        case .success(let renderer):
            base = renderer
            renderers = [:]
            generation += 1
            errors = []
            cache = [:]; cacheOrder = []; cacheBytes = 0
        case .failure(let problem):
            errors = problem.messages
        }
        stamps = Dictionary(uniqueKeysWithValues: watchedFiles().map { ($0, FileStamp.of($0)) })
        broadcast()
    }

    /// Reloads when a watched file changed since the last load; returns whether it did.
    @discardableResult
    func reloadIfChanged() -> Bool {
        for (path, stamp) in stamps where FileStamp.of(path) != stamp {
            reload()
            return true
        }
        return false
    }

    /// The scene file, and the assets and font files of the last good scene.
    func watchedFiles() -> [String] {
        var files = [scenePath]
        guard let scene = base?.scene else { return files }
        files += scene.assets.values.sorted()
        var fonts = Set<String>()
        for layer in scene.layers {
            layer.forEachLayer { l in
                if case .text(let text) = l.content, case .file(let path) = text.font {
                    fonts.insert(path)
                }
            }
        }
        return files + fonts.sorted()
    }

    /// The renderer at `scale` (nil: the scene's), made from the last good scene; a scale
    /// the limits refuse is a problem.
    func renderer(scale: Double?) -> Result<SceneRenderer, PreviewProblem>? {
        guard let base else { return nil }
        guard let scale, scale != base.scene.canvas.scale else { return .success(base) }
        if let made = renderers[scale] { return .success(made) }
        switch prepare(scale) {
        case .success(let made):
            // The file may have changed since the base was loaded: a renderer of another
            // generation is not kept.
            renderers[scale] = made
            return .success(made)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    func cachedFrame(_ key: String) -> [UInt8]? { cache[key] }

    func store(_ bytes: [UInt8], key: String, generation: Int) {
        guard generation == self.generation, cache[key] == nil else { return }
        cache[key] = bytes
        cacheOrder.append(key)
        cacheBytes += bytes.count
        while cacheBytes > Self.cacheLimit, !cacheOrder.isEmpty {
            let old = cacheOrder.removeFirst()
            cacheBytes -= cache.removeValue(forKey: old)?.count ?? 0
        }
    }

    // MARK: listeners

    func listen() -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(
            bufferingPolicy: .bufferingNewest(8))
        listeners[id] = continuation
        continuation.yield(stateMessage())
        return (id, stream)
    }

    func stopListening(_ id: UUID) {
        listeners.removeValue(forKey: id)?.finish()
    }

    /// A comment line, so that writes to a page that went away fail and free its slot.
    func ping() {
        for continuation in listeners.values { continuation.yield(": ping\n\n") }
    }

    private func broadcast() {
        let message = stateMessage()
        for continuation in listeners.values { continuation.yield(message) }
    }

    /// The state as a server-sent event.
    func stateMessage() -> String {
        "event: state\ndata: " + stateJSON(scale: nil) + "\n\n"
    }

    /// The state as JSON: generation, errors and the scene's facts at `scale`, with its
    /// ``SceneWarning``s (what it renders without: layer, feature and the message `info`
    /// prints; the page lists them, `--strict` would refuse the scene for them).
    func stateJSON(scale: Double?) -> String {
        var object: [String: Any] = [
            "generation": generation, "errors": errors,
            "scene": (scenePath as NSString).lastPathComponent,
        ]
        if case .success(let r)? = renderer(scale: scale) {
            let size = r.pixelSize
            object["width"] = size.width
            object["height"] = size.height
            object["pointWidth"] = r.scene.canvas.size.width
            object["pointHeight"] = r.scene.canvas.size.height
            object["sceneScale"] = r.scene.canvas.scale
            object["scale"] = scale ?? r.scene.canvas.scale
            object["fps"] = r.fps
            object["duration"] = r.scene.canvas.duration
            object["frameCount"] = r.frameCount
            object["layers"] = r.scene.layers.map(Self.tree)
            object["warnings"] = r.scene.warnings.map(Self.warning)
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A warning as `{layer, feature, message}` (no `layer` for the file as a whole).
    static func warning(_ warning: SceneWarning) -> [String: Any] {
        var entry: [String: Any] = ["feature": warning.feature, "message": warning.message]
        if let layer = warning.layer { entry["layer"] = layer }
        return entry
    }

    static func tree(_ layer: Layer) -> [String: Any] {
        let kind: String
        switch layer.content {
        case .none: kind = layer.replicator == nil ? "layer" : "replicator"
        case .shape: kind = "shape"
        case .gradient: kind = "gradient"
        case .image: kind = "image"
        case .text: kind = "text"
        case .vector: kind = "vector"
        }
        var node: [String: Any] = ["id": layer.id, "kind": kind]
        if !layer.sublayers.isEmpty { node["sublayers"] = layer.sublayers.map(tree) }
        if let mask = layer.mask { node["mask"] = tree(mask) }
        return node
    }
}
