import FlipbookGeometry

/// A parsed, validated and resolved scene: every default filled in, every `frame`
/// turned into position and bounds, every asset path made absolute.
///
/// This is the only thing later stages see of a scene file.
public struct Scene: Sendable {
    public var version: Int
    public var canvas: Canvas
    /// Asset name → absolute file path.
    public var assets: [String: String]
    /// Back to front, like a root layer's sublayers.
    public var layers: [Layer]
    public var animations: [Animation]
    /// The file the scene was read from, when it came from a file.
    public var sourcePath: String?
    /// Image assets carried inside the scene file (Lottie's `data:` URIs, dotLottie
    /// images): asset name → encoded bytes. Layers name them like file assets.
    public var embeddedAssets: [String: [UInt8]] = [:]
    /// What the reader could not honour (unsupported features it rendered without), one
    /// each; `info` lists them, commands print them on one warning line, `--strict` turns them into errors.
    public var warnings: [SceneWarning] = []
    /// The source format, for `info` and the limits' messages.
    public var format: SceneFormat = .flipbook

    public init(
        version: Int = 1, canvas: Canvas, assets: [String: String] = [:], layers: [Layer] = [],
        animations: [Animation] = [], sourcePath: String? = nil
    ) {
        self.version = version
        self.canvas = canvas
        self.assets = assets
        self.layers = layers
        self.animations = animations
        self.sourcePath = sourcePath
    }

    /// The scene's name: its file name without extension, or "scene".
    public var name: String {
        guard let path = sourcePath else { return "scene" }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file
    }
}

/// Pixel snapping of layer frames at the canvas scale (YYKit's pixel helpers).
public enum SnapMode: String, Sendable, CaseIterable {
    case none, round, floor, ceil, half
}

/// The drawing surface and the clock.
public struct Canvas: Sendable {
    /// In points.
    public var size: Size
    /// Pixels per point.
    public var scale: Double
    public var snap: SnapMode
    /// `Color.clear` for a transparent canvas.
    public var background: Color
    public var fps: Double
    /// Seconds.
    public var duration: Double
    /// GIF loop count; 0 loops forever.
    public var loop: Int
    /// Whether a player paused at the end shows the end instant itself. Core Animation
    /// does (lottie-ios's Core Animation engine seeks to the out point and keeps the layers
    /// that end there visible); otherwise "100 %" is the last instant before the end.
    public var pausedEndIsEndInstant = false

    public init(
        size: Size, scale: Double = 1, snap: SnapMode = .round, background: Color = .white,
        fps: Double = 30, duration: Double = 1, loop: Int = 0
    ) {
        self.size = size
        self.scale = scale
        self.snap = snap
        self.background = background
        self.fps = fps
        self.duration = duration
        self.loop = loop
    }

    /// round(duration × fps), at least 1.
    /// Saturates (at 2^62) rather than trapping for absurd durations; ``ResourceLimits``
    /// refuses those before anything is rendered.
    public var frameCount: Int { Self.frameCount(duration: duration, fps: fps) }

    /// round(duration × fps), at least 1: the frame count of every render (the scene's rate
    /// or another), the one place it is computed.
    package static func frameCount(duration: Double, fps: Double) -> Int {
        max(1, clampedInt(roundedFrameCount(duration: duration, fps: fps)))
    }

    /// round(duration × fps) as a Double, for checks that must not overflow on absurd values.
    package static func roundedFrameCount(duration: Double, fps: Double) -> Double {
        (duration * fps).rounded()
    }

    /// The time frame `frameIndex` shows: frameIndex / fps.
    public func seconds(ofFrame frameIndex: Int) -> Double { Double(frameIndex) / fps }

    /// Output size in pixels at `scale` (the canvas scale unless overridden).
    public func pixelSize(scale: Double? = nil) -> (width: Int, height: Int) {
        let (width, height) = Self.roundedPixelSize(of: size, scale: scale ?? self.scale)
        return (Canvas.clampedInt(width), Canvas.clampedInt(height))
    }

    /// `size` × `scale` rounded to whole pixels, as Doubles (for checks that must not overflow):
    /// the one place an output size is computed from points.
    package static func roundedPixelSize(of size: Size, scale: Double) -> (
        width: Double, height: Double
    ) {
        ((size.width * scale).rounded(), (size.height * scale).rounded())
    }

    /// Int(v) for finite v within ±2^62, the nearest bound otherwise (0 for NaN), so that
    /// sizes and counts from a hostile scene cannot trap on conversion.
    public static func clampedInt(_ v: Double) -> Int {
        guard !v.isNaN else { return 0 }
        let bound = Double(1 << 62)
        return Int(min(max(v, -bound), bound))
    }
}

/// The format a ``Scene`` was read from.
public enum SceneFormat: String, Sendable, Hashable, CustomStringConvertible {
    /// Flipbook's YAML or JSON scene format.
    case flipbook
    /// Lottie (Bodymovin JSON, dotLottie, Telegram's .tgs).
    case lottie

    /// "flipbook" or "lottie", as `info` prints it.
    public var description: String { rawValue }
}

/// A feature a scene file uses that Flipbook renders without (lottie-ios's
/// `CompatibilityIssue`): which layer, what feature, and the message printed for it.
public struct SceneWarning: Sendable, Hashable, CustomStringConvertible {
    /// The layer that uses the feature, nil for the file as a whole (a dotLottie manifest).
    public var layer: String?
    /// What is rendered without ("expressions", "3D composition", "blend mode 3", …), or for
    /// the file as a whole what is wrong with it.
    public var feature: String

    public init(layer: String?, feature: String) {
        self.layer = layer
        self.feature = feature
    }

    /// As printed: "layer `name`: feature", or the feature alone for the whole file.
    public var message: String { layer.map { "layer `\($0)`: \(feature)" } ?? feature }

    public var description: String { message }
}
