import FlipbookCodecs
import FlipbookRaster

/// Writes a frame source's frames into an animated PNG, or a plain PNG when there is one frame.
///
/// Frames are rendered on `jobs` threads and handed to ``APNGWriter`` in order, which
/// differences each against the canvas a decoder holds and compresses the changed region
/// on up to `jobs` threads of its own while the next frames render. Memory holds about two
/// frames per worker, whatever the frame count.
public struct APNGExporter: FrameExporter {
    /// A tEXt chunk written before the image data (batch renders put the content hash
    /// there: FlipbookBatch's `ContentHash.pngText(_:)`).
    public var text: PNGText?
    /// `--max-size` in bytes (nil: none). An APNG's pixels are exact, so it is encoded once
    /// and refused (``SizeBudgetError``, nothing written) when larger than this.
    public var maxSize: Int?
    /// `--png-compression`: how hard frames are deflated (``APNGWriter/compression``; a
    /// one-frame PNG as ``PNGCompression`` says).
    public var compression: PNGCompression

    public init(text: PNGText? = nil, maxSize: Int? = nil, compression: PNGCompression = .default) {
        self.text = text
        self.maxSize = maxSize
        self.compression = compression
    }

    /// Writes `frames` of `source` to `path` (atomically) and returns the file's size.
    @discardableResult
    public func export(
        _ source: some FrameSource, frames: ClosedRange<Int>, to path: String, jobs: Int
    ) throws -> Int {
        if let budget = maxSize {
            return try SizeBudget.exportExact(
                source, frames: frames, to: path, jobs: jobs, budget: budget, format: "APNG",
                scratchExtension: "png",
                exporter: APNGExporter(text: text, compression: compression))
        }
        let timings = source.timings ?? StageTimings()
        let (width, height) = source.pixelSize
        if frames.count == 1 {
            let pixmap = source.frame(frames.lowerBound)
            let bytes = try timings.measure(.encode) { () throws(PNGError) in
                try PNGCodec.encode(pixmap, compression: compression, text: text)
            }
            try timings.measure(.write) { () throws(FileIOError) in
                try FileIO.writeAtomically(bytes, to: path)
            }
            return bytes.count
        }
        let plan = APNGTiming.plan(frameCount: frames.count, fps: source.fps)
        let writer = try timings.measure(.write) {
            // An opaque background makes every frame opaque: a frame that is not is an error. The
            // writer picks the pixel format (indexed, RGB with a key colour, RGBA) from the frames.
            let writer = try APNGWriter(
                path: path, width: width, height: height, denominator: plan.denominator, text: text,
                jobs: jobs,
                opaque: source.background.alpha >= 1)
            writer.compression = compression
            return writer
        }
        do {
            try OrderedParallelMap.run(
                count: plan.frames.count, jobs: jobs,
                produce: { k in
                    source.frame(frames.lowerBound + plan.frames[k].frameIndex)
                },
                consume: { k, pixmap in
                    try timings.measure(.encode) {
                        try writer.append(pixmap, delay: plan.frames[k].delay)
                    }
                })
            try timings.measure(.write) { try writer.finish() }
            // Compression ran on the writer's threads, outside the measured calls.
            timings.add(.encode, nanoseconds: writer.compressionNanoseconds)
        } catch {
            writer.abandon()
            throw error
        }
        return FileSystem.size(of: path) ?? 0
    }
}
