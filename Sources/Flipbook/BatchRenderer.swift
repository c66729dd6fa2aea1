import Dispatch
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import Foundation

/// Output kinds of a batch render.
public enum BatchFormat: String, Sendable, Codable {
    case gif, png, webp
}

/// Options shared by every scene of a batch render.
public struct BatchOptions: Sendable {
    public var format: BatchFormat = .gif
    public var scale: Double?
    /// `--size WxH`: every scene fitted inside W×H pixels, centred, frames exactly W×H
    /// (instead of `scale`; see ``SceneRenderer/init(scene:fitting:fps:limits:timings:)``).
    public var size: (width: Int, height: Int)?
    public var fps: Double?
    public var frames: FrameRange?
    /// The original `--frames` text, for messages.
    public var framesText: String?
    public var jobs: Int = ProcessorCount.online
    public var force = false
    public var contactSheet = false
    public var shard: Shard?
    /// How GIFs are encoded (dither, quality, matte, lossy).
    public var gif = GIFEncodingOptions()
    /// How animated WebPs are encoded (`--lossless`, `--quality`).
    public var webp = WebPEncodingOptions()
    /// How PNG frames are compressed (`--png-compression`).
    public var pngCompression = PNGCompression.default
    /// Checked for every scene before anything large is allocated (an invalid scene).
    public var limits = ResourceLimits.default
    /// How scenes are loaded (assets outside the scene's folder).
    public var loader = SceneLoader.Options()
    /// The JSON report the caller writes afterwards: refused, as every output, when it is
    /// an input or another output (``OutputConflict``).
    public var report: String?

    public init() {}

    /// The options that decide output bytes, as hashed ("key=value"). Not `contactSheet`:
    /// the sheet is a separate output, checked by the hash inside it.
    var hashedOptions: [String] {
        ["format=\(format.rawValue)", "scale=\(scale.map { "\($0)" } ?? "scene")", "fps=\(fps.map { "\($0)" } ?? "scene")",
         "frames=\(frames.map { "\($0.first)-\($0.last)" } ?? "all")",
         "gif=\(gif.dither.rawValue),\(gif.quality),\(gif.matte.map { "\($0.red) \($0.green) \($0.blue)" } ?? "none")"
            + (gif.lossy > 0 ? ",lossy \(gif.lossy)" : "") + (gif.maxSize.map { ",max-size \($0)" } ?? "")]
            + (format == .png && pngCompression != .default ? ["png=\(pngCompression.rawValue)"] : [])
            + (format == .webp ? ["webp=" + (webp.lossless ? "lossless" : "quality \(webp.quality)")] : [])
            + (size.map { ["size=\($0.width)x\($0.height)"] } ?? [])
    }
}

/// One scene and where its output goes (a GIF file, or a folder of PNG frames).
public struct SceneTarget: Sendable {
    public var scenePath: String
    public var output: String

    public init(scenePath: String, output: String) {
        self.scenePath = scenePath
        self.output = output
    }

    /// The scene's name as ``Scene/name`` gives it: the file name without extension.
    public static func name(ofPath path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file
    }

    /// The output path with `.gif` removed: the base for the sheet and the frames folder.
    var base: String { output.lowercased().hasSuffix(".gif") ? String(output.dropLast(4)) : output }
    /// `output/<name>-sheet.png`.
    public var sheetPath: String { base + "-sheet.png" }
    /// Where versions before the hash moved inside the outputs kept it: deleted once the
    /// output is written again (the only thing Flipbook does with it).
    var oldHashPath: String { output + ".flipbook-hash" }
    /// With `--shard` and GIF output: the folder of PNG frames the shards share.
    public var framesFolder: String { base + ".frames" }
}

