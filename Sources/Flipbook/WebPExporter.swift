import Foundation
import FlipbookCodecs
import FlipbookRaster

/// Writes a frame source's frames into an animated WebP: `--lossless` through libwebp's
/// animation encoder, lossy frames as ``WebPLossyChooser`` picks them (``WebPLossyAnimation``).
///
/// Each frame is encoded against the one before, on one thread per segment, so the other
/// threads render frames ahead of it (and work out the lossy frames' candidates). Long
/// animations are cut into segments of ``segmentLength`` frames, each encoded by its own
/// worker and encoder (its first frame a key frame, needing no earlier frame), joined in
/// order with libwebpmux (``WebPAnimationMux``). The cut depends on the frame count alone,
/// never on `jobs`, so the bytes are the same however many threads ran. Timing:
/// ``GIFTiming``'s never-accumulating rounding in milliseconds. The content hash goes into a
/// private chunk (FlipbookBatch's `ContentHash.webpChunk(_:)`).
public struct WebPExporter: FrameExporter {
    /// `--lossless` and `--quality`.
    public var options: WebPEncodingOptions
    /// A metadata chunk for the file (batch renders put the content hash there:
    /// FlipbookBatch's `ContentHash.webpChunk(_:)`).
    public var chunk: WebPChunk?
    /// `--max-size` in bytes (nil: none). Lossy: the best `options.quality` that fits
    /// (``SizeBudget``'s search, as for GIF). `--lossless`: encoded once and refused
    /// (``SizeBudgetError``, nothing written) when larger, since exact pixels leave nothing to trade.
    public var maxSize: Int?

    public init(
        options: WebPEncodingOptions = WebPEncodingOptions(), chunk: WebPChunk? = nil,
        maxSize: Int? = nil
    ) {
        self.options = options
        self.chunk = chunk
        self.maxSize = maxSize
    }

    /// Frames per independently encoded segment. Long, because a key frame is expensive:
    /// cutting the 120 frames of scenes/demo.yaml at frame 64 made its lossless WebP 7.7 %
    /// larger (312,638 bytes instead of 290,302); one key frame per 1024 frames costs
    /// about 1 %.
    public static let segmentLength = 1024

    /// Browsers show a frame of 10 ms or less for 100 ms, so no delay is below 11 ms
    /// (frames above 90 fps are dropped as GIFTiming drops them above 50 fps), as in APNGs.
    public static let minimumDelay = APNGTiming.minimumDelayMilliseconds

    /// The frames kept and their durations in milliseconds.
    public static func plan(frameCount: Int, fps: Double) -> [GIFFramePlan] {
        GIFTiming.plan(
            frameCount: frameCount, fps: fps, ticksPerSecond: 1000, minimumDelay: minimumDelay)
    }

