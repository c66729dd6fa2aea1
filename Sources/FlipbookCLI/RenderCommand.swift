import ArgumentParser
import Foundation
import Flipbook
import FlipbookScene

/// The output kinds of `flipbook render`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case gif, png
}

/// `flipbook render SCENE`: validates its options, then hands off to the exporters.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to an animated GIF or a folder of PNG frames.",
        discussion: """
            Frame i shows t = i / fps and is canvas size × scale pixels. With --format png, \
            the output is a folder that receives frame-0000.png, frame-0001.png, … \
            (numbered by frame index). Default output: output/<scene name>.gif, or the \
            folder output/<scene name>/ for PNG frames.

            Several scenes, a folder or a glob: every scene renders into the --output folder \
            (default output/), frames of several scenes in flight on every core; one failing \
            scene does not stop the others (exit 2 if any is invalid, else 1 if any failed). \
            Outputs whose content hash (scene, assets, font files, options, renderer version; \
            stored in <output>.flipbook-hash) is unchanged are skipped unless --force. \
            See docs/ci.md for --shard and `flipbook assemble`.
            """)

    @Argument(help: "Scene files (.yaml, .yml or .json), folders (searched recursively) or glob patterns.")
    var scenes: [String]

    @Option(name: .shortAndLong, help: "Output file (GIF) or folder (PNG frames); with several scenes, the folder for all outputs.")
    var output: String?

    @Option(help: "gif or png. Default: gif, or png when --output names no .gif file and exists as a folder.")
    var format: OutputFormat?

    @Option(help: "Pixels per point; overrides the scene's canvas scale.")
    var scale: Double?

    @Option(help: "Frames per second; overrides the scene's.")
    var fps: Double?

    @Option(help: "Frame range to render, A-B inclusive (A-, -B and A also work).")
    var frames: String?

    @Option(help: "Frames rendered in parallel. Default: all cores.")
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Option(help: ArgumentHelp("Write a JSON report of every scene to this file.", valueName: "file.json"))
    var report: String?

    @Flag(help: "Render even the scenes whose outputs are up to date.")
    var force = false

    @Flag(help: "Also write <name>-sheet.png: a grid of 12 evenly spaced frames labelled with their times.")
    var contactSheet = false

    @Option(help: ArgumentHelp("Render only part i of n of the work (scenes, and frame ranges of long scenes); "
        + "default from FLIPBOOK_SHARD, CI_NODE_INDEX/CI_NODE_TOTAL or JOB_COMPLETION_INDEX/FLIPBOOK_SHARD_TOTAL.",
        valueName: "i/n"))
    var shard: String?

    func validate() throws {
        if let scale, !(scale > 0 && scale <= 16) { throw ValidationError("--scale must be in (0, 16], got \(scale)") }
        if let fps, !(fps > 0 && fps <= 240) { throw ValidationError("--fps must be in (0, 240], got \(fps)") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if let frames, FrameRange(parsing: frames) == nil {
            throw ValidationError("--frames wants A-B with 0 ≤ A ≤ B, got '\(frames)'")
        }
        if let shard, Shard(parsing: shard) == nil { throw ValidationError("--shard wants i/n with 1 ≤ i ≤ n, got '\(shard)'") }
        if scenes.isEmpty { throw ValidationError("name at least one scene file, folder or glob") }
    }

    func run() throws {
        try BatchRun(self).run()
    }
}
