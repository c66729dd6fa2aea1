import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookDiff
import FlipbookRaster
import FlipbookScene

/// Snapshot testing of scenes against golden frames: the core of `flipbook check` and of
/// the one-line test calls (FlipbookTesting's `expectFrames`, FlipbookXCTest's
/// `assertFrames`), independent of any test framework: failures come back as a
/// ``GoldenResult`` whose `failureMessage` and ``GoldenResult/evidence`` a test records.
///
/// Layout: the golden of frame i is `goldenFolder/frame-NNNN.png` (the names
/// `flipbook render --format png` writes); a frame rendered at an arbitrary time has a
/// golden named by the caller (`goldenFolder/<name>.png`).
///
/// Rules:
/// - comparing: each rendered frame with its golden by ``comparison`` (pixelmatch's rules
///   with ``DiffOptions``, or a per-channel tolerance); a missing golden fails; when the
///   whole scene is checked, goldens `frame-NNNN.png` beyond the scene's last frame make the
///   frame counts differ and fail;
/// - recording (`record`; by default ``GoldenRecording/isOn``: the `.recordingGoldens`
///   trait or `FLIPBOOK_RECORD=1`): the rendered frames are written as goldens (folder
///   created, files replaced) and nothing fails; when the whole scene is recorded, stale
///   `frame-NNNN.png` beyond its last frame are removed;
/// - diff images (expected | highlighted difference | actual) go to `diffFolder`, named
///   `diff-NNNN.png` by frame index (`<name>.png` for named frames); with ``writesReport``,
///   a failing check also writes an HTML report (``HTMLReport``) to
///   `diffFolder/report/` (`diffFolder/<name>-report/` for named frames).
public struct GoldenCheck: Sendable {
    public var goldenFolder: String
    /// Where diff images are written; nil writes none.
    public var diffFolder: String?
    /// When a frame matches its golden.
    public var comparison: GoldenComparison
    public var record: Bool
    /// Whether a failing check writes an HTML report into `diffFolder` (the test calls do;
    /// `flipbook check` writes its own with `--html`).
    public var writesReport = false

    /// `diffFolder` defaults to `$FLIPBOOK_DIFF_DIR/<golden folder name>` when that
    /// variable is set, else to `<temporary folder>/flipbook-diffs/<golden folder name>`.
    public init(
        goldenFolder: String, diffFolder: String? = nil, options: DiffOptions = DiffOptions(),
        record: Bool = GoldenCheck.recordRequested
    ) {
        self.init(
            goldenFolder: goldenFolder, diffFolder: diffFolder, comparison: .perceptual(options),
            record: record)
    }

    public init(
        goldenFolder: String, diffFolder: String? = nil, comparison: GoldenComparison,
        record: Bool = GoldenCheck.recordRequested
    ) {
        self.goldenFolder = goldenFolder
        let leaf = URL(fileURLWithPath: goldenFolder).lastPathComponent
        let base =
            ProcessInfo.processInfo.environment["FLIPBOOK_DIFF_DIR"]
            ?? (NSTemporaryDirectory() + "flipbook-diffs")
        self.diffFolder = diffFolder ?? (base + "/" + leaf)
        self.comparison = comparison
        self.record = record
    }

    /// The pixelmatch options of ``comparison`` (nominal for a channel tolerance, see
    /// ``GoldenComparison/diffOptions``); setting them makes the comparison perceptual.
    public var options: DiffOptions {
        get { comparison.diffOptions }
        set { comparison = .perceptual(newValue) }
    }

    /// Whether recording is on for a check that is not told: ``GoldenRecording/isOn``.
    public static var recordRequested: Bool { GoldenRecording.isOn }

    /// A path named relative to the folder of a source file: `folder("Goldens/login")`
    /// called from a test file resolves beside that file; an absolute path stays as it is.
    public static func folder(_ relative: String, besideFile file: String = #filePath) -> String {
        if relative.hasPrefix("/") { return relative }
        return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(
            relative
        ).path
    }

