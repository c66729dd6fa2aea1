import ArgumentParser
import Foundation
import Flipbook
import FlipbookBatch
import FlipbookCodecs

/// The body of `flipbook render`: finds the scenes, picks their outputs, renders them
/// with ``BatchRenderer``, prints the summary, writes the report, sets the exit code.
///
/// One plain scene file keeps the original behaviour: `--output` names the GIF file (or
/// the PNG folder), the default is output/<name>.gif, and one result line is printed.
/// Several scenes, a folder or a glob make `--output` the folder for every output
/// (default output/): output/<name>.gif, or output/<name>/ for PNG frames.
struct BatchRun {
    let command: RenderCommand

    init(_ command: RenderCommand) { self.command = command }

    var isSingleScene: Bool {
        command.scenes.count == 1 && !SceneDiscovery.isPattern(command.scenes[0])
            && !SceneDiscovery.isFolder(command.scenes[0])
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let single = isSingleScene
        let progress = ProgressReporter(
            style: ProgressReporter.defaultStyle(quiet: command.quiet), milestones: !single)

        var options = BatchOptions()
        options.scale = command.scale
        options.size = command.size.flatMap(StillCommand.parseSize).map {
            (width: $0.0, height: $0.1)
        }
        options.fps = command.fps
        options.frames = command.frames.flatMap(FrameRange.init(parsing:))
        options.framesText = command.frames
        options.jobs = command.jobs ?? ProcessorCount.online
        options.force = command.force
        options.contactSheet = command.contactSheet
        options.gif = GIFEncodingOptions(
            dither: command.dither, quality: command.quality,
            matte: command.matte.flatMap(RenderCommand.parseMatte), lossy: command.lossy)
        options.maxSize = command.maxSize?.bytes
        options.webp = WebPEncodingOptions(lossless: command.lossless, quality: command.quality)
        options.pngCompression = command.pngCompression
        options.limits = command.limits.limits()
        options.framesInFlight = LimitOptions.framesInFlight(jobs: options.jobs)
        options.limitNaming = LimitOptions.flagNaming
        options.loader = command.limits.loaderOptions
        options.report = command.report
        if let text = command.shard {
            options.shard = Shard(parsing: text)
        } else {
            switch Shard.fromEnvironment(ProcessInfo.processInfo.environment) {
            case .success(let shard): options.shard = shard
            case .failure(let error):
                printError("\(error)")
                throw ExitCode(64)
            }
        }

        var targets: [SceneTarget] = []
        var outcomes: [SceneOutcome] = []
        if single {
            let path = command.scenes[0]
            let format = OutputNaming.format(explicit: command.format, output: command.output)
            options.format = format
            let output =
                command.output ?? "output/\(SceneTarget.name(ofPath: path))"
                + OutputNaming.fileExtension(format)
            targets = [SceneTarget(scenePath: path, output: output)]
        } else {
            options.format = command.format.map(OutputNaming.batchFormat) ?? .gif
            if options.format == .png, let output = command.output,
                PNGFramePattern.looksLikePattern(output)
            {
                printError(
                    "--output \(output): a frame pattern names the frames of one scene; give a folder for several"
                )
                throw ExitCode(64)
            }
            let found = SceneDiscovery.discover(command.scenes)
            for pattern in found.missing {
                printError("\(pattern): no scene files match")
                var o = SceneOutcome(
                    scene: pattern, name: pattern, status: .invalid, reason: "no scene files match")
                o.outputs = []
                outcomes.append(o)
            }
            if found.scenes.isEmpty {
                printError(
                    "no scene files (*.yaml, *.yml, *.json) in \(command.scenes.joined(separator: " "))"
                )
                throw ExitStatus.badScene
            }
            let folder = command.output ?? "output"
            for path in found.scenes {
                let name = SceneTarget.name(ofPath: path)
                targets.append(
                    SceneTarget(
                        scenePath: path,
                        output: folder + "/" + name + OutputNaming.fileExtension(options.format)))
            }
            if let shard = options.shard {
                progress.output(
                    "shard \(shard): \(found.scenes.count) scenes found; rendering this shard's part"
                )
            }
        }

        do {
            outcomes += try BatchRenderer.run(targets, options: options, progress: progress)
        } catch {
            printError("error: \(error)")
            throw ExitCode(64)
        }
        try Interruption.exitIfInterrupted(
            RenderCancelled(), target: single ? targets[0].output : "every output")
        let wall = seconds(since: started, clock)
        if !single {
            for line in RenderReport.summary(outcomes, wallSeconds: wall) { progress.output(line) }
        }
        if command.timings {
            for o in outcomes {
                guard let t = o.timings else { continue }
                printError("timings \(o.name): \(t.summary)")
            }
            printError(
                "timings: process CPU \(String(format: "%.1f", processCPUMilliseconds())) ms in \(String(format: "%.2f", wall)) s"
            )
        }
        let report = RenderReport(
            jobs: options.jobs, shard: options.shard, wallSeconds: wall, scenes: outcomes)
        if let path = command.report {
            do { try report.write(to: path) } catch {
                printError("\(path): \(error)")
                throw ExitStatus.failure
            }
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}

func seconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
    seconds(start.duration(to: clock.now))
}
