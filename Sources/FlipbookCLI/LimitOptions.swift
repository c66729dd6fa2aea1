import ArgumentParser
import Flipbook
import FlipbookScene

/// Resource limits and asset access, shared by `render`, `validate` and `info`.
///
/// Defaults suit CI: a scene over a limit is a scene error (exit 2), reported before
/// anything large is allocated.
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Largest output frame or image asset, in pixels (width × height at the chosen scale).",
                               valueName: "pixels"))
    var maxPixels: Int = ResourceLimits.default.maxPixels

    @Option(help: ArgumentHelp("Most frames a scene may have.", valueName: "count"))
    var maxFrames: Int = ResourceLimits.default.maxFrames

    @Option(help: ArgumentHelp("Most layers, counting every replicator instance (counts multiply through nesting).",
                               valueName: "count"))
    var maxLayers: Int = ResourceLimits.default.maxLayers

    @Option(help: ArgumentHelp("Most path elements over all shape paths.", valueName: "count"))
    var maxPathElements: Int = ResourceLimits.default.maxPathElements

    @Option(help: ArgumentHelp("Most memory for frames in flight and decoded images, in bytes; K, M and G suffixes "
                               + "(powers of 1024) work. Also bounds reading a file: a quarter for its (decompressed) "
                               + "bytes, half for a parsed Lottie document.", valueName: "bytes"))
    var maxMemory: ByteCount = ByteCount(ResourceLimits.default.maxMemory)

    @Option(help: ArgumentHelp("Most keyframes in a Lottie file, counted as it is read.", valueName: "count"))
    var maxKeyframes: Int = ResourceLimits.default.maxKeyframes

    @Option(help: ArgumentHelp("Most colour stops in one Lottie gradient.", valueName: "count"))
    var maxGradientStops: Int = ResourceLimits.default.maxGradientStops

    @Option(help: ArgumentHelp("Most characters of text in a Lottie file.", valueName: "count"))
    var maxTextLength: Int = ResourceLimits.default.maxTextLength

    @Flag(help: "Allow asset, image and font paths outside the scene's folder.")
    var allowOutsideAssets = false

    @OptionGroup var compatibility: LottieCompatibilityOption

    @Flag(help: "Fail (exit 2) instead of warning when a Lottie file uses what Flipbook renders without (expressions, 3D layers, unsupported effects).")
    var strict = false

    func validate() throws {
        for (name, value) in [("--max-pixels", maxPixels), ("--max-frames", maxFrames), ("--max-layers", maxLayers),
                              ("--max-path-elements", maxPathElements), ("--max-memory", maxMemory.bytes),
                              ("--max-keyframes", maxKeyframes), ("--max-gradient-stops", maxGradientStops),
                              ("--max-text-length", maxTextLength)] where value < 1 {
            throw ValidationError("\(name) must be at least 1, got \(value)")
        }
    }

    /// The limits for a render on `jobs` threads (nil: one frame at a time).
    func limits(jobs: Int? = nil) -> ResourceLimits {
        let limits = ResourceLimits(maxPixels: maxPixels, maxFrames: maxFrames, maxLayers: maxLayers,
                                    maxPathElements: maxPathElements, maxMemory: maxMemory.bytes,
                                    maxKeyframes: maxKeyframes, maxGradientStops: maxGradientStops,
                                    maxTextLength: maxTextLength)
        return jobs.map(limits.forJobs) ?? limits
    }

    var loaderOptions: SceneLoader.Options {
        SceneLoader.Options(allowOutsideAssets: allowOutsideAssets, strict: strict, limits: limits(),
                            lottieCompatibility: compatibility.lottieCompat)
    }

    /// Loads a scene with these options and checks it against the limits at `scale` and
    /// `fps` (the scene's unless given) on `jobs` threads, exiting 2 with every
    /// diagnostic or broken limit.
    func load(_ path: String, scale: Double? = nil, fps: Double? = nil, jobs: Int? = nil) throws -> Scene {
        let scene: Scene
        do {
            scene = try SceneFile.load(path: path, options: loaderOptions)
        } catch {
            try Interruption.exitIfInterrupted(error, target: "every output")
            printError("\(error)")
            throw ExitStatus.badScene
        }
        if let warning = SceneFile.warningLine(path: path, scene) { printError(warning) }
        let problems = limits(jobs: jobs).violations(of: scene, scale: scale, fps: fps)
        guard problems.isEmpty else {
            for problem in problems { printError("\(path): \(problem)") }
            throw ExitStatus.badScene
        }
        return scene
    }
}

extension LimitOptions {
    /// Loads and prepares a scene as `validate` does, without printing: the renderer, or
    /// the messages `validate` prints for it, one per element (loader diagnostics as
    /// file:line:column: message, broken limits and renderer errors after the path).
    /// `preview` shows these same messages in its error banner.
    func prepare(_ path: String, scale: Double? = nil) -> Result<SceneRenderer, ScenePreparationError> {
        let scene: Scene
        do { scene = try SceneFile.load(path: path, options: loaderOptions) } catch {
            return .failure(ScenePreparationError(messages: ["\(error)"]))
        }
        let problems = limits().violations(of: scene, scale: scale)
        guard problems.isEmpty else { return .failure(ScenePreparationError(messages: problems.map { "\(path): \($0)" })) }
        do { return .success(try SceneRenderer(scene: scene, scale: scale, limits: limits())) } catch {
            return .failure(ScenePreparationError(messages: ["\(path): \(error)"]))
        }
    }
}

/// `--lottie-compat`: whose drawing of a Lottie file to follow, on every command that reads one.
struct LottieCompatibilityOption: ParsableArguments {
    @Option(help: ArgumentHelp("Lottie files drawn as lottie-web (After Effects, ThorVG, rlottie) or as core-animation "
                               + "(lottie-ios's Core Animation engine on an iPhone).", valueName: "player"))
    var lottieCompat: LottieCompatibility = .lottieWeb
}

extension LottieCompatibility: ExpressibleByArgument {}

/// Why a scene could not be prepared: the lines `validate` prints.
struct ScenePreparationError: Error {
    var messages: [String]
}

/// A byte count with an optional K/M/G/T suffix (powers of 1024).
struct ByteCount: ExpressibleByArgument, CustomStringConvertible {
    var bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var text = argument.uppercased()
        if text.hasSuffix("B") { text.removeLast() }
        var multiplier = 1
        if let last = text.last, let unit = units[last] {
            multiplier = unit
            text.removeLast()
        }
        guard let value = Int(text), value >= 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }

    var description: String {
        for (suffix, unit) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % unit == 0 && bytes >= unit {
            return "\(bytes / unit)\(suffix)"
        }
        return String(bytes)
    }

    var defaultValueDescription: String { description }
}