    /// Renders the scene file's frames (all, or `frames`) and checks them. `load` says how
    /// the file is read (YAML and JSON scenes, Lottie `.json`, `.lottie`, `.tgs`).
    public func verify(
        scene path: String, scale: Double? = nil, fps: Double? = nil,
        frames: ClosedRange<Int>? = nil,
        load: SceneLoader.Options = SceneLoader.Options()
    ) throws -> GoldenResult {
        let prepared = try ScenePreparation.prepare(
            path: path, options: PreparationOptions(loader: load, scale: scale, fps: fps))
        return try verify(renderer: prepared.renderer, frames: frames, label: path)
    }

    /// Renders frames of a prepared renderer (all, or `frames` clamped to the scene) and
    /// checks them.
    public func verify(
        renderer: SceneRenderer, frames: ClosedRange<Int>? = nil,
        label: String = "scene"
    ) throws -> GoldenResult {
        let whole = 0...(renderer.frameCount - 1)
        let range = frames.map { $0.clamped(to: whole) } ?? whole
        if let format = animationFormat {
            guard range == whole else { throw GoldenError.partialAnimation(goldenFolder) }
            return try verifyAnimation(renderer: renderer, format: format, label: label)
        }
        var rendered: [Pixmap] = []
        try OrderedParallelMap.run(
            count: range.count, jobs: ProcessorCount.online,
            produce: { renderer.renderFrame(range.lowerBound + $0) },
            consume: { _, frame in rendered.append(frame) })
        let indexed = zip(range, rendered).map { (index: $0, image: $1) }
        return try verify(
            frames: indexed, wholeCount: range == whole ? renderer.frameCount : nil, label: label)
    }

    /// Renders the scene at `seconds` and checks it against `goldenFolder/<name>.png`
    /// (default name: ``defaultName(at:)``).
    public func verify(
        scene path: String, at seconds: Double, named name: String? = nil,
        scale: Double? = nil, load: SceneLoader.Options = SceneLoader.Options()
    ) throws -> GoldenResult {
        let renderer = try ScenePreparation.prepare(
            path: path, options: PreparationOptions(loader: load, scale: scale)
        ).renderer
        return try verify(
            frame: renderer.renderFrame(at: seconds), named: name ?? Self.defaultName(at: seconds),
            label: path)
    }

    /// The golden name of a frame rendered at `seconds`: `at-<seconds with 3 decimals>s`.
    public static func defaultName(at seconds: Double) -> String {
        String(format: "at-%.3fs", seconds)
    }

    /// Checks one image against `goldenFolder/<name>.png`.
    public func verify(frame: Pixmap, named name: String, label: String = "frame") throws
        -> GoldenResult
    {
        if animationFormat != nil { throw GoldenError.namedFrameInAnimation(goldenFolder) }
        let file = name.hasSuffix(".png") ? name : name + ".png"
        let stem = String(file.dropLast(4))
        return try compare(
            [(file: file, diffName: stem + ".png", image: frame)], extraGoldens: [], label: label,
            reportName: stem + "-report")
    }

    /// Checks frames given with their frame indices against `frame-NNNN.png` goldens.
    /// `wholeCount`, when the frames are a whole scene, makes goldens beyond it count.
    public func verify(
        frames: [(index: Int, image: Pixmap)], wholeCount: Int? = nil,
        label: String = "frames"
    ) throws -> GoldenResult {
        if animationFormat != nil { throw GoldenError.partialAnimation(goldenFolder) }
        let items = frames.map {
            (
                file: PNGSequenceExporter.fileName(ofFrame: $0.index),
                diffName: SequenceComparator.diffImageName(index: $0.index), image: $0.image
            )
        }
        var extra: [String] = []
        if let wholeCount {
            extra = existingGoldenIndices().filter { $0 >= wholeCount }.map(
                PNGSequenceExporter.fileName(ofFrame:))
        }
        return try compare(items, extraGoldens: extra, label: label, reportName: "report")
    }