    /// Writes `frames` of `source` to `path` (atomically) and returns the file's size.
    @discardableResult
    public func export(
        _ source: some FrameSource, frames: ClosedRange<Int>, to path: String, jobs: Int
    ) throws -> Int {
        if let budget = maxSize {
            let options = options, chunk = chunk
            if options.lossless {
                return try SizeBudget.exportExact(
                    source, frames: frames, to: path, jobs: jobs, budget: budget,
                    format: "lossless WebP", scratchExtension: "webp",
                    exporter: WebPExporter(options: options, chunk: chunk))
            }
            return try SizeBudget.export(
                source, frames: frames, to: path, jobs: jobs, budget: budget,
                quality: options.quality, format: "WebP", scratchExtension: "webp",
                exporter: { q in
                    WebPExporter(
                        options: WebPEncodingOptions(lossless: false, quality: q), chunk: chunk)
                }, fallbacks: [])
        }
        let timings = source.timings ?? StageTimings()
        let (width, height) = source.pixelSize
        let options = options, chunk = chunk
        let plan = Self.plan(frameCount: frames.count, fps: source.fps)
        // Frame k starts when the frames before it have played.
        var timeline = plan.reduce(into: [0]) { $0.append($0.last! + $1.delay) }
        let end = timeline.removeLast()
        let starts = timeline
        let segmentLength = Self.segmentLength
        let segmentStarts = Array(stride(from: 0, to: plan.count, by: segmentLength))
        var segments: [WebPSegment] = []
        try OrderedParallelMap.run(
            count: segmentStarts.count, jobs: jobs, window: max(1, jobs),
            produce: { s in
                Result { () throws -> WebPSegment in
                    let range = segmentStarts[s]..<min(plan.count, segmentStarts[s] + segmentLength)
                    let writer = try SegmentWriter(width: width, height: height, options: options)
                    let rendered = options.lossless ? nil : RenderedFrames()
                    var first: Pixmap?
                    // The threads left over by the segments render this segment's frames ahead
                    // of its encoder (which polls for a stop between frames).
                    let renderers = max(1, jobs / segmentStarts.count)
                    try OrderedParallelMap.run(
                        count: range.count, jobs: renderers, window: renderers + 1,
                        produce: { i in
                            let pixmap = source.frame(
                                frames.lowerBound + plan[range.lowerBound + i].frameIndex)
                            guard let rendered else {
                                return (
                                    pixmap, Result<WebPFrameCandidates?, WebPError>.success(nil)
                                )
                            }
                            let previous = rendered.publish(pixmap, at: i)
                            return (
                                pixmap,
                                Result { () throws(WebPError) -> WebPFrameCandidates? in
                                    try timings.measure(.encode) { () throws(WebPError) in
                                        try WebPFrameCandidates(
                                            pixmap, previous: previous, options: options)
                                    }
                                }
                            )
                        },
                        consume: { i, produced in
                            let (pixmap, candidates) = produced
                            let k = range.lowerBound + i
                            try timings.measure(.encode) { () throws(WebPError) in
                                try writer.add(pixmap, try candidates.get(), start: starts[k])
                                if i == 0 && s > 0 { first = pixmap }
                            }
                        })
                    let segmentEnd = range.upperBound < plan.count ? starts[range.upperBound] : end
                    let animation = try timings.measure(.encode) { () throws(WebPError) in
                        try writer.finish(end: segmentEnd)
                    }
                    var segment = WebPSegment(
                        animation: animation, duration: segmentEnd - starts[range.lowerBound])
                    // A lossy segment starts with its whole first frame; libwebp's encoder
                    // may crop a lossless segment's first frame to what differs from the
                    // transparent canvas.
                    if case .lossless(let encoder) = writer, let first,
                        try !WebPAnimationMux.firstFrameCoversCanvas(animation)
                    {
                        segment.fullFirstFrame = try timings.measure(.encode) {
                            () throws(WebPError) in
                            try encoder.encodeStill(first)
                        }
                    }
                    return segment
                }
            }, consume: { _, result in segments.append(try result.get()) })
        let bytes = try timings.measure(.write) { () throws(WebPError) in
            try WebPAnimationMux.join(segments, width: width, height: height, chunk: chunk)
        }
        try timings.measure(.write) { () throws(FileIOError) in
            try FileIO.writeAtomically(bytes, to: path)
        }
        return bytes.count
    }
}

/// What writes one segment: libwebp's animation encoder (`--lossless`), or for lossy frames
/// the chooser, which picks each frame's mode in display order against what our GIF would
/// show from candidates the renderer threads work out, and the animation it is written to
/// as chosen.
private enum SegmentWriter {
    case lossless(WebPAnimationEncoder)
    case lossy(WebPLossyChooser, WebPLossyAnimation)

    init(width: Int, height: Int, options: WebPEncodingOptions) throws(WebPError) {
        self =
            options.lossless
            ? .lossless(try WebPAnimationEncoder(width: width, height: height, options: options))
            : .lossy(
                try WebPLossyChooser(width: width, height: height, options: options),
                try WebPLossyAnimation(width: width, height: height))
    }

    /// Adds `frame` (with its lossy candidates) shown from `start` ms.
    func add(_ frame: Pixmap, _ candidates: WebPFrameCandidates?, start: Int) throws(WebPError) {
        switch self {
        case .lossless(let encoder):
            try encoder.add(frame, timestamp: start)
        case .lossy(let chooser, let animation):
            guard let candidates else { return }
            try animation.add(chooser.choose(frame, candidates), start: start)
        }
    }

    /// The segment's animation, its last frame shown until `end` ms.
    func finish(end: Int) throws(WebPError) -> [UInt8] {
        switch self {
        case .lossless(let encoder): try encoder.finish(endTimestamp: end)
        case .lossy(_, let animation): try animation.finish(end: end)
        }
    }
}

/// A segment's rendered frames, each kept until the next one has been compared with it, so
/// the renderer threads can work out each lossy frame's box against the frame before.
private final class RenderedFrames: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [Int: Pixmap] = [:]

    /// Keeps frame `i` and returns frame `i − 1` (nil for the first), waiting for it: it
    /// was claimed before `i` (OrderedParallelMap hands out indices in order) and is kept
    /// before anything waits, so it is on its way.
    func publish(_ frame: Pixmap, at i: Int) -> Pixmap? {
        condition.lock()
        defer { condition.unlock() }
        frames[i] = frame
        condition.broadcast()
        guard i > 0 else { return nil }
        while frames[i - 1] == nil { condition.wait() }
        return frames.removeValue(forKey: i - 1)
    }
}
