import FlipbookRaster
// Diff results and options speak of pixel rectangles: users of FlipbookDiff (and of
// FlipbookTesting, which re-exports it) get the one type without importing the rasterizer.
@_exported import struct FlipbookRaster.PixelBounds

extension PixelBounds {
    /// Parses "x,y,w,h" (integers, w and h positive, x and y not negative).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: " ")) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2],
            let h = parts[3],
            x >= 0, y >= 0, w > 0, h > 0, w <= Int.max - x, h <= Int.max - y
        else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}

/// How two frames are compared and when a difference is tolerated.
///
/// Rules:
/// - A pixel differs when its distance under ``metric`` exceeds the threshold: YIQ's
///   ``ColorDelta`` Δ over 35215 · threshold², OKLab's ``OklabDelta`` HyAB distance over
///   threshold; semi-transparent pixels are measured over ``backdrop`` (see ``PixelMetric``).
///   pixelmatch main's defaults are `metric: .oklab, backdrop: .checkerboard`; Flipbook's
///   stay YIQ over black and white, the metric its goldens and limits were set with.
/// - A differing pixel that ``AntiAliasDetector`` classifies as anti-aliasing (in either
///   image) is counted apart, as an AA pixel, and not as differing unless
///   `includeAntiAliased` is set.
/// - Pixels inside any ignore region are not compared at all.
/// - A frame is within tolerance when its differing pixels are at most `maxDiffPixels` and
///   its ratio (differing / all pixels of the frame) at most `maxDiffRatio`; a limit left
///   nil does not apply, and with both nil a frame is within tolerance only with no
///   differing pixel. Frames of different sizes are never within tolerance.
/// - With a ``window`` N, the count the limits apply to is the largest number of
///   differing pixels in any N×N window (N clamped to the frame's smaller side), and the
///   ratio is that count over the window's area: a small dense change fails even on a large frame,
///   scattered single pixels do not add up (pixelmatch's `windowSize`).
public struct DiffOptions: Sendable, Hashable, Codable {
    public var threshold: Double
    public var includeAntiAliased: Bool
    public var ignoreRegions: [PixelBounds]
    public var maxDiffPixels: Int?
    public var maxDiffRatio: Double?
    public var metric: DiffMetric
    public var backdrop: Backdrop
    public var window: Int?

    public init(
        threshold: Double = 0.1, includeAntiAliased: Bool = false,
        ignoreRegions: [PixelBounds] = [],
        maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil, metric: DiffMetric = .yiq,
        backdrop: Backdrop = .blackAndWhite, window: Int? = nil
    ) {
        self.threshold = threshold
        self.includeAntiAliased = includeAntiAliased
        self.ignoreRegions = ignoreRegions
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.metric = metric
        self.backdrop = backdrop
        self.window = window
    }

    /// Whether a frame with these counts passes (see the type's rules).
    public func tolerates(differingPixels: Int, ratio: Double) -> Bool {
        if maxDiffPixels == nil && maxDiffRatio == nil { return differingPixels == 0 }
        if let maxDiffPixels, differingPixels > maxDiffPixels { return false }
        if let maxDiffRatio, ratio > maxDiffRatio { return false }
        return true
    }

    /// The first invalid setting, or nil when all are valid.
    public var problem: InvalidSetting? {
        if !(threshold >= 0 && threshold <= 1) { return .threshold(threshold) }
        if let maxDiffPixels, maxDiffPixels < 0 { return .maxDiffPixels(maxDiffPixels) }
        if let maxDiffRatio, !(maxDiffRatio >= 0 && maxDiffRatio <= 1) {
            return .maxDiffRatio(maxDiffRatio)
        }
        if let window, window < 1 { return .window(window) }
        return nil
    }

    /// A setting outside its range, with the value given.
    public enum InvalidSetting: Sendable, Equatable, CustomStringConvertible {
        case threshold(Double)
        case maxDiffPixels(Int)
        case maxDiffRatio(Double)
        case window(Int)

        /// The property that holds it (`threshold`, `maxDiffPixels`, …).
        public var property: String {
            switch self {
            case .threshold: "threshold"
            case .maxDiffPixels: "maxDiffPixels"
            case .maxDiffRatio: "maxDiffRatio"
            case .window: "window"
            }
        }

        /// The sentence, naming the setting `name` (a command line names its flag).
        public func message(name: String) -> String {
            switch self {
            case .threshold(let value): "\(name) must be in 0…1, got \(value)"
            case .maxDiffPixels(let value): "\(name) must be ≥ 0, got \(value)"
            case .maxDiffRatio(let value): "\(name) must be in 0…1, got \(value)"
            case .window(let value): "\(name) must be ≥ 1, got \(value)"
            }
        }

        public var description: String { message(name: property) }
    }
}
