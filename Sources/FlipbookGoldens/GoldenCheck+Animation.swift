import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookDiff
import FlipbookRaster

/// The format of a golden held in one animation file instead of a folder of PNG frames.
///
/// A golden path ending in `.png`, `.webp` or `.gif` that is not an existing folder names
/// such a file, as `flipbook render -o` reads the same names: an animated PNG, a lossless
/// animated WebP, or a GIF with the default encoding options. Each is what the scene's
/// exporter writes, so a golden holds the frames a viewer plays: frames too short to show
/// are dropped and delays are stored at the format's resolution (`APNGTiming`, `GIFTiming`).
public enum AnimationGoldenFormat: String, Sendable, CaseIterable {
    case apng
    case webp
    case gif

    /// The format `path` names, or nil when it names a folder of PNG frames (any other
    /// extension, or an existing folder, as goldens made before animation files were).
    public init?(goldenPath path: String) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue
        {
            return nil
        }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": self = .apng
        case "webp": self = .webp
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The exporter that writes a golden of this format, and encodes the frames compared
    /// with one. WebP goldens are lossless, so that they hold the exact pixels; GIF goldens
    /// keep GIF's palette, so a scene is compared with the GIF it would give today.
    func exporter() -> any FrameExporter {
        switch self {
        case .apng: APNGExporter()
        case .webp: WebPExporter(options: WebPEncodingOptions(lossless: true))
        case .gif: GIFExporter()
        }
    }

    /// The file extension of a scratch file in this format.
    var fileExtension: String {
        switch self {
        case .apng: "png"
        case .webp: "webp"
        case .gif: "gif"
        }
    }
}

/// The frames of an animation golden and of the scene as compared with it, both decoded,
/// for reports that show them (`flipbook check --html`).
public struct AnimationGoldenFrames: Sendable {
    public var expected: FrameSequence
    public var actual: FrameSequence
}

extension GoldenCheck {
    /// The animation format of ``goldenFolder``, or nil for a folder of PNG frames.
    public var animationFormat: AnimationGoldenFormat? {
        AnimationGoldenFormat(goldenPath: goldenFolder)
    }

    /// Checks a whole scene against the animation file ``goldenFolder``: the scene is
    /// encoded as its golden would be (``AnimationGoldenFormat/exporter()``), both files are
    /// decoded, and they are compared as `flipbook diff` compares two animations: frame by
    /// frame, with frame counts and delays. Recording writes the file in place (atomically).
    func verifyAnimation(
        renderer: SceneRenderer, format: AnimationGoldenFormat, label: String
    ) throws -> GoldenResult {
        let whole = 0...(renderer.frameCount - 1)
        let jobs = ProcessorCount.online
        if record {
            let folder = URL(fileURLWithPath: goldenFolder).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw GoldenError.uncreatableFolder(folder, reason: error.localizedDescription)
            }
            _ = try format.exporter().export(renderer, frames: whole, to: goldenFolder, jobs: jobs)
            let written = try Self.decode(goldenFolder)
            let diff = SequenceDiff(
                expectedSource: goldenFolder, actualSource: label, expectedCount: written.count,
                actualCount: written.count, options: comparison.diffOptions, frames: [])
            var result = GoldenResult(
                diff: diff, recorded: [goldenFolder], goldenFolder: goldenFolder, label: label)
            result.comparison = comparison
            result.recordedFrameCount = written.count
            return result
        }
        let scratch =
            NSTemporaryDirectory() + "flipbook-golden-\(UUID().uuidString).\(format.fileExtension)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = try format.exporter().export(renderer, frames: whole, to: scratch, jobs: jobs)
        var actual = try Self.decode(scratch)
        actual.source = label
        guard FileManager.default.fileExists(atPath: goldenFolder) else {
            return missingAnimation(actual: actual, label: label)
        }
        return try compareAnimation(
            expected: Self.decode(goldenFolder), actual: actual, label: label)
    }

    /// Every frame of `actual` against the same frame of `expected`, by ``comparison``,
    /// delays included; a count mismatch fails.
    private func compareAnimation(
        expected: FrameSequence, actual: FrameSequence, label: String
    ) throws -> GoldenResult {
        if let diffFolder {
            try? FileManager.default.createDirectory(
                atPath: diffFolder, withIntermediateDirectories: true)
        }
        let leaf = URL(fileURLWithPath: goldenFolder).lastPathComponent
        var outcomes: [FrameOutcome] = []
        var evidence: [GoldenEvidence] = []
        for i in 0..<min(expected.count, actual.count) {
            let golden = expected.frames[i]
            let item = (
                file: "\(leaf)#\(i)", diffName: SequenceComparator.diffImageName(index: i),
                image: actual.frames[i]
            )
            var (outcome, compared, difference) = try comparePair(
                golden: golden, item: item, position: i, storedAlready: true)
            if let a = expected.delays?[i], let b = actual.delays?[i], a != b {
                outcome.delayMismatch = (a, b)
            }
            outcomes.append(outcome)
            if !outcome.passed {
                evidence.append(
                    GoldenEvidence(
                        name: Self.evidenceName(i), expected: golden, actual: compared,
                        difference: difference))
            }
        }
        let diff = SequenceDiff(
            expectedSource: goldenFolder, actualSource: label, expectedCount: expected.count,
            actualCount: actual.count, options: comparison.diffOptions, frames: outcomes)
        var result = GoldenResult(
            diff: diff, recorded: [], goldenFolder: goldenFolder, label: label)
        result.comparison = comparison
        result.evidence = evidence
        result.animationFrames = AnimationGoldenFrames(expected: expected, actual: actual)
        if writesReport, !diff.passed, let diffFolder {
            // A report that cannot be written leaves the failure without it, not hidden.
            result.reportPath = try? HTMLReport.write(
                diff,
                images: { position in
                    let i = outcomes[position].index
                    return (expected.frames[i], actual.frames[i])
                },
                to: diffFolder + "/report", title: "\(label) — \(comparison.description)")
        }
        return result
    }

    /// The result of a check whose golden file does not exist: every frame missing.
    private func missingAnimation(actual: FrameSequence, label: String) -> GoldenResult {
        let diff = SequenceDiff(
            expectedSource: goldenFolder, actualSource: label, expectedCount: 0,
            actualCount: actual.count, options: comparison.diffOptions, frames: [],
            missing: [goldenFolder])
        var result = GoldenResult(
            diff: diff, recorded: [], goldenFolder: goldenFolder, label: label)
        result.comparison = comparison
        result.evidence = actual.frames.indices.map {
            GoldenEvidence(
                name: Self.evidenceName($0), expected: nil, actual: actual.frames[$0],
                difference: nil)
        }
        return result
    }

    /// The name of frame i's evidence: `frame-NNNN`, as for a folder of goldens.
    private static func evidenceName(_ i: Int) -> String {
        String(PNGSequenceExporter.fileName(ofFrame: i).dropLast(4))
    }

    /// An animation file's frames, or the error `check` reports for an unreadable golden.
    private static func decode(_ path: String) throws -> FrameSequence {
        do { return try FrameSequence.load(path) } catch {
            throw GoldenError.unreadableAnimation(error)
        }
    }
}