/// Renders many scenes with every core, each scene's outputs written atomically.
///
/// Scheduling: the scenes (or, with `--shard`, this machine's frame ranges of them) run
/// on up to K scene runners at once, longest first; each runner streams its frames
/// through the ordinary exporters (``GIFExporter``, ``PNGSequenceExporter``) with a few
/// render threads of its own. Every frame render takes one of `jobs` permits from a
/// shared semaphore, so at most `jobs` frames render at any moment whichever scenes they
/// belong to, and a runner that is busy in its serial GIF writing leaves its cores to
/// the other scenes. K = 1 for `--jobs 1` (everything on the calling thread), else
/// max(2, jobs / 4) scenes; each runner has max(2, ⌈2·jobs / K⌉) render threads.
///
/// Memory: each exporter holds a bounded window of frames (≈ 6 × its threads for GIF),
/// so in total about 12 × jobs + 12 frames plus K contact-sheet thumbnail sets.
///
/// Bytes never depend on the scheduling: every frame renders alone from its time, the
/// GIF encoder always diffs frame i against frame i − 1, and outputs are renamed into
/// place when complete.
public enum BatchRenderer {
    struct Prepared: Sendable {
        var index: Int
        var target: SceneTarget
        var name: String
        var renderer: SceneRenderer
        var range: ClosedRange<Int>
        var hash: String
        /// CPU time per stage, shared by the scene's units.
        var timings: StageTimings
    }

