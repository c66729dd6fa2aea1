#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene

/// `--max-size`: the best output that fits a byte budget, for an exporter whose size falls
/// with a quality setting (GIF's rate control, lossy WebP's libwebp quality). This is
/// exporter policy: the codecs know nothing of budgets.
///
/// The frames render once: the first encoding (at the requested quality) records them in
/// a ``FrameStore`` as it goes, and every later attempt reads them back instead of
/// rendering again. The attempts search the quality: a binary search over 1…100, starting
/// at the requested quality, for the highest quality that fits (at most 8 encodings; for
/// GIF this lands within 10 % under the budget on the scenes measured). Size falls with
/// quality for GIF; a lossy WebP's size only roughly does, because each frame's choice
/// between VP8 and near-lossless moves with the quality, so the search finds a quality that
/// fits (not always the highest) and may fit a budget below quality 1's size.
/// When quality 1 is still too large the `fallbacks` are tried in order (GIF: quality 1
/// with `--lossy` 60, 80, 100) until one fits.
///
/// Attempts are written to a scratch file beside the output (giflib's writer wants a file);
/// the one kept is copied into place atomically. A budget that no attempt meets throws
/// ``SizeBudgetError`` with the smallest size reached, and writes nothing.
enum SizeBudget {
    static func export<Source: FrameSource>(
        _ source: Source, frames: ClosedRange<Int>, to path: String, jobs: Int,
        budget: Int, quality: Int, format: String, scratchExtension: String,
        exporter: (Int) -> any FrameExporter,
        fallbacks: [any FrameExporter]
    ) throws -> Int {
        let (width, height) = source.pixelSize
        let store = try FrameStore(frameBytes: width * height * 4, width: width, height: height)
        let scratch = path + ".flipbook-attempt." + scratchExtension
        defer { unlink(scratch) }
        var best: (size: Int, bytes: [UInt8])?
        var smallest = Int.max
        var attempts = 0

        /// Encodes with `e`; keeps the file when it fits and is larger than the best so far.
        func attempt(_ e: any FrameExporter) throws -> Int {
            let frameSource: InterceptedFrames<Source>
            if attempts == 0 {
                frameSource = source.intercepted { i, render in
                    let p = render()
                    store.put(i - frames.lowerBound, p)
                    return p
                }
            } else {
                try store.check()
                frameSource = source.intercepted { i, _ in store.get(i - frames.lowerBound) }
            }
            attempts += 1
            let size = try e.export(frameSource, frames: frames, to: scratch, jobs: jobs)
            if attempts == 1 { try store.check() }
            smallest = min(smallest, size)
            if size <= budget && size > (best?.size ?? -1) {
                best = (size, try FileIO.readAll(path: scratch))
            }
            return size
        }
        // Binary search over quality 1…100 for the highest that fits, starting at the
        // requested quality: `low` fits (0: none known), `high` does not (101: none known).
        var low = 0, high = 101
        var q = quality
        while high - low > 1 {
            if try attempt(exporter(q)) <= budget { low = q } else { high = q }
            q = (low + high) / 2
        }
        if low == 0 {
            for fallback in fallbacks where best == nil { _ = try attempt(fallback) }
        }
        guard let best else {
            throw SizeBudgetError(
                path: path, budget: budget, smallest: smallest, attempts: attempts,
                lowestLossy: format == "GIF" ? 100 : nil, searched: true, format: format)
        }
        try FileIO.writeAtomically(best.bytes, to: path)
        return best.size
    }

    /// A lossless output (APNG, `--lossless` WebP) under `--max-size`: its pixels are
    /// exact, so there is nothing to trade. Encoded once; written when it fits, else
    /// nothing is written and ``SizeBudgetError`` names the size reached. Lowering the
    /// quality in secret would break the promise of exact pixels that the user asked for.
    static func exportExact(
        _ source: some FrameSource, frames: ClosedRange<Int>, to path: String, jobs: Int,
        budget: Int, format: String, scratchExtension: String,
        exporter: any FrameExporter
    ) throws -> Int {
        let scratch = path + ".flipbook-attempt." + scratchExtension
        defer { unlink(scratch) }
        let size = try exporter.export(source, frames: frames, to: scratch, jobs: jobs)
        guard size <= budget else {
            throw SizeBudgetError(
                path: path, budget: budget, smallest: size, attempts: 1, lowestLossy: nil,
                searched: false, format: format)
        }
        try FileIO.writeAtomically(try FileIO.readAll(path: scratch), to: path)
        return size
    }
}

