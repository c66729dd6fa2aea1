import Foundation
import FlipbookCodecs
import FlipbookRaster

/// An input that could not be read as frames: a missing path, a file that is neither PNG,
/// GIF nor WebP, a corrupt image (the codec's error), a folder without PNG files, too many
/// frames once sampled.
public enum FrameSourceError: Error, CustomStringConvertible, Sendable {
    /// Nothing at `path`.
    case notFound(path: String)
    /// The file at `path` cannot be read.
    case unreadable(path: String, FileIOError)
    /// The PNG or APNG at `path` cannot be decoded.
    case png(path: String, PNGError)
    /// The GIF at `path` cannot be decoded.
    case gif(path: String, GIFError)
    /// The WebP at `path` cannot be decoded.
    case webp(path: String, WebPError)
    /// Decoding the file at `path` failed otherwise (it was interrupted).
    case failed(path: String, reason: String)
    /// The file at `path` is neither a PNG, a GIF nor a WebP.
    case unknownFormat(path: String)
    /// The folder cannot be listed (Foundation's reason).
    case unlistableFolder(path: String, reason: String)
    /// The folder holds no PNG file.
    case noPNGFiles(folder: String)
    /// A PNG of a folder cannot be read (its error names the file).
    case folderFrame(PNGError)
    /// Sampling `source` at `fps` would make `frames` frames, more than `maxFrames` (its
    /// delays add up to `milliseconds`).
    case tooManyFrames(source: String, milliseconds: Int, frames: Int, fps: Double, maxFrames: Int)

    /// True when the input was refused because decoding it would pass the memory limit.
    public var exceedsMemoryLimit: Bool {
        if case .gif(_, let error) = self { return error.exceedsMemoryLimit }
        return false
    }

    /// The message, as a caller shows it.
    public var message: String {
        switch self {
        case .notFound(let path): "\(path): no such file or folder"
        case .unreadable(let path, let error): "\(path): \(error)"
        case .png(let path, let error): "\(path): \(error.message)"
        case .gif(let path, let error): "\(path): \(error)"
        case .webp(let path, let error): "\(path): \(error)"
        case .failed(let path, let reason): "\(path): \(reason)"
        case .unknownFormat(let path): "\(path): neither a PNG, a GIF nor a WebP file"
        case .unlistableFolder(let path, let reason): "\(path): \(reason)"
        case .noPNGFiles(let folder): "\(folder): the folder holds no PNG files"
        case .folderFrame(let error): error.message
        case .tooManyFrames(let source, let milliseconds, let frames, let fps, let maxFrames):
            "\(source): its delays add up to \(milliseconds) ms, \(frames) frames at \(fps) fps; more than "
                + "\(maxFrames), the frame limit"
        }
    }

    public var description: String { message }
}

/// One frame of a sequence: its pixels, its name in reports, its delay in milliseconds
/// (GIF and WebP only).
public struct NamedFrame: Sendable {
    public var image: Pixmap
    public var name: String
    public var delay: Int?
    public init(image: Pixmap, name: String, delay: Int? = nil) {
        self.image = image
        self.name = name
        self.delay = delay
    }
}

/// Frames to compare, from one input, in order.
///
/// Inputs:
/// - a PNG file: one frame, named by its file name, no delay;
/// - a folder: every `*.png` file in it (not in subfolders), sorted by name, which
///   orders `frame-0000.png`, `frame-0001.png`, … by frame index; no delays;
/// - a GIF file: its frames composited as a browser shows them (disposal honored, see
///   `GIFReader`), named `#0`, `#1`, …, with their delays in milliseconds (10 per centisecond);
/// - an animated PNG: the same, through `APNGReader` (blend and dispose ops honored), its
///   delays in whole milliseconds that do not accumulate rounding (`APNGDecoded.millisecondDelays`);
/// - a WebP file (animated or still): its frames composited by libwebp's animation decoder
///   (`WebPAnimationReader`), named and timed as a GIF's.
/// Files are recognised by content (PNG, GIF or WebP signature), not by extension.
public struct FrameSequence: Sendable {
    /// The input as given.
    public var source: String
    public var frames: [Pixmap]
    /// A name per frame, for reports.
    public var names: [String]
    /// Milliseconds per frame, for GIFs and WebPs; nil for PNGs.
    public var delays: [Int]?

    public init(source: String, frames: [Pixmap], names: [String], delays: [Int]? = nil) {
        precondition(frames.count == names.count, "a name per frame")
        self.source = source
        self.frames = frames
        self.names = names
        self.delays = delays
    }

    public var count: Int { frames.count }

    /// Frame `i` with its name and delay.
    public subscript(i: Int) -> NamedFrame {
        NamedFrame(image: frames[i], name: names[i], delay: delays?[i])
    }