    /// Frame indices of the `frame-NNNN.png` files in the golden folder.
    func existingGoldenIndices() -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: goldenFolder)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
            return Int(name.dropFirst(6).dropLast(4))
        }.sorted()
    }

    typealias Item = (file: String, diffName: String, image: Pixmap)

    private func compare(
        _ items: [Item], extraGoldens: [String], label: String,
        reportName: String
    ) throws -> GoldenResult {
        if record { return try write(items, stale: extraGoldens, label: label) }
        var outcomes: [FrameOutcome] = []
        var missing: [String] = []
        var evidence: [GoldenEvidence] = []
        // Per outcome: the golden of a failing frame (for the report) and the frame compared.
        var failingGoldens: [Pixmap?] = []
        var compared: [Pixmap] = []
        if let diffFolder {
            try? FileManager.default.createDirectory(
                atPath: diffFolder, withIntermediateDirectories: true)
        }
        for item in items {
            let path = goldenFolder + "/" + item.file
            let stem = String(item.file.dropLast(4))
            guard FileManager.default.fileExists(atPath: path) else {
                missing.append(path)
                evidence.append(
                    GoldenEvidence(name: stem, expected: nil, actual: item.image, difference: nil))
                continue
            }
            let golden: Pixmap
            do { golden = try PNGCodec.read(path: path) } catch {
                throw GoldenError.unreadableGolden(error)
            }
            var (outcome, actual, difference) = try comparePair(
                golden: golden, item: item, position: outcomes.count)
            if let index = Int(item.file.dropFirst(6).dropLast(4)), item.file.hasPrefix("frame-") {
                outcome.index = index
            }
            outcomes.append(outcome)
            compared.append(actual)
            failingGoldens.append(outcome.passed ? nil : golden)
            if !outcome.passed {
                evidence.append(
                    GoldenEvidence(
                        name: stem, expected: golden, actual: actual, difference: difference))
            }
        }
        let diff = SequenceDiff(
            expectedSource: goldenFolder, actualSource: label,
            expectedCount: outcomes.count + extraGoldens.count,
            actualCount: outcomes.count + missing.count,
            options: comparison.diffOptions, frames: outcomes, missing: missing)
        var result = GoldenResult(
            diff: diff, recorded: [], goldenFolder: goldenFolder, label: label)
        result.comparison = comparison
        result.evidence = evidence
        if writesReport, !diff.passed, let diffFolder {
            // A report that cannot be written leaves the failure without it, not hidden.
            result.reportPath = try? HTMLReport.write(
                diff, images: { (failingGoldens[$0], compared[$0]) },
                to: diffFolder + "/" + reportName,
                title: "\(label) — \(comparison.description)")
        }
        return result
    }

    /// Compares one frame with its golden: the outcome, the frame as compared, and the
    /// highlighted difference when pixels differ. `storedAlready`: the frame was decoded from
    /// a file, as a golden stores it.
    func comparePair(
        golden: Pixmap, item: Item,
        position: Int, storedAlready: Bool = false
    ) throws -> (FrameOutcome, Pixmap, Pixmap?) {
        let expected = NamedFrame(image: golden, name: item.file)
        switch comparison {
        case .perceptual(let options):
            let outcome = SequenceComparator.comparePair(
                index: position, expected: expected,
                actual: NamedFrame(image: item.image, name: item.file),
                options: options, diffFolder: diffFolder, diffImageName: item.diffName)
            guard !outcome.passed, !outcome.sizeMismatch else { return (outcome, item.image, nil) }
            let kept = ImageComparator.compare(
                golden, item.image, options: options, keepClasses: true)
            return (outcome, item.image, DiffImage.highlight(expected: golden, diff: kept))
        case .channels(let tolerance, let limit):
            // As its golden would store it, so that recording then comparing always matches.
            var stored = item.image
            if !storedAlready {
                do { stored = try PNGCodec.decode(PNGCodec.encode(item.image)) } catch {
                    throw GoldenError.unstorableFrame(file: item.file, error)
                }
            }
            let sameSize = golden.width == stored.width && golden.height == stored.height
            var diff =
                sameSize
                ? ChannelComparator.compare(
                    expected: golden, actual: stored, tolerance: tolerance,
                    maxDifferingPixels: limit) : nil
            var outcome = FrameOutcome(
                index: position, expectedName: item.file, actualName: item.file,
                expectedSize: PixelSize(width: golden.width, height: golden.height),
                actualSize: PixelSize(width: stored.width, height: stored.height), diff: diff)
            guard let kept = diff, kept.differingPixels > 0 else { return (outcome, stored, nil) }
            if let diffFolder {
                let path = diffFolder + "/" + item.diffName
                do {
                    try PNGCodec.write(
                        DiffImage.sideBySide(expected: golden, actual: stored, diff: kept), to: path
                    )
                    outcome.diffImagePath = path
                } catch { outcome.writeError = error.message }
            }
            let highlight = DiffImage.highlight(expected: golden, diff: kept)
            diff?.classes = []
            outcome.diff = diff
            return (outcome, stored, highlight)
        }
    }

    private func write(_ items: [Item], stale: [String], label: String) throws -> GoldenResult {
        do {
            try FileManager.default.createDirectory(
                atPath: goldenFolder, withIntermediateDirectories: true)
        } catch {
            throw GoldenError.uncreatableFolder(goldenFolder, reason: error.localizedDescription)
        }
        var written: [String] = []
        for item in items {
            let path = goldenFolder + "/" + item.file
            do { try PNGCodec.write(item.image, to: path) } catch {
                throw GoldenError.unwritableGolden(error)
            }
            written.append(path)
        }
        for name in stale { try? FileManager.default.removeItem(atPath: goldenFolder + "/" + name) }
        let diff = SequenceDiff(
            expectedSource: goldenFolder, actualSource: label, expectedCount: items.count,
            actualCount: items.count, options: comparison.diffOptions, frames: [])
        var result = GoldenResult(
            diff: diff, recorded: written, goldenFolder: goldenFolder, label: label)
        result.comparison = comparison
        return result
    }
}

