import Flipbook
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import Foundation

/// `manifest.json` in a shared frames folder (`output/<name>.frames/`): what
/// `flipbook assemble` needs to encode the GIF, APNG or WebP exactly as a one-machine
/// render would: the format and its encoding options.
/// Every shard writes the same manifest (atomically), so any of them may win.
/// Numbers that reach the encoder (fps, background) are stored as Swift's round-trip
/// decimal strings, so they come back bit for bit.
package struct FrameManifest: Codable, Sendable {
    package var version = 1
    package var scene: String
    package var name: String
    /// The file name of the output (GIF, APNG or WebP: the key is from when shards wrote
    /// only GIFs), written beside the frames folder.
    package var gif: String
    /// "gif", "apng" or "webp" (absent in manifests written before shards wrote the others: "gif").
    package var format: String?
    package var hash: String
    package var width: Int
    package var height: Int
    package var fps: String
    package var loop: Int
    /// "r g b a", or nil for a canvas that is not opaque.
    package var background: String?
    package var first: Int
    package var last: Int
    package var contactSheet: Bool
    /// GIF encoding options: dither name, quality, the matte as "r g b" (nil: none), lossy.
    package var dither: String
    package var quality: Int
    package var matte: String?
    /// Lossy LZW tolerance (absent in manifests written before it existed: 0).
    package var lossy: Int?
    /// `--max-size` in bytes (absent: no budget).
    package var maxSize: Int?
    /// WebP only: `--lossless` (`quality` is then unused).
    package var lossless: Bool?

    package static let fileName = "manifest.json"

    init(_ p: BatchRenderer.Prepared, options: BatchOptions) {
        let canvas = p.renderer.scene.canvas
        scene = p.target.scenePath
        name = p.name
        gif = p.target.output.split(separator: "/").last.map(String.init) ?? p.target.output
        format = options.format.rawValue
        hash = p.hash
        (width, height) = p.renderer.pixelSize
        fps = "\(p.renderer.fps)"
        loop = canvas.loop
        let bg = canvas.background
        background = "\(bg.red) \(bg.green) \(bg.blue) \(bg.alpha)"
        first = p.range.lowerBound
        last = p.range.upperBound
        contactSheet = options.contactSheet
        dither = options.gif.dither.rawValue
        quality = options.gif.quality
        matte = options.gif.matte.map { "\($0.red) \($0.green) \($0.blue)" }
        lossy = options.gif.lossy
        maxSize = options.maxSize
        lossless = options.format == .webp ? options.webp.lossless : nil
    }

    /// The output format and encoding options the shards were given, or nil for a format
    /// this version does not know (or a frame-folder format, which has nothing to assemble).
    var options: BatchOptions? {
        guard let batchFormat = BatchFormat(rawValue: format ?? "gif"), batchFormat.isAnimated
        else { return nil }
        var o = BatchOptions()
        o.format = batchFormat
        let m = matte?.split(separator: " ").compactMap { Double($0) }
        o.gif = GIFEncodingOptions(
            dither: GIFDither(rawValue: dither) ?? .none, quality: quality,
            matte: m.flatMap { $0.count == 3 ? Color(red: $0[0], green: $0[1], blue: $0[2]) : nil },
            lossy: lossy ?? 0)
        o.webp = WebPEncodingOptions(lossless: lossless ?? false, quality: quality)
        o.maxSize = maxSize
        return o
    }

    func write(to folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileIO.writeAtomically(
            Array(try encoder.encode(self)) + [10], to: folder + "/" + Self.fileName)
    }

    static func read(from folder: String) throws -> FrameManifest {
        let bytes = try FileIO.readAll(path: folder + "/" + fileName)
        return try JSONDecoder().decode(FrameManifest.self, from: Data(bytes))
    }
}