    /// Renders `targets` and returns one outcome per target, in order. Throws, having
    /// written nothing, when an output is the same file as an input or another output.
    public static func run(_ targets: [SceneTarget], options: BatchOptions,
                           progress: ProgressReporter) throws(OutputConflict) -> [SceneOutcome] {
        var outcomes: [SceneOutcome] = []
        var prepared: [Prepared] = []
        var owners: [String: String] = [:]
        for (i, target) in targets.enumerated() {
            let name = SceneTarget.name(ofPath: target.scenePath)
            var outcome = SceneOutcome(scene: target.scenePath, name: name, status: .rendered)
            outcome.outputs = [target.output]
            if let other = owners[target.output] {
                outcome.status = .invalid
                outcome.reason = "its output \(target.output) is also the output of \(other) (scenes need distinct names)"
                progress.error("\(target.scenePath): \(outcome.reason!)")
                outcomes.append(outcome)
                continue
            }
            owners[target.output] = target.scenePath
            switch prepare(i, target, name: name, options: options) {
            case .success(let p):
                prepared.append(p)
                outcome.hash = p.hash
            case .failure(let problem):
                outcome.status = problem.invalid ? .invalid : .failed
                outcome.reason = problem.reason
                progress.error(problem.message)
            }
            outcomes.append(outcome)
        }
        if let clash = outputConflict(prepared, targets: targets, options: options) { throw OutputConflict(clash) }

        // The work: one unit per scene, or this shard's units.
        var units: [(unit: WorkUnit, prepared: Prepared)] = []
        if let shard = options.shard {
            let sizes = prepared.map { p in
                RenderPlan.SceneSize(frames: p.range, pixels: p.renderer.pixelSize.width * p.renderer.pixelSize.height)
            }
            for (unit, s) in RenderPlan.assign(sizes, shards: shard.count) where s == shard.index - 1 {
                units.append((unit, prepared[unit.scene]))
            }
            for p in prepared {
                outcomes[p.index].status = .partial
                outcomes[p.index].frameRanges = []
                outcomes[p.index].outputs = [options.format == .gif ? p.target.framesFolder : p.target.output]
            }
        } else {
            for (k, p) in prepared.enumerated() {
                units.append((WorkUnit(scene: k, first: p.range.lowerBound, last: p.range.upperBound), p))
            }
        }
        // Longest first (by frames × pixels), so that the last scenes to finish are short.
        units.sort { a, b in
            let ca = a.unit.frameCount * a.prepared.renderer.pixelSize.width * a.prepared.renderer.pixelSize.height
            let cb = b.unit.frameCount * b.prepared.renderer.pixelSize.width * b.prepared.renderer.pixelSize.height
            return ca != cb ? ca > cb : (a.prepared.index, a.unit.first) < (b.prepared.index, b.unit.first)
        }

        let jobs = max(1, options.jobs)
        let runners = jobs == 1 ? 1 : max(1, min(units.count, max(2, jobs / 4)))
        let inner = jobs == 1 ? 1 : min(jobs, max(2, (2 * jobs + runners - 1) / runners))
        let permits = DispatchSemaphore(value: jobs)
        let results = LockedBox([Int: UnitResult]())
        let next = LockedBox(0)
        let work = units

        let runner: @Sendable () -> Void = {
            while true {
                let k: Int = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard k < work.count else { return }
                let result = execute(work[k].unit, work[k].prepared, id: k, options: options, jobs: inner,
                                     permits: permits, progress: progress)
                results.withLock { $0[k] = result }
            }
        }
        if runners == 1 {
            runner()
        } else {
            let group = DispatchGroup()
            for _ in 0..<runners {
                group.enter()
                let thread = Thread {
                    runner()
                    group.leave()
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
            group.wait()
        }

        let finished = results.withLock { $0 }
        for k in work.indices.sorted(by: { (work[$0].prepared.index, work[$0].unit.first) < (work[$1].prepared.index, work[$1].unit.first) }) {
            guard let r = finished[k] else { continue }
            let i = work[k].prepared.index
            var o = outcomes[i]
            o.frames += r.frames
            o.seconds += r.seconds
            o.bytes += r.bytes
            o.timings = work[k].prepared.timings.snapshot
            if options.shard != nil { o.frameRanges?.append("\(work[k].unit.first)-\(work[k].unit.last)") }
            if let failure = r.failure {
                o.status = .failed
                o.reason = failure
            } else if r.skipped, options.shard == nil {
                o.status = .skipped
            }
            if options.shard == nil, options.contactSheet, o.status != .failed { o.outputs.append(work[k].prepared.target.sheetPath) }
            outcomes[i] = o
        }
        return outcomes
    }

    struct Problem: Error {
        var invalid: Bool
        /// For the report.
        var reason: String
        /// For standard error (the same text the single-scene command always printed).
        var message: String
    }

    static func prepare(_ index: Int, _ target: SceneTarget, name: String, options: BatchOptions) -> Result<Prepared, Problem> {
        let timings = StageTimings()
        let scene: Scene
        do { scene = try timings.measure(.load) { try SceneFile.load(path: target.scenePath, options: options.loader) } } catch {
            return .failure(Problem(invalid: true, reason: "\(error)", message: "\(error)"))
        }
        if let warning = SceneFile.warningLine(path: target.scenePath, scene) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        let scale = options.size.map { SceneRenderer.fitScale(scene.canvas.size, into: $0) } ?? options.scale
        var broken = timings.measure(.load) { options.limits.violations(of: scene, scale: scale, fps: options.fps) }
        if let size = options.size, let problem = options.limits.imageViolation(width: size.width, height: size.height) {
            broken.append("--size \(size.width)x\(size.height): \(problem)")
        }
        guard broken.isEmpty else {
            return .failure(Problem(invalid: true, reason: broken.joined(separator: "; "),
                                    message: broken.map { "\(target.scenePath): \($0)" }.joined(separator: "\n")))
        }
        let renderer: SceneRenderer
        do {
            if let size = options.size {
                renderer = try SceneRenderer(scene: scene, fitting: size, fps: options.fps, limits: options.limits,
                                             timings: timings)
            } else {
                renderer = try SceneRenderer(scene: scene, scale: options.scale, fps: options.fps, limits: options.limits,
                                             timings: timings)
            }
        } catch {
            return .failure(Problem(invalid: true, reason: "\(error)", message: "\(target.scenePath): \(error)"))
        }
        if let warning = renderer.textWarning {
            FileHandle.standardError.write(Data("warning: \(target.scenePath): \(warning)\n".utf8))
        }
        let requested = options.frames ?? FrameRange(first: 0, last: Int.max)
        guard let range = requested.clamped(toFrameCount: renderer.frameCount) else {
            let reason = "--frames \(options.framesText ?? ""): the scene has frames 0-\(renderer.frameCount - 1)"
            return .failure(Problem(invalid: false, reason: reason,
                                    message: options.framesText == nil ? "\(target.scenePath): \(reason)" : reason))
        }
        let hash: String
        do {
            hash = try timings.measure(.load) {
                try ContentHash.compute(scenePath: target.scenePath, scene: scene, options: options.hashedOptions)
            }
        } catch {
            return .failure(Problem(invalid: true, reason: "\(error)", message: "\(target.scenePath): \(error)"))
        }
        return .success(Prepared(index: index, target: target, name: name, renderer: renderer, range: range, hash: hash,
                                 timings: timings))
    }

    struct UnitResult: Sendable {
        var frames = 0
        var seconds = 0.0
        var bytes = 0
        var skipped = false
        var failure: String?
    }

    /// Whether every output of `p` exists and carries its hash inside: the GIF (or every
    /// PNG frame of the range), and the contact sheet when one is asked for.
    static func upToDate(_ p: Prepared, options: BatchOptions) -> Bool {
        if options.contactSheet, ContentHash.stored(inPNG: p.target.sheetPath) != p.hash { return false }
        switch options.format {
        case .gif: return ContentHash.stored(inGIF: p.target.output) == p.hash
        case .png: return framesCarry(p.hash, p.range, in: p.target.output)
        case .webp: return ContentHash.stored(inWebP: p.target.output) == p.hash
        }
    }

    /// Whether every frame of `range` in `folder` is a PNG carrying `hash` (its chunk
    /// headers are read, not its pixels).
    static func framesCarry(_ hash: String, _ range: ClosedRange<Int>, in folder: String) -> Bool {
        range.allSatisfy { ContentHash.stored(inPNG: folder + "/" + PNGSequenceExporter.fileName(ofFrame: $0)) == hash }
    }

    static func execute(_ unit: WorkUnit, _ p: Prepared, id: Int, options: BatchOptions, jobs: Int,
                        permits: DispatchSemaphore, progress: ProgressReporter) -> UnitResult {
        var result = UnitResult()
        let clock = ContinuousClock()
        let started = clock.now
        let target = p.target
        let sharded = options.shard != nil
        let label = sharded ? "\(p.name) [\(unit.first)-\(unit.last)]" : p.name
        let folder = options.format == .gif && sharded ? target.framesFolder : target.output
        // What versions before the hash moved inside the outputs left beside them.
        let oldHashFile = sharded ? folder + "/.unit-\(unit.first)-\(unit.last).flipbook-hash" : target.oldHashPath

        // Incremental: skip when the outputs carry this content hash.
        if !options.force {
            let current: Bool
            if !sharded {
                current = upToDate(p, options: options)
            } else {
                current = (options.format == .gif && upToDate(p, options: BatchOptions.gifOnly(options)))
                    || framesCarry(p.hash, unit.frames, in: folder)
            }
            if current {
                result.skipped = true
                progress.output("\(sharded ? label : target.output): up to date, skipped")
                return result
            }
        }

        // The frames this run renders, in order (a GIF above 50 fps drops some, a WebP above 90).
        let rendered: [Int]
        if options.format != .png && !sharded {
            let plan = options.format == .gif ? GIFTiming.plan(frameCount: unit.frameCount, fps: p.renderer.fps)
                : WebPExporter.plan(frameCount: unit.frameCount, fps: p.renderer.fps)
            rendered = plan.map { unit.first + $0.frameIndex }
        } else {
            rendered = Array(unit.frames)
        }
        let sheetFrames = options.contactSheet && !sharded ? Set(ContactSheet.frameIndices(from: rendered)) : []
        let (width, height) = p.renderer.pixelSize
        let factor = ContactSheet.factor(width: width, height: height)
        let thumbnails = LockedBox([(frame: Int, image: Pixmap)]())
        let base = p.renderer
        let source = base.withFrames { i in
            permits.wait()
            let pixmap = base.renderFrame(i)
            permits.signal()
            if sheetFrames.contains(i) {
                let thumb = ContactSheet.thumbnail(pixmap, factor: factor)
                thumbnails.withLock { $0.append((i, thumb)) }
            }
            progress.advance(id)
            return pixmap
        }

        progress.start(id, name: label, total: rendered.count)
        do {
            switch (options.format, sharded) {
            case (.gif, false):
                try FileSystem.makeDirectories(FileSystem.folder(of: target.output))
                result.bytes = try GIFExporter.export(source, frames: unit.frames, to: target.output, jobs: jobs,
                                                     options: options.gif, comment: ContentHash.gifComment(p.hash))
            case (.png, _):
                result.bytes = try PNGSequenceExporter.export(source, frames: unit.frames, to: target.output, jobs: jobs,
                                                              compression: options.pngCompression,
                                                              text: ContentHash.pngText(p.hash))
            case (.webp, false):
                try FileSystem.makeDirectories(FileSystem.folder(of: target.output))
                result.bytes = try WebPExporter.export(source, frames: unit.frames, to: target.output, jobs: jobs,
                                                      options: options.webp, xmp: ContentHash.webpXMP(p.hash))
            case (.webp, true):
                throw BatchFormatUnsupported(message: "--shard does not cover WebP output yet")
            case (.gif, true):
                result.bytes = try PNGSequenceExporter.export(source, frames: unit.frames, to: target.framesFolder, jobs: jobs,
                                                              text: ContentHash.pngText(p.hash))
                try FrameManifest(p, options: options).write(to: target.framesFolder)
            }
            if !sheetFrames.isEmpty {
                let sheet = ContactSheet.compose(title: "\(p.name) — \(rendered.count) frames, \(width)×\(height) px, \(ContactSheet.formatNumber(p.renderer.fps)) fps",
                                                 thumbnails: thumbnails.withLock { $0 }, fps: p.renderer.fps)
                let bytes = try p.timings.measure(.encode) { () throws(PNGError) in
                    try PNGCodec.encode(sheet, compression: .default, text: ContentHash.pngText(p.hash))
                }
                try p.timings.measure(.write) { () throws(FileIOError) in
                    try FileSystem.makeDirectories(FileSystem.folder(of: target.sheetPath))
                    try FileIO.writeAtomically(bytes, to: target.sheetPath)
                }
                result.bytes += bytes.count
            }
            unlink(oldHashFile)
        } catch {
            let place = sharded && options.format == .gif ? target.framesFolder : target.output
            result.failure = "\(place): \(error)"
            progress.finish(id, line: nil)
            progress.error(result.failure!)
            return result
        }
        // The scene's frames (a GIF above 50 fps encodes fewer: see GIFTiming).
        result.frames = unit.frameCount
        result.seconds = seconds(started.duration(to: clock.now))
        let rate = Double(result.frames) / max(result.seconds, 1e-9)
        let place = sharded ? (options.format == .gif ? target.framesFolder : target.output) + " \(unit.first)-\(unit.last)" : target.output
        progress.finish(id, line: "\(place): \(result.frames) frames, \(width)×\(height) px, \(result.bytes) bytes in "
            + "\(String(format: "%.2f", result.seconds)) s (\(String(format: "%.1f", rate)) frames/s)")
        return result
    }
}

/// An output kind that a mode of the batch render does not write yet.
struct BatchFormatUnsupported: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension BatchOptions {
    /// The options as an unsharded GIF render would see them (to recognise a final GIF
    /// that is already up to date).
    static func gifOnly(_ o: BatchOptions) -> BatchOptions {
        var copy = o
        copy.shard = nil
        copy.format = .gif
        return copy
    }
}

extension SceneRenderer {
    /// This renderer with its frames produced by `source` instead.
    public func withFrames(_ source: @escaping @Sendable (Int) -> Pixmap) -> SceneRenderer {
        var copy = self
        copy.frameSource = source
        return copy
    }
}

/// A value behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