/// A golden that exists but cannot be read, or one that cannot be written.
public enum GoldenError: Error, CustomStringConvertible, Sendable {
    /// A golden PNG that exists but cannot be read (libpng's message names the path).
    case unreadableGolden(PNGError)
    /// A frame that cannot be stored as its golden would be (encoded and decoded again).
    case unstorableFrame(file: String, PNGError)
    /// The golden folder cannot be created.
    case uncreatableFolder(String, reason: String)
    /// A golden PNG that cannot be written.
    case unwritableGolden(PNGError)
    /// An animation golden (or the scene encoded to compare with it) that cannot be read.
    case unreadableAnimation(FrameSourceError)
    /// Some frames of a scene, or a frame at a time, checked against an animation golden,
    /// which holds the whole scene.
    case partialAnimation(String)
    /// A named frame checked against an animation file instead of a folder.
    case namedFrameInAnimation(String)

    /// The message, as `check` prints it.
    public var message: String {
        switch self {
        case .unreadableGolden(let error), .unwritableGolden(let error): error.message
        case .unstorableFrame(let file, let error): "\(file): \(error.message)"
        case .uncreatableFolder(let folder, let reason): "\(folder): \(reason)"
        case .unreadableAnimation(let error): "\(error)"
        case .partialAnimation(let path):
            "\(path) is an animation golden, which holds the whole scene: check every frame"
                + " (no frame range), or use a folder of PNG goldens"
        case .namedFrameInAnimation(let path):
            "\(path) is an animation golden: a named frame needs a folder of PNG goldens"
        }
    }

    public var description: String { message }
}