/// Builds the final GIFs, APNGs and WebPs from the PNG frames that several shards wrote.
///
/// For every `*.frames` folder (with a manifest) directly inside `folder`: checks that
/// every frame of the range is there, then streams the frames, decoded from PNG, in
/// order, through the same exporter a one-machine render uses (``BatchOptions/exporter(hash:)``)
/// — so the output is the same bytes (frame i is diffed against frame i − 1, whichever shard rendered them; PNG
/// stores the frames losslessly). Then the contact sheet (if the shards were asked for
/// one). Both carry the content hash inside (as a one-machine render writes them), so a
/// later unsharded render sees the output as current.
package enum FrameAssembler {
    package static func frameFolders(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return []
        }
        return names.filter { $0.hasSuffix(".frames") }.sorted().map { folder + "/" + $0 }
            .filter { FileSystem.size(of: $0 + "/" + FrameManifest.fileName) != nil }
    }

    package static func assemble(
        folder: String, jobs: Int, removeFrames: Bool, force: Bool = false,
        naming: LimitNaming = .properties, progress: some BatchProgress
    ) -> [SceneOutcome] {
        var outcomes: [SceneOutcome] = []
        for (id, frames) in frameFolders(in: folder).enumerated() {
            outcomes.append(
                assembleOne(
                    frames, into: folder, id: id, jobs: jobs, removeFrames: removeFrames,
                    force: force, naming: naming, progress: progress))
        }
        return outcomes
    }

    static func assembleOne(
        _ frames: String, into folder: String, id: Int, jobs: Int, removeFrames: Bool, force: Bool,
        naming: LimitNaming = .properties, progress: some BatchProgress
    ) -> SceneOutcome {
        let clock = ContinuousClock()
        let started = clock.now
        var outcome = SceneOutcome(scene: frames, name: frames, status: .rendered)
        let manifest: FrameManifest
        do { manifest = try FrameManifest.read(from: frames) } catch {
            outcome.status = .failed
            outcome.reason = "\(frames)/\(FrameManifest.fileName): \(error)"
            progress.error(outcome.reason!)
            return outcome
        }
        outcome.scene = manifest.scene
        outcome.name = manifest.name
        outcome.hash = manifest.hash
        let gifPath = folder + "/" + manifest.gif
        let target = SceneTarget(scenePath: manifest.scene, output: gifPath)
        outcome.outputs = [gifPath]
        guard let options = manifest.options else {
            outcome.status = .failed
            outcome.reason =
                "\(frames)/\(FrameManifest.fileName): unknown format \(manifest.format ?? "")"
            progress.error(outcome.reason!)
            return outcome
        }
        let stored: String? =
            switch options.format {
            case .gif: ContentHash.stored(inGIF: gifPath)
            case .webp: ContentHash.stored(inWebP: gifPath)
            case .apng, .png: ContentHash.stored(inPNG: gifPath)
            }
        // Already assembled from frames with this content hash: nothing to do.
        if !force, stored == manifest.hash,
            !manifest.contactSheet || ContentHash.stored(inPNG: target.sheetPath) == manifest.hash
        {
            outcome.status = .skipped
            progress.output("\(gifPath): up to date, skipped")
            if removeFrames { try? FileManager.default.removeItem(atPath: frames) }
            return outcome
        }
        let missing = (manifest.first...manifest.last).filter {
            FileSystem.size(of: frames + "/" + PNGSequenceExporter.fileName(ofFrame: $0)) == nil
        }
        guard let fps = Double(manifest.fps), fps > 0, missing.isEmpty else {
            outcome.status = .failed
            outcome.reason =
                missing.isEmpty
                ? "bad fps \(manifest.fps) in the manifest"
                : "\(frames): \(missing.count) frames missing (first: \(missing[0])); did every shard finish?"
            progress.error(outcome.reason!)
            return outcome
        }
        let frameFiles = ShardFrames(folder: frames, manifest, fps: fps)
        let plan = options.format.encodedFrames(
            frameCount: manifest.last - manifest.first + 1, fps: fps
        )
        .map { manifest.first + $0 }
        let width = manifest.width, height = manifest.height
        let output = OutputProgress(
            id: id, name: manifest.name, rendered: plan, contactSheet: manifest.contactSheet,
            width: width, height: height, progress: progress)
        do {
            let exporter = options.exporter(hash: manifest.hash)
            outcome.bytes = try exporter.export(
                output.observing(frameFiles), frames: manifest.first...manifest.last,
                to: gifPath, jobs: jobs)
            if let problem = frameFiles.firstError {
                unlink(gifPath)
                throw problem
            }
            if output.hasSheet {
                outcome.bytes += try output.writeSheet(
                    name: manifest.name, fps: fps, hash: manifest.hash,
                    to: target.sheetPath, timings: StageTimings())
                outcome.outputs.append(target.sheetPath)
            }
            unlink(target.oldHashPath)
            if removeFrames { try? FileManager.default.removeItem(atPath: frames) }
        } catch {
            outcome.status = .failed
            outcome.reason = "\(gifPath): \(naming.message(of: error))"
            output.fail(outcome.reason!)
            return outcome
        }
        outcome.frames = plan.count
        outcome.seconds = seconds(started.duration(to: clock.now))
        output.finish(
            "\(gifPath): \(plan.count) frames assembled, \(width)×\(height) px, \(outcome.bytes) bytes in "
                + String(format: "%.2f s", outcome.seconds))
        return outcome
    }
}

