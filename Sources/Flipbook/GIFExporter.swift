import Dispatch
import Foundation
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Encodes a source's frames (a scene's, rendered) into an animated GIF.
///
/// Each worker renders a frame and prepares it at once — differenced against the frame
/// before it, quantized and LZW-compressed (frame k waits for frame k − 1's pixels, which
/// another worker is rendering or has rendered; frame 0 sets the global palette the others
/// may use, so they wait for it too). The prepared frames are handed to giflib in order by
/// the calling thread, which only copies bytes. Frames are interleaved over the workers
/// (worker w of n takes frames w, w + n, …), and a frame's pixels are dropped as soon as
/// the next frame has been differenced against them, so each worker draws its next frame
/// into the pixels of its previous one (see ``FrameChain/awaitTurn(_:)``): memory holds
/// about one frame per worker, whatever the frame count.
public struct GIFExporter: FrameExporter {
    /// Dither, quality, matte, lossy LZW.
    public var options: GIFEncodingOptions
    /// Goes into a comment extension before the first image (batch renders put the content
    /// hash there: FlipbookBatch's `ContentHash.gifComment(_:)`).
    public var comment: String?
    /// `--max-size`: the largest file, in bytes; the export searches `options.quality`
    /// (and, below quality 1, `options.lossy`) for the best GIF that fits (``SizeBudget``).
    /// nil: no budget.
    public var maxSize: Int?

    public init(
        options: GIFEncodingOptions = GIFEncodingOptions(), comment: String? = nil,
        maxSize: Int? = nil
    ) {
        self.options = options
        self.comment = comment
        self.maxSize = maxSize
    }

    /// Writes `frames` of `source` to `path` (atomically) and returns the file's size.
    @discardableResult
    public func export(
        _ source: some FrameSource, frames: ClosedRange<Int>, to path: String, jobs: Int
    ) throws -> Int {
        if let budget = maxSize {
            let options = options, comment = comment
            let fallbacks = [60, 80, 100].filter { $0 > options.lossy }.map { lossy in
                var o = options
                o.quality = 1
                o.lossy = lossy
                return GIFExporter(options: o, comment: comment) as any FrameExporter
            }
            return try SizeBudget.export(
                source, frames: frames, to: path, jobs: jobs, budget: budget,
                quality: options.quality, format: "GIF", scratchExtension: "gif",
                exporter: { q in
                    var o = options
                    o.quality = q
                    return GIFExporter(options: o, comment: comment)
                }, fallbacks: fallbacks)
        }
        let timings = source.timings ?? StageTimings()
        let background = source.background
        let writer = try timings.measure(.write) {
            let (width, height) = source.pixelSize
            return try GIFWriter(
                path: path, width: width, height: height, loopCount: source.loopCount,
                background: background.alpha >= 1 ? background : nil, options: options,
                comment: comment)
        }
        let plan = GIFTiming.plan(frameCount: frames.count, fps: source.fps)
        // As OrderedParallelMap counts them: one worker runs serially, without waiting.
        let chain = FrameChain(writer: writer, workers: max(1, min(jobs, plan.count)))
        do {
            try OrderedParallelMap.run(
                count: plan.count, jobs: jobs, window: max(1, jobs), interleaved: true,
                produce: { k in
                    chain.awaitTurn(k)
                    let pixmap = source.frame(frames.lowerBound + plan[k].frameIndex)
                    return chain.prepare(k, pixmap, timings: timings)
                },
                consume: { k, prepared in
                    let frame = try prepared.get()
                    try timings.measure(.write) {
                        try writer.write(frame, delayCentiseconds: plan[k].delay)
                    }
                })
            try timings.measure(.write) { try writer.finish() }
        } catch {
            writer.abandon()
            throw error
        }
        return FileSystem.size(of: path) ?? 0
    }

    /// The frames rendered but not yet needed by their successor, and the encoder frame
    /// 0 leaves behind, shared by the workers.
    private final class FrameChain: @unchecked Sendable {
        private let condition = NSCondition()
        private var rendered: [Int: Pixmap] = [:]
        private var encoder: Result<GIFFrameEncoder, any Error>?
        /// Used by frame 0's worker only, before any other worker or the writing thread
        /// touches it (they wait for `encoder`).
        private let writer: GIFWriter
        /// Threads rendering and preparing frames.
        private let workers: Int
        /// Frames that their successor has been differenced against (and dropped), until
        /// the frame `workers` after them starts rendering.
        private var released: Set<Int> = []

        init(writer: GIFWriter, workers: Int) {
            self.writer = writer
            self.workers = workers
        }

        /// Waits, before frame k is rendered, until frame k − workers (this thread's
        /// previous frame: frames are interleaved) has been differenced against by its
        /// successor and dropped. Its pixels are then held by this thread alone: the reuse
        /// between frames draws frame k into them in place (it would copy them if they were
        /// still held here), or a frame rendered whole takes their memory. So `workers`
        /// frames are alive, not one or two more, and no 4 MB copy is made per frame.
        /// Frame k − workers + 1, whose differencing drops it, belongs to another thread
        /// and waits for nothing later than itself, so this ends; in steady state the
        /// threads are out of step (preparing a frame takes longer than rendering one) and
        /// the frame was dropped long before.
        func awaitTurn(_ k: Int) {
            guard workers > 1, k >= workers else { return }
            condition.lock()
            // Polled: after a stop request the frame released here may never be rendered.
            while !released.contains(k - workers) && !RenderCancellation.shared.isCancelled {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            released.remove(k - workers)
            condition.unlock()
        }

        func prepare(_ k: Int, _ pixmap: Pixmap, timings: StageTimings) -> Result<
            GIFPreparedFrame, any Error
        > {
            if k == 0 {
                let first = Result {
                    try timings.measure(.encode) { try writer.prepareFirst(pixmap) }
                }
                let encoder = writer.encoder
                condition.lock()
                rendered[0] = pixmap
                self.encoder = first.map { _ in encoder }
                condition.broadcast()
                condition.unlock()
                return first
            }
            condition.lock()
            rendered[k] = pixmap
            condition.broadcast()
            // Frame k − 1 was claimed before frame k, so it is being rendered and arrives
            // (unless a stop was requested: then its worker may have stopped claiming).
            while rendered[k - 1] == nil || encoder == nil {
                if RenderCancellation.shared.isCancelled {
                    condition.unlock()
                    return .failure(RenderCancelled())
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            let encoder = self.encoder!
            condition.unlock()
            switch encoder {
            case .failure(let error):
                _ = takePrevious(k)
                release(k - 1)
                return .failure(error)
            case .success(let e):
                return .success(
                    timings.measure(.encode) { e.prepare(pixmap, difference(k, pixmap, e)) })
            }
        }

        /// Frame k's difference from frame k − 1, which goes as this returns: nothing else
        /// needs it, and the quantizing and compressing that follow take most of a frame's
        /// time (held to the end, it was a third frame alive beside the two being prepared).
        private func difference(_ k: Int, _ pixmap: Pixmap, _ encoder: GIFFrameEncoder)
            -> GIFFrameChanges
        {
            let difference = encoder.changes(pixmap, previous: takePrevious(k))
            // Frame k − 1 is gone now (the argument died with the call): let its thread draw into its pixels.
            release(k - 1)
            return difference
        }

        private func takePrevious(_ k: Int) -> Pixmap {
            condition.lock()
            defer { condition.unlock() }
            return rendered.removeValue(forKey: k - 1)!
        }

        private func release(_ frame: Int) {
            condition.lock()
            released.insert(frame)
            condition.broadcast()
            condition.unlock()
        }
    }
}