    /// Reads a PNG file, a folder of PNG files or a GIF file. A GIF whose decoded frames
    /// would take more than `maxMemory` bytes is refused before it is decoded.
    public static func load(
        _ path: String,
        maxMemory: Int = GIFDecodeBudget.defaultMaxBytes
    ) throws(FrameSourceError) -> FrameSequence {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FrameSourceError.notFound(path: path)
        }
        if isFolder.boolValue { return try loadFolder(path) }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch {
            throw FrameSourceError.unreadable(path: path, error)
        }
        let name = String(path.split(separator: "/").last ?? Substring(path))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), APNGReader.isAnimated(bytes) {
            do {
                let apng = try APNGReader.decode(bytes, maxBytes: maxMemory)
                return FrameSequence(
                    source: path, frames: apng.frames, names: apng.frames.indices.map { "#\($0)" },
                    delays: apng.millisecondDelays)
            } catch { throw FrameSourceError.png(path: path, error) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do {
                return FrameSequence(
                    source: path, frames: [try PNGCodec.decode(bytes)], names: [name])
            } catch {
                throw FrameSourceError.png(path: path, error)
            }
        }
        if bytes.starts(with: Array("GIF8".utf8)) {
            do {
                let gif = try GIFReader.decode(bytes, maxBytes: maxMemory)
                return FrameSequence(
                    source: path, frames: gif.frames, names: gif.frames.indices.map { "#\($0)" },
                    delays: gif.delays.map { $0 * 10 })
            } catch let error as GIFError {
                throw FrameSourceError.gif(path: path, error)
            } catch { throw FrameSourceError.failed(path: path, reason: "\(error)") }
        }
        if WebPCodec.isWebP(bytes) {
            do {
                let webp = try WebPAnimationReader.decode(bytes, maxBytes: maxMemory)
                return FrameSequence(
                    source: path, frames: webp.frames, names: webp.frames.indices.map { "#\($0)" },
                    delays: webp.durations)
            } catch { throw FrameSourceError.webp(path: path, error) }
        }
        throw FrameSourceError.unknownFormat(path: path)
    }

    /// For a sequence with delays (a GIF or WebP): the frame shown at each tick of a `fps`
    /// clock, so that it pairs with PNG frames rendered at that rate. Frame i of the result
    /// is the frame on screen at ⌊1000·i/fps⌋ ms (at or after the start `flipbook render`
    /// gives frame i, see GIFTiming), i < round(total delay · fps / 1000); it is named
    /// `#k@i`. Sequences without delays are returned unchanged. More than `maxFrames`
    /// ticks are refused before any is made: a 731-byte APNG of ten 65535 s frames is
    /// 19.7 million ticks at 30 fps, each a frame to name and compare.
    public func sampled(fps: Double, maxFrames: Int = 10_000) throws(FrameSourceError)
        -> FrameSequence
    {
        guard let delays, fps > 0, fps.isFinite else { return self }
        var starts: [Int] = []
        var t = 0
        for d in delays { starts.append(t); t += d }
        let ticks = (Double(t) * fps / 1000).rounded()
        guard ticks <= Double(maxFrames) else {
            throw FrameSourceError.tooManyFrames(
                source: source, milliseconds: t, frames: Int(ticks), fps: fps, maxFrames: maxFrames)
        }
        let count = max(1, Int(ticks))
        var frames: [Pixmap] = [], names: [String] = []
        var k = 0
        for i in 0..<count {
            let tick = Int((Double(1000 * i) / fps + 1e-9).rounded(.down))
            while k + 1 < starts.count && starts[k + 1] <= tick { k += 1 }
            frames.append(self.frames[k])
            names.append("\(self.names[k])@\(i)")
        }
        return FrameSequence(source: source, frames: frames, names: names)
    }

    /// The `*.png` files of a folder, sorted by name.
    public static func pngFiles(in folder: String) throws(FrameSourceError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.lowercased().hasSuffix(".png") }
                .sorted()
        } catch {
            throw FrameSourceError.unlistableFolder(
                path: folder, reason: error.localizedDescription)
        }
    }

    private static func loadFolder(_ folder: String) throws(FrameSourceError) -> FrameSequence {
        let names = try pngFiles(in: folder)
        guard !names.isEmpty else {
            throw FrameSourceError.noPNGFiles(folder: folder)
        }
        var frames: [Pixmap] = []
        for name in names {
            do { frames.append(try PNGCodec.read(path: folder + "/" + name)) } catch {
                throw FrameSourceError.folderFrame(error)
            }
        }
        return FrameSequence(source: folder, frames: frames, names: names)
    }
}
