import ArgumentParser
import Foundation
import Flipbook
import FlipbookDiff
import FlipbookGoldens
import FlipbookScene
import FlipbookCodecs
import FlipbookRaster

/// `flipbook check SCENE --golden DIR [--record]`: snapshot testing of a scene's frames
/// against `DIR/frame-NNNN.png`, or against one animation file (`--golden x.png`, `.webp`,
/// `.gif`; see `GoldenCheck` and `AnimationGoldenFormat` for the rules).
///
/// Exit codes as `diff`: 0 every frame matches within tolerance (or the goldens were
/// recorded), 1 different or missing goldens, 2 usage error, unreadable scene or golden.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Render a scene and compare its frames with golden PNG frames (--record writes them).",
        discussion: """
            Frame i is compared with DIR/frame-NNNN.png, as `render --format png` names frames. \
            A golden named x.png, x.webp or x.gif (not a folder) is one animation file instead: \
            an APNG, a lossless WebP or a GIF, written as `render -o` writes it; the scene is \
            encoded the same way and compared frame by frame, delays and frame count included. \
            --html DIR writes a report of the comparison (docs/diff.md). \
            Missing goldens fail unless --record; with --record the rendered frames are written \
            as the new goldens (stale frame files beyond the scene's end are removed when the \
            whole scene is recorded). Same report and exit codes as `flipbook diff`.
            """)

    @Argument(help: "The scene file.")
    var scene: String?

    @Option(
        help:
            "Folder of golden frames (frame-0000.png, …), or one animation file (.png, .webp, .gif)."
    )
    var golden: String?

    @Flag(help: "Write the rendered frames as the goldens instead of comparing.")
    var record = false

    @Option(help: "Pixels per point; overrides the scene's canvas scale.")
    var scale: String?

    @Option(help: "Frames per second; overrides the scene's.")
    var fps: String?

    @Option(help: "Frame range to check, A-B inclusive (A-, -B and A also work).")
    var frames: String?

    @OptionGroup var comparison: ComparisonOptions

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let options = try comparison.resolved()
        guard let scene else {
            throw usage("check wants a scene file: flipbook check SCENE --golden DIR")
        }
        guard let golden else { throw usage("check wants --golden DIR") }
        let scaleValue = try positiveNumber(scale, name: "--scale", upTo: 16)
        let fpsValue = try positiveNumber(fps, name: "--fps", upTo: 240)
        var requested: FrameRange?
        if let frames {
            guard let range = FrameRange(parsing: frames) else {
                throw usage("--frames wants A-B with 0 ≤ A ≤ B, got '\(frames)'")
            }
            requested = range
        }
        let renderer = try limits.renderer(scene, scale: scaleValue, fps: fpsValue)
        var check = GoldenCheck(goldenFolder: golden, options: options, record: record)
        check.diffFolder = comparison.diffDir
        let animation = check.animationFormat != nil
        try Self.refuseOverwriting(
            OutputSafety.inputs(of: renderer.scene, scenePath: scene),
            outputs: record && animation ? [.init(golden, role: "--golden, recorded")] : [],
            folders: record && animation
                ? []
                : record
                    ? [
                        .init(
                            golden, role: "--golden, recorded",
                            writes: OutputSafety.frameFiles(0...Int.max))
                    ]
                    : comparison.html.map {
                        [.init($0, role: "--html", writes: OutputSafety.htmlReportFiles)]
                    } ?? [])
        var range: ClosedRange<Int>?
        if let requested {
            guard let clamped = requested.clamped(toFrameCount: renderer.frameCount) else {
                throw usage(
                    "--frames \(frames ?? ""): the scene has frames 0-\(renderer.frameCount - 1)")
            }
            range = clamped
        }
        let result: GoldenResult
        // The HTML report shows the rendered frames: they are kept (rendered here) for it.
        var rendered: [Pixmap] = []
        do {
            if comparison.html != nil && !record && !animation {
                let whole = 0...(renderer.frameCount - 1)
                let span = range ?? whole
                try OrderedParallelMap.run(
                    count: span.count, jobs: ProcessorCount.online,
                    produce: { renderer.renderFrame(span.lowerBound + $0) },
                    consume: { _, frame in rendered.append(frame) })
                result = try check.verify(
                    frames: zip(span, rendered).map { (index: $0, image: $1) },
                    wholeCount: span == whole ? renderer.frameCount : nil, label: scene)
            } else {
                result = try check.verify(renderer: renderer, frames: range, label: scene)
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        if let html = comparison.html, !result.didRecord {
            let first = (range ?? 0...0).lowerBound
            comparison.writeHTML(result.diff, title: "flipbook check \(scene)", to: html) {
                position in
                let frame = result.diff.frames[position]
                if let frames = result.animationFrames {
                    return (frames.expected.frames[frame.index], frames.actual.frames[frame.index])
                }
                let golden = try? PNGCodec.read(path: golden + "/" + frame.expectedName)
                let index = frame.index - first
                return (golden, rendered.indices.contains(index) ? rendered[index] : nil)
            }
        }
        if result.didRecord || !comparison.json {
            for line in result.reportLines { print(line) }
        } else {
            comparison.print(result.diff)
        }
        if !result.passed { throw ExitCode(1) }
    }

    /// Exits 2 (the comparison commands' usage error) when an output folder would
    /// overwrite an input.
    static func refuseOverwriting(
        _ inputs: [OutputSafety.File], outputs: [OutputSafety.File] = [],
        folders: [OutputSafety.Folder]
    ) throws {
        guard let clash = OutputSafety.conflict(inputs: inputs, outputs: outputs, folders: folders)
        else { return }
        throw usage(clash)
    }
}
