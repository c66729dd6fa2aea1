import ArgumentParser
import Foundation
import Flipbook
import FlipbookBatch

/// `flipbook assemble FOLDER`: the GIFs, APNGs and WebPs from the PNG frames that `render --shard` wrote.
struct AssembleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assemble",
        abstract:
            "Build the final GIFs, APNGs or WebPs from the frames that several `render --shard i/n` runs wrote.",
        discussion: """
            Every <name>.frames/ folder in FOLDER (with its manifest.json) becomes FOLDER/<name>.gif, \
            <name>.png (APNG) or <name>.webp, in the format and with the options the shards were given \
            (recorded in the manifest): byte for byte the file a one-machine `flipbook render` gives, plus \
            <name>-sheet.png when the shards ran with --contact-sheet. Fails (exit 1) when a frame is \
            missing or the output does not fit the shards' --max-size.
            """)

    @Argument(help: "The output folder the shards shared.")
    var folder: String = "output"

    @Option(help: "Threads for encoding. Default: all cores.")
    var jobs: Int?

    @Flag(help: "Delete the <name>.frames/ folders once their output is written.")
    var removeFrames = false

    @Flag(help: "Assemble even the outputs that are up to date with their frames.")
    var force = false

    @Option(help: ArgumentHelp("Write a JSON report to this file.", valueName: "file.json"))
    var report: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        guard !FrameAssembler.frameFolders(in: folder).isEmpty else {
            printError(
                "\(folder): no <name>.frames/ folders with a manifest.json (render with --shard first)"
            )
            throw ExitStatus.failure
        }
        if let report {
            let files = OutputSafety.assembly(in: folder)
            if let clash = OutputSafety.conflict(
                inputs: files.inputs,
                outputs: files.outputs + [.init(report, role: "--report")])
            {
                printError("error: \(clash)")
                throw ExitCode(64)
            }
        }
        let progress = ProgressReporter(
            style: ProgressReporter.defaultStyle(quiet: quiet), milestones: true)
        let outcomes = FrameAssembler.assemble(
            folder: folder, jobs: jobs ?? ProcessorCount.online,
            removeFrames: removeFrames, force: force, naming: LimitOptions.flagNaming,
            progress: progress)
        let wall = seconds(since: started, clock)
        for line in RenderReport.summary(outcomes, wallSeconds: wall) { progress.output(line) }
        let report = RenderReport(
            jobs: jobs ?? ProcessorCount.online, shard: nil, wallSeconds: wall, scenes: outcomes)
        if let path = self.report { try report.write(to: path) }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
