import Flipbook
import Dispatch
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import Foundation
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
package enum BatchRenderer {
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
    package static func run(
        _ targets: [SceneTarget], options: BatchOptions,
        progress: some BatchProgress
    ) throws(OutputConflict) -> [SceneOutcome] {
        var outcomes: [SceneOutcome] = []
        var prepared: [Prepared] = []
        var owners: [String: String] = [:]
        for (i, target) in targets.enumerated() {
            let name = SceneTarget.name(ofPath: target.scenePath)
            var outcome = SceneOutcome(scene: target.scenePath, name: name, status: .rendered)
            outcome.outputs = [target.output]
            if let other = owners[target.output] {
                outcome.status = .invalid
                outcome.reason =
                    "its output \(target.output) is also the output of \(other) (scenes need distinct names)"
                progress.error("\(target.scenePath): \(outcome.reason!)")
                outcomes.append(outcome)
                continue
            }
            owners[target.output] = target.scenePath
            switch prepare(i, target, name: name, options: options, progress: progress) {
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
        if let clash = outputConflict(prepared, targets: targets, options: options) {
            throw OutputConflict(clash)
        }

        // The work: one unit per scene, or this shard's units.
        var units: [(unit: WorkUnit, prepared: Prepared)] = []
        if let shard = options.shard {
            let sizes = prepared.map { p in
                RenderPlan.SceneSize(
                    frames: p.range,
                    pixels: p.renderer.pixelSize.width * p.renderer.pixelSize.height)
            }
            for (unit, s) in RenderPlan.assign(sizes, shards: shard.count)
            where s == shard.index - 1 {
                units.append((unit, prepared[unit.scene]))
            }
            for p in prepared {
                outcomes[p.index].status = .partial
                outcomes[p.index].frameRanges = []
                outcomes[p.index].outputs = [
                    options.format.isAnimated ? p.target.framesFolder : p.target.output
                ]
            }
        } else {
            for (k, p) in prepared.enumerated() {
                units.append(
                    (WorkUnit(scene: k, first: p.range.lowerBound, last: p.range.upperBound), p))
            }
        }
        // Longest first (by frames × pixels), so that the last scenes to finish are short.
        units.sort { a, b in
            let ca =
                a.unit.frameCount * a.prepared.renderer.pixelSize.width
                * a.prepared.renderer.pixelSize.height
            let cb =
                b.unit.frameCount * b.prepared.renderer.pixelSize.width
                * b.prepared.renderer.pixelSize.height
            return ca != cb
                ? ca > cb : (a.prepared.index, a.unit.first) < (b.prepared.index, b.unit.first)
        }

        let jobs = max(1, options.jobs)
        let runners = jobs == 1 ? 1 : max(1, min(units.count, max(2, jobs / 4)))
        let inner = jobs == 1 ? 1 : min(jobs, max(2, (2 * jobs + runners - 1) / runners))
        let permits = DispatchSemaphore(value: jobs)
        let results = Locked([Int: UnitResult]())
        let next = Locked(0)
        let work = units

        let runner: @Sendable () -> Void = {
            while true {
                let k: Int = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard k < work.count else { return }
                let result = execute(
                    work[k].unit, work[k].prepared, id: k, options: options, jobs: inner,
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
        for k in work.indices.sorted(by: {
            (work[$0].prepared.index, work[$0].unit.first) < (
                work[$1].prepared.index, work[$1].unit.first
            )
        }) {
            guard let r = finished[k] else { continue }
            let i = work[k].prepared.index
            var o = outcomes[i]
            o.frames += r.frames
            o.seconds += r.seconds
            o.bytes += r.bytes
            o.timings = work[k].prepared.timings.snapshot
            if options.shard != nil {
                o.frameRanges?.append("\(work[k].unit.first)-\(work[k].unit.last)")
            }
            if let failure = r.failure {
                o.status = .failed
                o.reason = failure
            } else if r.skipped, options.shard == nil {
                o.status = .skipped
            }
            if options.shard == nil, options.contactSheet, o.status != .failed {
                o.outputs.append(work[k].prepared.target.sheetPath)
            }
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

    static func prepare(
        _ index: Int, _ target: SceneTarget, name: String, options: BatchOptions,
        progress: some BatchProgress
    ) -> Result<Prepared, Problem> {
        let timings = StageTimings()
        let prepared: PreparedScene
        do {
            prepared = try ScenePreparation.prepare(
                path: target.scenePath, options: options.preparation, timings: timings)
        } catch {
            for warning in error.warnings { progress.warning(warning) }
            return .failure(
                Problem(invalid: true, reason: error.reason, message: error.description))
        }
        for warning in prepared.warnings { progress.warning(warning) }
        let renderer = prepared.renderer
        let scene = renderer.scene
        let requested = options.frames ?? FrameRange(first: 0, last: Int.max)
        guard let range = requested.clamped(toFrameCount: renderer.frameCount) else {
            let reason =
                "--frames \(options.framesText ?? ""): the scene has frames 0-\(renderer.frameCount - 1)"
            return .failure(
                Problem(
                    invalid: false, reason: reason,
                    message: options.framesText == nil ? "\(target.scenePath): \(reason)" : reason))
        }
        let hash: String
        do {
            hash = try timings.measure(.load) {
                try ContentHash.compute(
                    scenePath: target.scenePath, scene: scene, options: options.hashedOptions)
            }
        } catch {
            return .failure(
                Problem(invalid: true, reason: "\(error)", message: "\(target.scenePath): \(error)")
            )
        }
        return .success(
            Prepared(
                index: index, target: target, name: name, renderer: renderer, range: range,
                hash: hash,
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
        if options.contactSheet, ContentHash.stored(inPNG: p.target.sheetPath) != p.hash {
            return false
        }
        switch options.format {
        case .gif: return ContentHash.stored(inGIF: p.target.output) == p.hash
        case .png: return framesCarry(p.hash, p.range, in: p.target.output)
        case .apng: return ContentHash.stored(inPNG: p.target.output) == p.hash
        case .webp: return ContentHash.stored(inWebP: p.target.output) == p.hash
        }
    }

    /// Whether every frame of `range` in `folder` is a PNG carrying `hash` (its chunk
    /// headers are read, not its pixels).
    static func framesCarry(_ hash: String, _ range: ClosedRange<Int>, in folder: String) -> Bool {
        if let pattern = PNGFramePattern(folder) {
            return range.allSatisfy { ContentHash.stored(inPNG: pattern.path(ofFrame: $0)) == hash }
        }
        return range.allSatisfy {
            ContentHash.stored(inPNG: folder + "/" + PNGSequenceExporter.fileName(ofFrame: $0))
                == hash
        }
    }

    static func execute(
        _ unit: WorkUnit, _ p: Prepared, id: Int, options: BatchOptions, jobs: Int,
        permits: DispatchSemaphore, progress: some BatchProgress
    ) -> UnitResult {
        var result = UnitResult()
        let clock = ContinuousClock()
        let started = clock.now
        let target = p.target
        let sharded = options.shard != nil
        let label = sharded ? "\(p.name) [\(unit.first)-\(unit.last)]" : p.name
        let folder = options.format.isAnimated && sharded ? target.framesFolder : target.output
        // What versions before the hash moved inside the outputs left beside them.
        let oldHashFile =
            sharded
            ? folder + "/.unit-\(unit.first)-\(unit.last).flipbook-hash" : target.oldHashPath

        // Incremental: skip when the outputs carry this content hash.
        if !options.force {
            let current: Bool
            if !sharded {
                current = upToDate(p, options: options)
            } else {
                current =
                    (options.format.isAnimated
                        && upToDate(p, options: BatchOptions.unsharded(options)))
                    || framesCarry(p.hash, unit.frames, in: folder)
            }
            if current {
                result.skipped = true
                progress.output("\(sharded ? label : target.output): up to date, skipped")
                return result
            }
        }

        // The frames this run renders, in order (a GIF above 50 fps drops some, an APNG or a
        // WebP above 90).
        let rendered =
            sharded
            ? Array(unit.frames)
            : options.format.encodedFrames(frameCount: unit.frameCount, fps: p.renderer.fps).map {
                unit.first + $0
            }
        let (width, height) = p.renderer.pixelSize
        let output = OutputProgress(
            id: id, name: label, rendered: rendered, contactSheet: options.contactSheet && !sharded,
            width: width, height: height, progress: progress)
        let source = output.observing(p.renderer, permits: permits)
        do {
            // The one exporter of this output; shards of an animated output write PNG
            // frames that `flipbook assemble` encodes.
            let exporter: any FrameExporter
            let destination: String
            if sharded && options.format.isAnimated {
                exporter = PNGSequenceExporter(text: ContentHash.pngText(p.hash))
                destination = target.framesFolder
            } else if options.format == .png {
                let pattern = PNGFramePattern(target.output)
                exporter = PNGSequenceExporter(
                    compression: options.pngCompression, text: ContentHash.pngText(p.hash),
                    pattern: pattern)
                destination = pattern?.folder ?? target.output
            } else {
                try FileSystem.makeDirectories(FileSystem.folder(of: target.output))
                exporter = options.exporter(hash: p.hash)
                destination = target.output
            }
            result.bytes = try exporter.export(
                source, frames: unit.frames, to: destination, jobs: jobs)
            if options.format.isAnimated && sharded {
                try FrameManifest(p, options: options).write(to: target.framesFolder)
            }
            if output.hasSheet {
                result.bytes += try output.writeSheet(
                    name: p.name, fps: p.renderer.fps, hash: p.hash, to: target.sheetPath,
                    timings: p.timings)
            }
            unlink(oldHashFile)
        } catch {
            let place = sharded && options.format.isAnimated ? target.framesFolder : target.output
            result.failure = "\(place): \(options.limitNaming.message(of: error))"
            output.fail(result.failure!)
            return result
        }
        // The scene's frames (a GIF above 50 fps encodes fewer: see GIFTiming).
        result.frames = unit.frameCount
        result.seconds = seconds(started.duration(to: clock.now))
        let rate = Double(result.frames) / max(result.seconds, 1e-9)
        let place =
            sharded
            ? (options.format.isAnimated ? target.framesFolder : target.output)
                + " \(unit.first)-\(unit.last)" : target.output
        output.finish(
            "\(place): \(result.frames) frames, \(width)×\(height) px, \(result.bytes) bytes in "
                + "\(String(format: "%.2f", result.seconds)) s (\(String(format: "%.1f", rate)) frames/s)"
        )
        return result
    }
}
