import ArgumentParser
import Flipbook
import FlipbookScene

/// Resource limits and asset access, shared by `render`, `validate` and `info`.
///
/// Defaults suit CI: a scene over a limit is a scene error (exit 2), reported before
/// anything large is allocated.
struct LimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Largest output frame or image asset, in pixels (width × height at the chosen scale).",
            valueName: "pixels"))
    var maxPixels: Int = ResourceLimits.default.maxPixels

    @Option(help: ArgumentHelp("Most frames a scene may have.", valueName: "count"))
    var maxFrames: Int = ResourceLimits.default.maxFrames

    @Option(
        help: ArgumentHelp(
            "Most layers, counting every replicator instance (counts multiply through nesting).",
            valueName: "count"))
    var maxLayers: Int = ResourceLimits.default.maxLayers

    @Option(help: ArgumentHelp("Most path elements over all shape paths.", valueName: "count"))
    var maxPathElements: Int = ResourceLimits.default.maxPathElements

    @Option(
        help: ArgumentHelp(
            "Most memory for frames in flight and decoded images, in bytes; K, M and G suffixes "
                + "(powers of 1024) work. Also bounds reading a file: a quarter for its (decompressed) "
                + "bytes, half for a parsed Lottie document.", valueName: "bytes"))
    var maxMemory: ByteCount = ByteCount(ResourceLimits.default.maxMemory)

    @Option(
        help: ArgumentHelp(
            "Most keyframes in a Lottie file, counted as it is read.", valueName: "count"))
    var maxKeyframes: Int = ResourceLimits.default.maxKeyframes

    @Option(help: ArgumentHelp("Most colour stops in one Lottie gradient.", valueName: "count"))
    var maxGradientStops: Int = ResourceLimits.default.maxGradientStops

    @Option(help: ArgumentHelp("Most characters of text in a Lottie file.", valueName: "count"))
    var maxTextLength: Int = ResourceLimits.default.maxTextLength

    @Flag(help: "Allow asset, image and font paths outside the scene's folder.")
    var allowOutsideAssets = false

    @OptionGroup var compatibility: LottieCompatibilityOption

    @Flag(
        help:
            "Fail (exit 2) instead of warning when a Lottie file uses what Flipbook renders without (expressions, 3D layers, unsupported effects)."
    )
    var strict = false

    func validate() throws {
        for (name, value) in [
            ("--max-pixels", maxPixels), ("--max-frames", maxFrames), ("--max-layers", maxLayers),
            ("--max-path-elements", maxPathElements), ("--max-memory", maxMemory.bytes),
            ("--max-keyframes", maxKeyframes), ("--max-gradient-stops", maxGradientStops),
            ("--max-text-length", maxTextLength),
        ] where value < 1 {
            throw ValidationError("\(name) must be at least 1, got \(value)")
        }
    }

    /// The limits these flags set.
    func limits() -> ResourceLimits {
        ResourceLimits(
            maxPixels: maxPixels, maxFrames: maxFrames, maxLayers: maxLayers,
            maxPathElements: maxPathElements,
            maxMemory: maxMemory.bytes, maxKeyframes: maxKeyframes,
            maxGradientStops: maxGradientStops,
            maxTextLength: maxTextLength)
    }

    /// Frames that exist at once in a render on `jobs` threads (nil: one frame at a time,
    /// and one being encoded): each worker holds a frame, the in-order window holds two per
    /// worker more, and the encoder a batch.
    static func framesInFlight(jobs: Int?) -> Int {
        guard let jobs else { return 2 }
        let (product, overflow) = 4.multipliedReportingOverflow(by: max(1, jobs))
        let (sum, overflow2) = product.addingReportingOverflow(2)
        return overflow || overflow2 ? .max : sum
    }

    /// Limit messages name the flag that raises each limit.
    static let flagNaming = LimitNaming { setting in
        switch setting {
        case .maxPixels: "--max-pixels"
        case .maxFrames: "--max-frames"
        case .maxLayers: "--max-layers"
        case .maxPathElements: "--max-path-elements"
        case .maxMemory: "--max-memory"
        case .maxKeyframes: "--max-keyframes"
        case .maxGradientStops: "--max-gradient-stops"
        case .maxTextLength: "--max-text-length"
        case .jobs: "--jobs"
        case .size: "--size"
        case .maxSize: "--max-size"
        case .quality: "--quality"
        case .lossy: "--lossy"
        }
    }

    var loaderOptions: SceneLoader.Options {
        SceneLoader.Options(
            allowOutsideAssets: allowOutsideAssets, strict: strict, limits: limits(),
            lottieCompatibility: compatibility.lottieCompat)
    }

    /// How a scene is prepared with these options at `scale` or `size` and `fps` (the
    /// scene's unless given) on `jobs` threads (nil: one frame at a time).
    func preparation(
        scale: Double? = nil, size: (width: Int, height: Int)? = nil, fps: Double? = nil,
        jobs: Int? = nil
    ) -> PreparationOptions {
        PreparationOptions(
            loader: loaderOptions, limits: limits(), scale: scale, size: size, fps: fps,
            framesInFlight: Self.framesInFlight(jobs: jobs), naming: Self.flagNaming)
    }

    /// Loads a scene with these options and checks it against the limits at `scale` and
    /// `fps` on `jobs` threads, printing its warnings; exits 2 with every diagnostic or
    /// broken limit.
    func load(_ path: String, scale: Double? = nil, fps: Double? = nil, jobs: Int? = nil) throws
        -> Scene
    {
        do {
            let loaded = try ScenePreparation.load(
                path: path, options: preparation(scale: scale, fps: fps, jobs: jobs))
            for warning in loaded.warnings { printError(warning) }
            return loaded.scene
        } catch {
            try Self.exit(with: error)
        }
    }

    /// Loads, checks and prepares a scene as ``load(_:scale:fps:jobs:)`` does, and builds
    /// its renderer (frames of exactly `size` pixels when given); prints its warnings.
    func renderer(
        _ path: String, scale: Double? = nil, size: (width: Int, height: Int)? = nil,
        fps: Double? = nil,
        jobs: Int? = nil
    ) throws -> SceneRenderer {
        do {
            let prepared = try ScenePreparation.prepare(
                path: path,
                options: preparation(
                    scale: scale, size: size, fps: fps,
                    jobs: jobs))
            for warning in prepared.warnings { printError(warning) }
            return prepared.renderer
        } catch {
            try Self.exit(with: error)
        }
    }

    /// Prints a scene's warnings and problems and exits 2 (130 when interrupted).
    private static func exit(with error: ScenePreparationError) throws -> Never {
        try Interruption.exitIfInterrupted(error, target: "every output")
        for line in error.warnings + error.messages { printError(line) }
        throw ExitStatus.badScene
    }

    /// Loads and prepares a scene as `validate` does, without printing: the renderer and
    /// its warnings, or the messages `validate` prints for it (``ScenePreparationError``).
    /// `preview` shows these same messages in its error banner.
    func prepare(_ path: String, scale: Double? = nil) -> Result<
        PreparedScene, ScenePreparationError
    > {
        Result { () throws(ScenePreparationError) in
            try ScenePreparation.prepare(path: path, options: preparation(scale: scale))
        }
    }
}

/// `--lottie-compat`: whose drawing of a Lottie file to follow, on every command that reads one.
struct LottieCompatibilityOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Lottie files drawn as lottie-web (After Effects, ThorVG, rlottie) or as core-animation "
                + "(lottie-ios's Core Animation engine on an iPhone).", valueName: "player"))
    var lottieCompat: LottieCompatibility = .lottieWeb
}

extension LottieCompatibility: ExpressibleByArgument {}

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
        for (suffix, unit) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]
        where bytes % unit == 0 && bytes >= unit {
            return "\(bytes / unit)\(suffix)"
        }
        return String(bytes)
    }

    var defaultValueDescription: String { description }
}