/// A size budget (an exporter's `maxSize`) no attempt could meet.
public struct SizeBudgetError: Error, CustomStringConvertible {
    public var path: String
    public var budget: Int
    public var smallest: Int
    public var attempts: Int
    /// The lossy setting the search went down to with quality 1 (a GIF's 100), if any.
    public var lowestLossy: Int?
    /// True when qualities were searched down to 1; false for a lossless output (APNG,
    /// lossless WebP) encoded once.
    public var searched: Bool
    /// "GIF", "WebP", "lossless WebP", "APNG".
    public var format: String

    /// The sentence, naming the size budget, quality and lossy settings with `naming`
    /// (`flipbook` names its flags).
    public func message(naming: LimitNaming) -> String {
        let maxSize = naming.name(.maxSize)
        if searched {
            let lowest =
                "quality 1" + (lowestLossy.map { " and \(naming.name(.lossy)) \($0)" } ?? "")
            return
                "cannot fit in \(maxSize) \(budget) bytes: the smallest \(format) reached was \(smallest) bytes "
                + "(\(attempts) encodings, down to \(lowest)); nothing written"
        }
        return
            "cannot fit in \(maxSize) \(budget) bytes: the \(format) is \(smallest) bytes and its pixels are exact, "
            + "so there is no quality to lower; nothing written (a lossy WebP or a GIF searches "
            + "\(naming.name(.quality)) to fit)"
    }

    public var description: String { message(naming: .properties) }
}

extension LimitNaming {
    /// An export failure's message; a ``SizeBudgetError`` names its settings with this naming.
    package func message(of error: any Error) -> String {
        (error as? SizeBudgetError)?.message(naming: self) ?? "\(error)"
    }
}

/// Rendered frames kept for re-encoding: a temporary file (deleted when closed) with one
/// fixed-size slot per frame, written and read at their offsets from any thread, so memory
/// stays bounded however long the scene.
final class FrameStore: @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>
    private let fd: Int32
    private let frameBytes: Int
    private let width: Int, height: Int
    private let failure = Locked<FileIOError?>(nil)

    init(frameBytes: Int, width: Int, height: Int) throws {
        guard let file = tmpfile() else {
            throw FileIOError.cannotCreate(
                path: "temporary frame store", reason: FileIO.lastError())
        }
        self.file = file
        fd = fileno(file)
        self.frameBytes = frameBytes
        self.width = width
        self.height = height
    }

    deinit { fclose(file) }

    func put(_ slot: Int, _ pixmap: Pixmap) {
        let ok = pixmap.data.withUnsafeBytes { raw in
            Self.whole(raw.count) { done in
                pwrite(
                    fd, raw.baseAddress! + done, raw.count - done, off_t(slot * frameBytes + done))
            }
        }
        if !ok { fail() }
    }

    /// Repeats a partial read or write (`step` gets the bytes done so far and returns how
    /// many it moved) until `count` bytes are done; false on an error or end of file.
    private static func whole(_ count: Int, _ step: (Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let n = step(done)
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    func get(_ slot: Int) -> Pixmap {
        var data = [UInt8](repeating: 0, count: frameBytes)
        let ok = data.withUnsafeMutableBytes { raw in
            Self.whole(raw.count) { done in
                pread(
                    fd, raw.baseAddress! + done, raw.count - done, off_t(slot * frameBytes + done))
            }
        }
        if !ok { fail() }
        return Pixmap(width: width, height: height, premultipliedRGBA: data)
    }

    /// Keeps the first read or write failure.
    private func fail() {
        let reason = FileIO.lastError()
        failure.withLock {
            $0 = $0 ?? .transferFailed(path: "temporary frame store", reason: reason)
        }
    }

    /// Throws the first read or write failure (a full disk), if any.
    func check() throws {
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
