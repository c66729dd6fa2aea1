import FlipbookGeometry
import FlipbookRaster

/// Frames by index, as the exporters take them: a scene's ``SceneRenderer``, frames read
/// back from files (`flipbook assemble`), or another source observed on the way
/// (``intercepted(_:)``).
public protocol FrameSource: Sendable {
    /// Every frame's size in pixels.
    var pixelSize: (width: Int, height: Int) { get }
    /// Frames per second: frame i shows at i / fps.
    var fps: Double { get }
    /// How often the animation plays (0: forever), as the scene's canvas says.
    var loopCount: Int { get }
    /// The canvas background, already drawn into every frame (a GIF stores an opaque one
    /// as its background colour).
    var background: Color { get }
    /// Where exporters add the CPU time of encoding and writing (nil: not measured).
    var timings: StageTimings? { get }
    /// Frame `index`. Called from any thread; an export asks for each index once.
    func frame(_ index: Int) -> Pixmap
}

/// Writes frames of a ``FrameSource`` to one output (a file, or a folder of files) and
/// returns the bytes written. A new output format is one more type conforming to this,
/// beside ``GIFExporter`` and ``PNGSequenceExporter``; its encoding options are its stored
/// properties.
public protocol FrameExporter: Sendable {
    /// Writes `frames` of `source` to `path` on `jobs` threads, atomically: a failed or
    /// interrupted export (``RenderCancelled``) leaves what was there before.
    func export(_ source: some FrameSource, frames: ClosedRange<Int>, to path: String, jobs: Int)
        throws -> Int
}

/// Another source's frames, each produced through `body`, which gets the index and the
/// base source's frame (to call, or not: a replay returns frames kept from before).
public struct InterceptedFrames<Base: FrameSource>: FrameSource {
    public let base: Base
    let body: @Sendable (_ index: Int, _ baseFrame: () -> Pixmap) -> Pixmap

    public var pixelSize: (width: Int, height: Int) { base.pixelSize }
    public var fps: Double { base.fps }
    public var loopCount: Int { base.loopCount }
    public var background: Color { base.background }
    public var timings: StageTimings? { base.timings }

    public func frame(_ index: Int) -> Pixmap { body(index) { base.frame(index) } }
}

extension FrameSource {
    /// This source with every frame produced through `body` (batch renders throttle, count
    /// and thumbnail frames this way; `--max-size` keeps and replays them).
    public func intercepted(
        _ body: @escaping @Sendable (_ index: Int, _ baseFrame: () -> Pixmap) -> Pixmap
    )
        -> InterceptedFrames<Self>
    {
        InterceptedFrames(base: self, body: body)
    }
}
