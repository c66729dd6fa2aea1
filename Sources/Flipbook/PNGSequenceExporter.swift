import FlipbookCodecs
import FlipbookRaster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes frames as `frame-0000.png`, `frame-0001.png`, … (numbered by frame index) into a
/// folder, rendering and compressing on `jobs` threads and writing in order.
public struct PNGSequenceExporter: FrameExporter {
    /// How each frame is compressed.
    public var compression: PNGCompression
    /// The `tEXt` chunk every frame carries, when given (batch renders put the content
    /// hash there: FlipbookBatch's `ContentHash.pngText(_:)`).
    public var text: PNGText?
    /// How the files are named (`-o 'out/frame-%04d.png'`); nil: `frame-NNNN.png`.
    public var pattern: PNGFramePattern?

    public init(
        compression: PNGCompression = .default, text: PNGText? = nil,
        pattern: PNGFramePattern? = nil
    ) {
        self.compression = compression
        self.text = text
        self.pattern = pattern
    }

    /// The file name of frame `frameIndex`.
    public static func fileName(ofFrame frameIndex: Int) -> String {
        let digits = String(frameIndex)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// Writes `frames` of `source` into `folder` (created when missing; named by `pattern`
    /// when there is one, whose folder `folder` then is). Returns the number of bytes
    /// written.
    ///
    /// Each frame is written whole to a hidden temporary file in the folder; only once every
    /// frame has been rendered and written are they renamed into place, so a failed or
    /// interrupted export (``RenderCancelled``) deletes its temporary files and leaves
    /// the frames already in the folder untouched.
    @discardableResult
    public func export(
        _ source: some FrameSource, frames: ClosedRange<Int>, to folder: String, jobs: Int
    ) throws -> Int {
        try FileSystem.makeDirectories(folder)
        let first = frames.lowerBound
        var total = 0
        var staged: [(temporary: String, final: String)] = []
        let tag = "\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let timings = source.timings ?? StageTimings()
        do {
            try OrderedParallelMap.run(
                count: frames.count, jobs: jobs,
                produce: { offset -> Result<[UInt8], PNGError> in
                    let frame = source.frame(first + offset)
                    return Result { () throws(PNGError) -> [UInt8] in
                        try timings.measure(.encode) { () throws(PNGError) -> [UInt8] in
                            try PNGCodec.encode(frame, compression: compression, text: text)
                        }
                    }
                },
                consume: { offset, encoded in
                    let bytes = try encoded.get()
                    let name =
                        pattern?.fileName(ofFrame: first + offset)
                        ?? Self.fileName(ofFrame: first + offset)
                    let temporary = folder + "/." + name + ".partial-" + tag
                    // Registered before it exists, so that an interrupted process deletes it.
                    TemporaryFiles.register(temporary)
                    staged.append((temporary, folder + "/" + name))
                    try timings.measure(.write) { () throws(FileIOError) in
                        try FileIO.writeAtomically(bytes, to: temporary)
                    }
                    total += bytes.count
                })
            try RenderCancellation.shared.check()
        } catch {
            for file in staged { TemporaryFiles.remove(file.temporary) }
            throw error
        }
        try timings.measure(.write) { () throws(FileIOError) in
            let renamed = TemporaryFiles.rename(staged)
            if renamed < staged.count {
                let reason = FileIO.lastError()
                for rest in staged[renamed...] { TemporaryFiles.remove(rest.temporary) }
                throw FileIOError.cannotRename(path: staged[renamed].final, reason: reason)
            }
        }
        return total
    }
}

/// Folder creation, with the system's reason on failure.
public enum FileSystem {
    /// Creates `path` and its missing parents (mkdir -p).
    public static func makeDirectories(_ path: String) throws(FileIOError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FileIOError.cannotMakeFolder(path: current, reason: FileIO.lastError())
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FileIOError.notAFolder(path: path)
        }
    }

    /// The folder part of a path ("." when there is none).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension FileSystem {
    /// The size in bytes of the file at `path`, or nil when it cannot be read.
    public static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
