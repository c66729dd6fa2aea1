import Dispatch
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Renders a scene's frames into an animated GIF.
///
/// Three stages: frames render in parallel and arrive in order; each batch of frames is
/// prepared in parallel — differenced, quantized and LZW-compressed (frame i needs frame
/// i − 1 to find what changed, and the batch holds both); the compressed frames are handed
/// to giflib in order by one thread, which only copies bytes. Memory holds at most two
/// batches of frames.
public enum GIFExporter {
    /// Writes `frames` of `renderer` to `path` (atomically) and returns the file's size.
    @discardableResult
    public static func export(_ renderer: SceneRenderer, frames: ClosedRange<Int>, to path: String,
                              jobs: Int, options: GIFEncodingOptions = GIFEncodingOptions()) throws -> Int {
        if let budget = options.maxSize {
            return try GIFBudget.export(renderer, frames: frames, to: path, jobs: jobs, options: options, budget: budget)
        }
        let (width, height) = renderer.pixelSize
        let background = renderer.scene.canvas.background
        let writer = try GIFWriter(path: path, width: width, height: height,
                                   loopCount: renderer.scene.canvas.loop,
                                   background: background.alpha >= 1 ? background : nil, options: options)
        let plan = GIFTiming.plan(frameCount: frames.count, fps: renderer.fps)
        let batchSize = max(2, jobs * 2)
        var batch: [Pixmap] = []
        var delays: [Int] = []
        var previous: Pixmap?
        var first: GIFPreparedFrame?

        func flush() throws {
            guard !batch.isEmpty else { return }
            let sources = batch
            let before = previous
            // Frame 0 sets the global palette the others may use, so it is prepared first.
            if before == nil && first == nil { first = try writer.prepareFirst(sources[0]) }
            let encoder = writer.encoder
            let head = before == nil ? first : nil
            let prepared = ParallelArray.map(count: sources.count, jobs: jobs) { j in
                if j == 0, let head { return head }
                return encoder.prepare(sources[j], previous: j == 0 ? before : sources[j - 1])
            }
            for (frame, delay) in zip(prepared, delays) {
                try writer.write(frame, delayCentiseconds: delay)
            }
            previous = sources.last
            batch.removeAll(keepingCapacity: true)
            delays.removeAll(keepingCapacity: true)
        }

        do {
            try OrderedParallelMap.run(count: plan.count, jobs: jobs, window: batchSize * 2, produce: { k in
                renderer.renderFrame(frames.lowerBound + plan[k].frameIndex)
            }, consume: { k, pixmap in
                batch.append(pixmap)
                delays.append(plan[k].delay)
                if batch.count == batchSize { try flush() }
            })
            try flush()
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
        return FileSystem.size(of: path) ?? 0
    }
}

/// `Array((0..<count).map(transform))` computed on up to `jobs` threads; the results keep
/// their order.
enum ParallelArray {
    static func map<T: Sendable>(count: Int, jobs: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        let results = ResultSlots<T>(count: count)
        if jobs <= 1 || count <= 1 {
            for i in 0..<count { results.set(i, transform(i)) }
        } else {
            DispatchQueue.concurrentPerform(iterations: count) { i in results.set(i, transform(i)) }
        }
        return results.values()
    }

    /// Each slot is written by exactly one iteration, through a raw buffer so that no
    /// exclusive access to a shared array is claimed.
    private final class ResultSlots<T>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<T?>
        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }
        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
        func set(_ i: Int, _ value: T) { slots[i] = value }
        func values() -> [T] { slots.map { $0! } }
    }
}
