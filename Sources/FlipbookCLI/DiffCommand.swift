import ArgumentParser
import Foundation
import Flipbook
import FlipbookDiff
import FlipbookScene
import FlipbookRaster

/// `flipbook diff A B`: compares two PNG files, folders of PNG frames, GIFs, APNGs or WebPs.
///
/// Exit codes: 0 same within tolerance, 1 different (pixels, sizes, delays or frame
/// counts), 2 usage error or unreadable input. Every option value is validated in `run()`
/// so that bad values exit 2 as well (ArgumentParser's own errors, such as an unknown
/// option, keep its code 64).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare frames: PNG files, folders of PNG frames, GIFs, APNGs or WebPs, in any combination.",
        discussion: """
            Pixels differ when their color distance (--metric yiq, pixelmatch's YIQ measure, or \
            oklab) exceeds the threshold; pixels that differ only because an anti-aliased edge moved are counted \
            apart and not as differences unless --include-aa. Frames pair by position. Prints \
            one line per differing frame (differing pixels, ratio, bounding box, PSNR) and a \
            summary. Exit 0 same within tolerance, 1 different, 2 usage error or unreadable input.
            """)

    @Argument(
        help: "Expected: a PNG file (animated or not), a folder of PNG frames, a GIF or a WebP.")
    var expected: String?

    @Argument(
        help: "Actual: a PNG file (animated or not), a folder of PNG frames, a GIF or a WebP.")
    var actual: String?

    @Option(
        help:
            "Pair frames by time: sample GIF, APNG and WebP inputs at this rate, frame i at i / fps s (they merge identical frames)."
    )
    var fps: String?

    @Option(
        help: "Most frames an input sampled with --fps may have (its delays' total times the rate)."
    )
    var maxFrames: Int = ResourceLimits.default.maxFrames

    @Flag(help: "Print the time spent reading the inputs and comparing them to standard error.")
    var timings = false

    @Option(
        help: ArgumentHelp(
            "Most memory for the decoded frames of both inputs, in bytes; K, M and G suffixes "
                + "(a GIF asking for more is refused before it is decoded).", valueName: "bytes"))
    var maxMemory: ByteCount = ByteCount(ResourceLimits.default.maxMemory)

    @OptionGroup var comparison: ComparisonOptions

    func run() throws {
        let options = try comparison.resolved()
        let clock = ContinuousClock()
        let started = clock.now
        guard let expected, let actual else {
            throw usage("diff wants two inputs: flipbook diff EXPECTED ACTUAL")
        }
        let rate = try positiveNumber(fps, name: "--fps", upTo: 240)
        if let html = comparison.html {
            let inputs = [(expected, "expected"), (actual, "actual")].flatMap {
                path, role -> [OutputSafety.File] in
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                    return [.init(path, role: role)]
                }
                return names.map { .init(path + "/" + $0, role: role) }
            }
            try CheckCommand.refuseOverwriting(
                inputs, folders: [.init(html, role: "--html", writes: OutputSafety.htmlReportFiles)]
            )
        }
        var a: FrameSequence, b: FrameSequence
        do {
            // Half the budget each: both inputs are held while they are compared.
            a = try FrameSequence.load(expected, maxMemory: maxMemory.bytes / 2)
            b = try FrameSequence.load(actual, maxMemory: maxMemory.bytes / 2)
        } catch {
            printError(
                "error: \(error)"
                    + (error.exceedsMemoryLimit
                        ? " (both inputs share --max-memory; raise it)" : ""))
            throw ExitCode(2)
        }
        // Time pairing: every GIF, APNG or WebP input is sampled at the rate (delays are then compared
        // through the sampling, not one by one).
        if let rate {
            do {
                a = try a.sampled(fps: rate, maxFrames: maxFrames)
                b = try b.sampled(fps: rate, maxFrames: maxFrames)
            } catch {
                // The library names the limit; the flag that raises it is the CLI's word.
                let flag = if case .tooManyFrames = error { " (--max-frames)" } else { "" }
                printError("error: \(error)\(flag)")
                throw ExitCode(2)
            }
        }
        let loaded = clock.now
        let result = SequenceComparator.compare(
            expected: a, actual: b, options: options, diffFolder: comparison.diffDir)
        if timings {
            func ms(_ d: Duration) -> String {
                String(
                    format: "%.2f",
                    Double(d.components.attoseconds) * 1e-15
                        + Double(d.components.seconds) * 1e3)
            }
            printError(
                "timings: read \(ms(started.duration(to: loaded))) ms, compare \(ms(loaded.duration(to: clock.now))) ms"
            )
        }
        comparison.print(result)
        if let html = comparison.html {
            comparison.writeHTML(result, title: "flipbook diff \(expected) \(actual)", to: html) {
                position in
                (a.frames[position], b.frames[position])
            }
        }
        if !result.passed { throw ExitCode(1) }
    }
}

