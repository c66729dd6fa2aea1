@_exported import FlipbookDiff
import FlipbookCodecs
import FlipbookRaster

/// The outcome of a ``GoldenCheck``: the comparison, or the list of goldens recorded.
///
/// A test fails when ``failureMessage`` is non-nil; the message names the checked scene,
/// the golden folder, the comparison rule, every failing frame with its counts and the path
/// of its diff image, missing goldens and count mismatches, the HTML report when one was
/// written, and how to record new goldens.
public struct GoldenResult: Sendable {
    public var diff: SequenceDiff
    /// Paths of the goldens written (recording only).
    public var recorded: [String]
    public var goldenFolder: String
    public var label: String
    /// The rule the frames were compared by.
    public var comparison: GoldenComparison = .perceptual
    /// The images of the frames that failed (missing goldens included), in order, for a
    /// test to attach.
    public var evidence: [GoldenEvidence] = []
    /// The `index.html` of the HTML report, when the check wrote one.
    public var reportPath: String?
    /// The frames of an animation golden and of the scene as compared with it (compared
    /// animation goldens only).
    public var animationFrames: AnimationGoldenFrames?
    /// The frames of the animation golden recorded (recorded animation goldens only).
    public var recordedFrameCount: Int?

    public init(diff: SequenceDiff, recorded: [String], goldenFolder: String, label: String) {
        self.diff = diff
        self.recorded = recorded
        self.goldenFolder = goldenFolder
        self.label = label
    }

    /// Whether goldens were recorded instead of compared.
    public var didRecord: Bool { !recorded.isEmpty }

    /// Recorded, or every frame matched within tolerance.
    public var passed: Bool { didRecord || diff.passed }

    /// The frame indices that failed.
    public var failingFrames: [Int] { diff.failingFrames.map(\.index) }

    /// The diff images written for this check.
    public var diffImages: [String] { diff.frames.compactMap(\.diffImagePath) }

    /// The report lines (``DiffReport``), or one line about the recording.
    public var reportLines: [String] {
        if let frames = recordedFrameCount {
            return ["recorded \(frames) golden frame\(frames == 1 ? "" : "s") in \(goldenFolder)"]
        }
        return didRecord
            ? [
                "recorded \(recorded.count) golden frame\(recorded.count == 1 ? "" : "s") in \(goldenFolder)"
            ]
            : DiffReport.lines(diff)
    }

    /// nil when passed; else a message for a test failure.
    public var failureMessage: String? {
        guard !passed else { return nil }
        var text = "\(label) does not match the goldens in \(goldenFolder)"
        let failing = failingFrames
        // Named frames (`<name>.png`) are their own label; numbered ones are listed.
        // Frames of an animation golden are named `<file>#i`.
        if !failing.isEmpty,
            diff.frames.allSatisfy({
                $0.expectedName.hasPrefix("frame-") || $0.expectedName.contains("#")
            })
        {
            text +=
                " (frame\(failing.count == 1 ? "" : "s") \(failing.map(String.init).joined(separator: ", ")) differ)"
        }
        text += ":\n" + reportLines.map { "  " + $0 }.joined(separator: "\n")
        text += "\n  compared by: \(comparison.description)"
        if let reportPath { text += "\n  HTML report: \(reportPath)" }
        text +=
            "\n  (to accept the new frames, re-run with \(GoldenRecording.environmentVariable)=1"
            + " or `flipbook check --record`)"
        return text
    }
}

/// The images of one failing frame: what its golden holds, what was rendered (as compared),
/// and the highlighted difference (pixelmatch's colors: red differing, yellow anti-aliasing,
/// the rest a faded copy of the golden). A missing golden has only the rendered frame; frames
/// of different sizes have no difference image.
public struct GoldenEvidence: Sendable {
    /// The golden's file name without `.png` (`frame-0003`, or the name given).
    public var name: String
    public var expected: Pixmap?
    public var actual: Pixmap
    public var difference: Pixmap?

    public init(name: String, expected: Pixmap?, actual: Pixmap, difference: Pixmap?) {
        self.name = name
        self.expected = expected
        self.actual = actual
        self.difference = difference
    }

    /// Attachment names and PNG bytes: `<name>-expected.png`, `<name>-actual.png`,
    /// `<name>-difference.png`, those that exist. An image that cannot be encoded is left out.
    public var pngFiles: [(name: String, bytes: [UInt8])] {
        let images: [(String, Pixmap?)] = [
            ("expected", expected), ("actual", actual), ("difference", difference),
        ]
        return images.compactMap { role, image in
            guard let image, let bytes = try? PNGCodec.encode(image) else { return nil }
            return ("\(name)-\(role).png", bytes)
        }
    }
}
