import FlipbookScene

/// How a scene file is made ready to render: how it is loaded, the limits it must fit, and
/// the output's scale or exact size and frame rate (the scene's when nil).
public struct PreparationOptions: Sendable {
    public var loader: SceneLoader.Options
    public var limits: ResourceLimits
    public var scale: Double?
    /// Frames of exactly this many pixels, the canvas fitted inside (instead of `scale`;
    /// see ``SceneRenderer/init(scene:fitting:fps:limits:timings:)``).
    public var size: (width: Int, height: Int)?
    public var fps: Double?
    /// Frames that exist at once while rendering (rendered, queued, being encoded), for the
    /// memory limit: 2 for one frame at a time; a caller running several threads passes more.
    public var framesInFlight: Int
    /// How limit messages name the settings to raise (`flipbook` names its flags).
    public var naming: LimitNaming

    public init(
        loader: SceneLoader.Options = SceneLoader.Options(), limits: ResourceLimits = .default,
        scale: Double? = nil, size: (width: Int, height: Int)? = nil, fps: Double? = nil,
        framesInFlight: Int = 2, naming: LimitNaming = .properties
    ) {
        self.loader = loader
        self.limits = limits
        self.scale = scale
        self.size = size
        self.fps = fps
        self.framesInFlight = framesInFlight
        self.naming = naming
    }
}

/// A scene file loaded and checked, with the warning lines a command prints for it.
public struct LoadedScene: Sendable {
    public var scene: Scene
    /// `warning: <path>: …` lines (unsupported features it renders without, characters no
    /// font has); a library prints nothing, its caller does.
    public var warnings: [String]
}

/// A scene file ready to render.
public struct PreparedScene: Sendable {
    public var renderer: SceneRenderer
    /// The loader's warning line and the renderer's (characters no font has), in order.
    public var warnings: [String]
}

/// Why a scene file could not be prepared. Every case makes the scene invalid (exit 2).
public struct ScenePreparationError: Error, CustomStringConvertible {
    /// The lines a command prints, one per problem: loader diagnostics as they are
    /// (file:line:column: message), broken limits and renderer errors after the path.
    public var messages: [String]
    /// The problems without the path, for a report (broken limits joined by "; ").
    public var reason: String
    /// The warnings of a scene that loaded before it failed.
    public var warnings: [String] = []
    /// The limits the scene broke, as data (the `--size` check's last when it failed too).
    public var violations: [LimitViolation] = []

    public var description: String { messages.joined(separator: "\n") }
}

/// The one path from a scene file to a renderer: load it, collect its warnings, check it
/// against the limits (once, from the scene's numbers, before anything large is
/// allocated), build the renderer. Every command, the batch renderer and the golden checks
/// prepare scenes through here.
public enum ScenePreparation {
    /// Loads the file at `path` and checks it against `options.limits` at the output's scale
    /// (fitted to `options.size` when given) and frame rate, without building a renderer
    /// (`flipbook info`). Load and limit checks count as `.load` in `timings`.
    public static func load(
        path: String, options: PreparationOptions,
        timings: StageTimings? = nil
    ) throws(ScenePreparationError) -> LoadedScene {
        let timings = timings ?? StageTimings()
        let scene: Scene
        do {
            scene = try timings.measure(.load) { () throws(SceneError) in
                try SceneFile.load(path: path, options: options.loader)
            }
        } catch {
            let message = error.description(naming: options.naming)
            throw ScenePreparationError(messages: [message], reason: message)
        }
        let warnings = SceneFile.warningLine(path: path, scene).map { [$0] } ?? []
        let scale =
            options.size.map { SceneRenderer.fitScale(scene.canvas.size, into: $0) }
            ?? options.scale
        let violations = timings.measure(.load) {
            options.limits.violations(
                of: scene, scale: scale, fps: options.fps, framesInFlight: options.framesInFlight)
        }
        var broken = violations.map { $0.message(naming: options.naming) }
        var sizeViolation: [LimitViolation] = []
        if let size = options.size,
            let problem = options.limits.imageViolation(width: size.width, height: size.height)
        {
            broken.append(
                "\(options.naming.name(.size)) \(size.width)x\(size.height): "
                    + problem.message(naming: options.naming))
            sizeViolation = [problem]
        }
        guard broken.isEmpty else {
            throw ScenePreparationError(
                messages: broken.map { "\(path): \($0)" }, reason: broken.joined(separator: "; "),
                warnings: warnings, violations: violations + sizeViolation)
        }
        return LoadedScene(scene: scene, warnings: warnings)
    }

    /// Loads and checks the file at `path` (``load(path:options:timings:)``), then builds its
    /// renderer: image assets decoded within the limits, text laid out.
    public static func prepare(
        path: String, options: PreparationOptions,
        timings: StageTimings? = nil
    ) throws(ScenePreparationError) -> PreparedScene {
        let loaded = try load(path: path, options: options, timings: timings)
        let renderer: SceneRenderer
        do {
            renderer = try SceneRenderer(
                checked: loaded.scene, scale: options.scale, fitting: options.size,
                fps: options.fps,
                limits: options.limits, naming: options.naming, timings: timings)
        } catch {
            throw ScenePreparationError(
                messages: ["\(path): \(error)"], reason: "\(error)", warnings: loaded.warnings)
        }
        // Images a Lottie file's players would skip are found only by decoding them; with
        // --strict they refuse the file, as the reader's warnings do (SceneFile.load).
        if options.loader.strict, let skipped = renderer.imageWarning {
            let message = "unsupported features (--strict): \(skipped)"
            throw ScenePreparationError(
                messages: ["\(path): \(message)"], reason: message, warnings: loaded.warnings)
        }
        let warnings =
            loaded.warnings
            + [renderer.imageWarning, renderer.textWarning].compactMap { $0 }.map {
                "warning: \(path): \($0)"
            }
        return PreparedScene(renderer: renderer, warnings: warnings)
    }
}
