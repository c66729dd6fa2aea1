import Dispatch
import Flipbook
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// One output of a batch run while its frames go through an exporter: each frame counted
/// for the progress display and, when a contact sheet is asked for, thumbnailed; then the
/// sheet written, with the content hash inside. `flipbook render` (``BatchRenderer``) and
/// `flipbook assemble` (``FrameAssembler``) write their outputs through this, so a sheet
/// assembled from shards is the bytes of a one-machine render's.
struct OutputProgress: Sendable {
    let id: Int
    let progress: any BatchProgress
    /// The frames the output holds, in order (a GIF above 50 fps drops some).
    let frameCount: Int
    let width: Int, height: Int
    /// The frames the contact sheet shows (empty: no sheet).
    private let sheetFrames: Set<Int>
    private let factor: Int
    private let thumbnails = Locked([(frame: Int, image: Pixmap)]())

    /// Starts output `id` named `name` in `progress`; `rendered` are the frame indices it
    /// will hold, `contactSheet` whether a sheet is written after.
    init(
        id: Int, name: String, rendered: [Int], contactSheet: Bool, width: Int, height: Int,
        progress: any BatchProgress
    ) {
        self.id = id
        self.progress = progress
        frameCount = rendered.count
        self.width = width
        self.height = height
        sheetFrames = contactSheet ? Set(ContactSheet.frameIndices(from: rendered)) : []
        factor = ContactSheet.factor(width: width, height: height)
        progress.start(id, name: name, total: rendered.count)
    }

    /// `source` with every frame counted and, when the sheet shows it, thumbnailed;
    /// `permits` (when given) is held while a frame is produced, so that frames of every
    /// scene share the same cores.
    func observing<Source: FrameSource>(_ source: Source, permits: DispatchSemaphore? = nil)
        -> InterceptedFrames<Source>
    {
        source.intercepted { [self] i, produce in
            permits?.wait()
            let pixmap = produce()
            permits?.signal()
            if sheetFrames.contains(i) {
                let thumb = ContactSheet.thumbnail(pixmap, factor: factor)
                thumbnails.withLock { $0.append((i, thumb)) }
            }
            progress.advance(id)
            return pixmap
        }
    }

    /// Whether a contact sheet is collected.
    var hasSheet: Bool { !sheetFrames.isEmpty }

    /// Composes the contact sheet of scene `name` from the thumbnails and writes it to
    /// `path` (atomically) with `hash` in its `tEXt` chunk; returns its size.
    func writeSheet(name: String, fps: Double, hash: String, to path: String, timings: StageTimings)
        throws -> Int
    {
        let title =
            "\(name) — \(frameCount) frames, \(width)×\(height) px, \(ContactSheet.formatNumber(fps)) fps"
        let sheet = ContactSheet.compose(
            title: title, thumbnails: thumbnails.withLock { $0 }, fps: fps)
        let bytes = try timings.measure(.encode) { () throws(PNGError) in
            try PNGCodec.encode(sheet, compression: .default, text: ContentHash.pngText(hash))
        }
        try timings.measure(.write) { () throws(FileIOError) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            try FileIO.writeAtomically(bytes, to: path)
        }
        return bytes.count
    }

    /// Ends the output with its result line.
    func finish(_ line: String) { progress.finish(id, line: line) }

    /// Ends the output with a failure.
    func fail(_ message: String) {
        progress.finish(id, line: nil)
        progress.error(message)
    }
}