/// The comparison options `diff` and `check` share, as text so that bad values are
/// usage errors with exit code 2 (see ``resolved()``).
struct ComparisonOptions: ParsableArguments {
    @Option(help: "Color threshold in 0…1 (YIQ distance, as pixelmatch). Default 0.1.")
    var threshold: String?

    @Option(help: "Differing pixels tolerated per frame.")
    var maxDiffPixels: String?

    @Option(help: "Ratio of differing pixels tolerated per frame, 0…1.")
    var maxDiffRatio: String?

    @Option(help: "Region left out of the comparison, x,y,w,h in pixels (repeatable).")
    var ignore: [String] = []

    @Flag(help: "Count anti-aliasing pixels as differences.")
    var includeAa = false

    @Option(
        help:
            "Color distance: yiq (pixelmatch up to 7.2, the default) or oklab (HyAB in OKLab with Lr, pixelmatch after 7.2.0)."
    )
    var metric: String?

    @Flag(
        help:
            "Show semi-transparent pixels over pixelmatch 7.2's checkerboard instead of black and white before measuring."
    )
    var checkerboard = false

    @Option(
        help:
            "Apply the limits to the largest count of differing pixels in any N×N window (ratio over the window's area)."
    )
    var window: String?

    @Option(help: "Write a self-contained HTML report (index.html and images) into this folder.")
    var html: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(
        help: "Write expected | difference | actual images of differing frames into this folder.")
    var diffDir: String?

    /// The options, or a usage error (exit 2) naming the bad value.
    func resolved() throws -> DiffOptions {
        var options = DiffOptions(includeAntiAliased: includeAa)
        if let metric {
            guard let value = DiffMetric(rawValue: metric) else {
                throw usage("--metric wants yiq or oklab, got '\(metric)'")
            }
            options.metric = value
        }
        if checkerboard { options.backdrop = .checkerboard }
        if let window {
            guard let value = Int(window) else {
                throw usage("--window wants a whole number, got '\(window)'")
            }
            options.window = value
        }
        if let threshold {
            guard let value = Double(threshold) else {
                throw usage("--threshold wants a number, got '\(threshold)'")
            }
            options.threshold = value
        }
        if let maxDiffPixels {
            guard let value = Int(maxDiffPixels) else {
                throw usage("--max-diff-pixels wants a whole number, got '\(maxDiffPixels)'")
            }
            options.maxDiffPixels = value
        }
        if let maxDiffRatio {
            guard let value = Double(maxDiffRatio) else {
                throw usage("--max-diff-ratio wants a number, got '\(maxDiffRatio)'")
            }
            options.maxDiffRatio = value
        }
        for text in ignore {
            guard let rect = PixelBounds(parsing: text) else {
                throw usage("--ignore wants x,y,w,h (w, h > 0), got '\(text)'")
            }
            options.ignoreRegions.append(rect)
        }
        if let problem = options.problem {
            let flag =
                switch problem {
                case .threshold: "--threshold"
                case .maxDiffPixels: "--max-diff-pixels"
                case .maxDiffRatio: "--max-diff-ratio"
                case .window: "--window"
                }
            throw usage(problem.message(name: flag))
        }
        return options
    }

    /// Writes the HTML report (``HTMLReport``) and prints where it went, to standard error
    /// so that `--json` output stays clean; a report that cannot be written is an error
    /// message, not a changed exit code.
    func writeHTML(
        _ result: SequenceDiff, title: String, to folder: String, images: HTMLReport.FrameImages
    ) {
        do {
            let path = try HTMLReport.write(result, images: images, to: folder, title: title)
            printError("report: \(path)")
        } catch {
            printError("error: HTML report not written to \(folder): \(error)")
        }
    }

    /// Prints the report: JSON, or the text lines.
    func print(_ result: SequenceDiff) {
        if json {
            Swift.print(DiffReport.json(result))
        } else {
            for line in DiffReport.lines(result) { Swift.print(line) }
        }
    }
}

/// Prints `message` as a usage error and returns the exit code 2 to throw.
func usage(_ message: String) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(2)
}

/// A number option in (0, limit], nil when absent, or a usage error (exit 2).
func positiveNumber(_ text: String?, name: String, upTo limit: Double) throws -> Double? {
    guard let text else { return nil }
    guard let value = Double(text), value > 0, value <= limit else {
        throw usage("\(name) must be a number in (0, \(Int(limit))], got '\(text)'")
    }
    return value
}
