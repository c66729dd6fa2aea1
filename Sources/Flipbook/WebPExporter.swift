import Foundation
import FlipbookCodecs
import FlipbookRaster

/// Writes a frame source's frames into an animated WebP through libwebp's animation encoder.
///
/// libwebp encodes an animation on one thread, each frame against the one before, so the
/// other threads render frames ahead of it. Long animations are cut into segments of
/// ``segmentLength`` frames, each encoded by its own worker and encoder (its first frame a
/// key frame, needing no earlier frame), joined in order with libwebpmux
/// (``WebPAnimationMux``). The cut depends on the frame count alone, never on `jobs`, so
/// the bytes are the same however many threads ran. Timing: ``GIFTiming``'s never-accumulating rounding in milliseconds.
/// The content hash goes into a private chunk (FlipbookBatch's `ContentHash.webpChunk(_:)`).
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
                    let encoder = try WebPAnimationEncoder(
                        width: width, height: height, options: options)
                    var first: (frame: Pixmap, mode: WebPFrameMode)?
                    // Lossy: each frame is VP8 or near-lossless, chosen in display order
                    // against what our GIF would show (WebPLossyChooser) from candidates the
                    // renderer threads work out.
                    let chooser =
                        options.lossless
                        ? nil : try WebPLossyChooser(width: width, height: height, options: options)
                    let rendered = options.lossless ? nil : RenderedFrames()
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
                                            pixmap, options: options,
                                            needsVP8: previous.map { $0.data != pixmap.data }
                                                ?? false)
                                    }
                                }
                            )
                        },
                        consume: { i, produced in
                            let (pixmap, candidates) = produced
                            let k = range.lowerBound + i
                            try timings.measure(.encode) { () throws(WebPError) in
                                var mode = WebPFrameMode.nearLossless
                                if let chooser, let candidates = try candidates.get() {
                                    mode = try chooser.choose(pixmap, candidates)
                                }
                                try encoder.add(pixmap, timestamp: starts[k], mode: mode)
                                if i == 0 && s > 0 { first = (pixmap, mode) }
                            }
                        })
                    let segmentEnd = range.upperBound < plan.count ? starts[range.upperBound] : end
                    let animation = try timings.measure(.encode) { () throws(WebPError) in
                        try encoder.finish(endTimestamp: segmentEnd)
                    }
                    var segment = WebPSegment(
                        animation: animation, duration: segmentEnd - starts[range.lowerBound])
                    if let first, try !WebPAnimationMux.firstFrameCoversCanvas(animation) {
                        segment.fullFirstFrame = try timings.measure(.encode) {
                            () throws(WebPError) in
                            try encoder.encodeStill(first.frame, mode: first.mode)
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

/// A segment's rendered frames, each kept until the next one has been compared with it, so
/// the renderer threads know which frames repeat the one before: those need no VP8 candidate
/// (``WebPLossyChooser`` keeps them near-lossless without looking), nor does the first.
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
