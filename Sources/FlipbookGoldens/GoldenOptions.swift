import Foundation
import FlipbookDiff
import FlipbookScene

/// When a rendered frame matches its golden.
public enum GoldenComparison: Sendable, Hashable {
    /// pixelmatch's rules, as `flipbook diff` and `flipbook check` compare (see ``DiffOptions``:
    /// a color threshold, anti-aliasing pixels not counted, ignore regions, pixel limits).
    /// Suits frames whose anti-aliasing may move between platforms or renderers.
    case perceptual(DiffOptions)
    /// Every premultiplied channel of every pixel within `tolerance` levels (0…255) of the
    /// golden, at most `maxDifferingPixels` pixels beyond it. The rendered frame is compared
    /// as its golden PNG would store it (straight alpha, 8 bits), so a frame always matches
    /// the golden recorded from it. `tolerance: 0` is pixel-exact.
    case channels(tolerance: Int, maxDifferingPixels: Int = 0)

    /// pixelmatch's defaults (threshold 0.1, anti-aliasing not counted, no differing pixel).
    public static let perceptual = GoldenComparison.perceptual(DiffOptions())
    /// Pixel-exact.
    public static let exact = GoldenComparison.channels(tolerance: 0)

    /// The pixelmatch options this comparison reports with. For ``channels(tolerance:maxDifferingPixels:)``
    /// they are nominal (threshold 0, anti-aliasing counted, its pixel limit): the reports'
    /// counts come from the channel rule, which ``description`` names.
    public var diffOptions: DiffOptions {
        switch self {
        case .perceptual(let options): return options
        case .channels(_, let limit):
            return DiffOptions(threshold: 0, includeAntiAliased: true, maxDiffPixels: limit)
        }
    }

    /// The rule in words, for failure messages and report titles.
    public var description: String {
        switch self {
        case .perceptual(let o):
            var text = "pixelmatch \(o.metric.rawValue) threshold \(o.threshold)"
            if let limit = o.maxDiffPixels { text += ", at most \(limit) px" }
            if let ratio = o.maxDiffRatio { text += ", at most \(DiffReport.percent(ratio))" }
            return text
        case .channels(let tolerance, let limit):
            let rule = tolerance == 0 ? "pixel-exact" : "every channel within \(tolerance) levels"
            return limit == 0 ? rule : rule + ", at most \(limit) px beyond"
        }
    }
}

/// How a golden check loads, renders and compares: one value that calls pass along, so a
/// new load or render option is one more field rather than one more parameter everywhere.
public struct GoldenOptions: Sendable {
    /// When a frame matches its golden.
    public var comparison: GoldenComparison
    /// How the scene file is read (`.yaml`, `.json` scenes and Lottie `.json`, `.lottie`,
    /// `.tgs` alike): strictness about unsupported features, assets outside the scene's folder.
    public var load: SceneLoader.Options
    /// Whose drawing of a Lottie file to follow: `.lottieWeb` (the default) or
    /// `.coreAnimation` (lottie-ios on an iPhone); the same as `load.lottieCompatibility`.
    public var lottieCompatibility: LottieCompatibility {
        get { load.lottieCompatibility }
        set { load.lottieCompatibility = newValue }
    }
    /// Render scale; nil keeps the scene's (`canvas.scale`, or 1 for Lottie).
    public var scale: Double?
    /// Frame rate; nil keeps the scene's.
    public var fps: Double?
    /// Where diff images and the HTML report go; nil: `$FLIPBOOK_DIFF_DIR/<golden folder name>`,
    /// else `<temporary folder>/flipbook-diffs/<golden folder name>`.
    public var diffFolder: String?

    public init(
        comparison: GoldenComparison = .perceptual,
        load: SceneLoader.Options = SceneLoader.Options(),
        scale: Double? = nil, fps: Double? = nil, diffFolder: String? = nil
    ) {
        self.comparison = comparison
        self.load = load
        self.scale = scale
        self.fps = fps
        self.diffFolder = diffFolder
    }
}

/// Whether golden checks record instead of comparing, when a call does not say.
///
/// In order: the value bound for the current task (Swift Testing's `.recordingGoldens`
/// trait binds it; any code can with `GoldenRecording.$override.withValue(true) { … }`),
/// then the environment variable `FLIPBOOK_RECORD` (1, true or yes). A check given an
/// explicit `record:` ignores both, so goldens made by another tool stay untouched.
public enum GoldenRecording {
    /// The environment variable that turns recording on for a whole run.
    public static let environmentVariable = "FLIPBOOK_RECORD"

    /// Recording for the current task and the tasks it starts; nil defers to the environment.
    @TaskLocal public static var override: Bool? = nil

    /// Whether a check that was not told otherwise records.
    public static var isOn: Bool {
        if let override { return override }
        let value = ProcessInfo.processInfo.environment[environmentVariable]?.lowercased() ?? ""
        return ["1", "true", "yes"].contains(value)
    }
}