/// A shard's PNG frame that could not be read back.
enum FrameReadError: Error, CustomStringConvertible {
    /// The PNG reader refused the file (its error's text).
    case unreadable(path: String, reason: String)
    /// The frame decoded, at a size other than the manifest's.
    case wrongSize(path: String, width: Int, height: Int, expected: (width: Int, height: Int))

    var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .wrongSize(let path, let width, let height, let expected):
            "\(path): \(width)×\(height), expected \(expected.width)×\(expected.height)"
        }
    }
}

/// The PNG frames the shards wrote into a `<name>.frames/` folder, read back as the
/// frames of the GIF, APNG or WebP (PNG is lossless: they are the pixels the shards rendered). A frame
/// that cannot be read, or is not the manifest's size, reads as transparent and is kept
/// in ``firstError``, which fails the assembly.
struct ShardFrames: FrameSource {
    let folder: String
    let pixelSize: (width: Int, height: Int)
    let fps: Double
    let loopCount: Int
    let background: Color
    var timings: StageTimings? { nil }
    private let readError = Locked<FrameReadError?>(nil)

    init(folder: String, _ manifest: FrameManifest, fps: Double) {
        self.folder = folder
        pixelSize = (manifest.width, manifest.height)
        self.fps = fps
        loopCount = manifest.loop
        let bg = (manifest.background ?? "").split(separator: " ").compactMap { Double($0) }
        background =
            bg.count == 4 ? Color(red: bg[0], green: bg[1], blue: bg[2], alpha: bg[3]) : Color.clear
    }

    /// The first frame that could not be read.
    var firstError: FrameReadError? { readError.withLock { $0 } }

    func frame(_ index: Int) -> Pixmap {
        let (width, height) = pixelSize
        let path = folder + "/" + PNGSequenceExporter.fileName(ofFrame: index)
        var pixmap: Pixmap
        do { pixmap = try PNGCodec.read(path: path) } catch {
            readError.withLock { $0 = $0 ?? .unreadable(path: path, reason: "\(error)") }
            return Pixmap(width: width, height: height)
        }
        if pixmap.width != width || pixmap.height != height {
            readError.withLock {
                $0 =
                    $0
                    ?? .wrongSize(
                        path: path, width: pixmap.width, height: pixmap.height,
                        expected: (width, height))
            }
            pixmap = Pixmap(width: width, height: height)
        }
        return pixmap
    }
}
