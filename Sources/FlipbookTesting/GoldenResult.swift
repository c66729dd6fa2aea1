@_exported import FlipbookDiff

/// The outcome of a ``GoldenCheck``: the comparison, or the list of goldens recorded.
///
/// A test fails when ``failureMessage`` is non-nil; the message names the checked scene,
/// the golden folder, every failing frame with its counts and the path of its diff image,
/// missing goldens and count mismatches, and how to record new goldens.
public struct GoldenResult: Sendable {
    public var diff: SequenceDiff
    /// Paths of the goldens written (recording only).
    public var recorded: [String]
    public var goldenFolder: String
    public var label: String

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
        didRecord ? ["recorded \(recorded.count) golden frame\(recorded.count == 1 ? "" : "s") in \(goldenFolder)"]
            : DiffReport.lines(diff)
    }

    /// nil when passed; else a message for a test failure.
    public var failureMessage: String? {
        guard !passed else { return nil }
        var text = "\(label) does not match the goldens in \(goldenFolder)"
        let failing = failingFrames
        if !failing.isEmpty {
            text += " (frame\(failing.count == 1 ? "" : "s") \(failing.map(String.init).joined(separator: ", ")) differ)"
        }
        text += ":\n" + reportLines.map { "  " + $0 }.joined(separator: "\n")
        text += "\n  (to accept the new frames, re-run with FLIPBOOK_RECORD=1 or `flipbook check --record`)"
        return text
    }
}
