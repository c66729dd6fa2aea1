import Dispatch
import Foundation
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Renders a scene's frames into an animated GIF.
///
/// Each worker renders a frame and prepares it at once — differenced against the frame
/// before it, quantized and LZW-compressed (frame k waits for frame k − 1's pixels, which
/// another worker is rendering or has rendered; frame 0 sets the global palette the others
/// may use, so they wait for it too). The prepared frames are handed to giflib in order by
/// the calling thread, which only copies bytes. A frame's pixels are dropped as soon as
/// the next frame is prepared and it is written, so memory holds about two frames per
/// worker, whatever the frame count.
public enum GIFExporter {
    /// Writes `frames` of `renderer` to `path` (atomically) and returns the file's size.
    @discardableResult
    public static func export(_ renderer: SceneRenderer, frames: ClosedRange<Int>, to path: String,
                              jobs: Int, options: GIFEncodingOptions = GIFEncodingOptions()) throws -> Int {
        if let budget = options.maxSize {
            return try GIFBudget.export(renderer, frames: frames, to: path, jobs: jobs, options: options, budget: budget)
        }
        let timings = renderer.timings ?? StageTimings()
        let background = renderer.scene.canvas.background
        let writer = try timings.measure(.write) {
            let (width, height) = renderer.pixelSize
            return try GIFWriter(path: path, width: width, height: height, loopCount: renderer.scene.canvas.loop,
                                 background: background.alpha >= 1 ? background : nil, options: options)
        }
        let plan = GIFTiming.plan(frameCount: frames.count, fps: renderer.fps)
        let chain = FrameChain(writer: writer)
        do {
            try OrderedParallelMap.run(count: plan.count, jobs: jobs, window: max(1, jobs), produce: { k in
                let pixmap = renderer.renderFrame(frames.lowerBound + plan[k].frameIndex)
                return chain.prepare(k, pixmap, timings: timings)
            }, consume: { k, prepared in
                let frame = try prepared.get()
                try timings.measure(.write) { try writer.write(frame, delayCentiseconds: plan[k].delay) }
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

        init(writer: GIFWriter) { self.writer = writer }

        func prepare(_ k: Int, _ pixmap: Pixmap, timings: StageTimings) -> Result<GIFPreparedFrame, any Error> {
            if k == 0 {
                let first = Result { try timings.measure(.encode) { try writer.prepareFirst(pixmap) } }
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
            // Frame k − 1 was claimed before frame k, so it is being rendered and arrives.
            while rendered[k - 1] == nil || encoder == nil { condition.wait() }
            let previous = rendered[k - 1]!
            let encoder = self.encoder!
            condition.unlock()
            let prepared = encoder.map { e in timings.measure(.encode) { e.prepare(pixmap, previous: previous) } }
            condition.lock()
            rendered[k - 1] = nil
            condition.unlock()
            return prepared
        }
    }
}
