/// Width and height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}

/// The comparison of frame `index` of two sequences.
public struct FrameOutcome: Sendable {
    public var index: Int
    public var expectedName: String
    public var actualName: String
    public var expectedSize: PixelSize
    public var actualSize: PixelSize
    /// The pixel comparison; nil when the sizes differ.
    public var diff: FrameDiff?
    /// (expected, actual) delays in milliseconds when both inputs have delays and they
    /// differ.
    public var delayMismatch: (expected: Int, actual: Int)?
    /// The side-by-side image written for this frame, if any.
    public var diffImagePath: String?
    /// An error met while writing the diff image.
    public var writeError: String?

    public init(
        index: Int, expectedName: String, actualName: String, expectedSize: PixelSize,
        actualSize: PixelSize, diff: FrameDiff?, delayMismatch: (expected: Int, actual: Int)? = nil
    ) {
        self.index = index
        self.expectedName = expectedName
        self.actualName = actualName
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.diff = diff
        self.delayMismatch = delayMismatch
    }

    public var sizeMismatch: Bool { expectedSize != actualSize }

    /// Same size, same delay, pixels within tolerance.
    public var passed: Bool {
        !sizeMismatch && delayMismatch == nil && (diff?.withinTolerance ?? false)
    }

    /// Worth a report line: anything over the threshold, or a size or delay mismatch.
    public var isNotable: Bool {
        sizeMismatch || delayMismatch != nil || (diff?.differingPixels ?? 0) > 0
    }

    /// "frame-0003.png", or "a.png vs #0" when the two inputs name the frame differently.
    public var label: String {
        expectedName == actualName ? expectedName : "\(expectedName) vs \(actualName)"
    }
}

/// The comparison of two frame sequences: frames paired by position; extra frames on
/// either side are a frame-count mismatch.
///
/// The sequences match when the counts are equal and every paired frame passes (same
/// size, same delay where both have delays, pixels within the tolerance).
public struct SequenceDiff: Sendable {
    public var expectedSource: String
    public var actualSource: String
    public var expectedCount: Int
    public var actualCount: Int
    public var options: DiffOptions
    /// One per paired frame (min(expectedCount, actualCount) of them), in order.
    public var frames: [FrameOutcome]
    /// Frames missing from the comparison for a reason other than the counts (e.g. a
    /// golden file that does not exist), with their names; they make the sequences differ.
    public var missing: [String]

    public init(
        expectedSource: String, actualSource: String, expectedCount: Int, actualCount: Int,
        options: DiffOptions, frames: [FrameOutcome], missing: [String] = []
    ) {
        self.expectedSource = expectedSource
        self.actualSource = actualSource
        self.expectedCount = expectedCount
        self.actualCount = actualCount
        self.options = options
        self.frames = frames
        self.missing = missing
    }

    public var countMismatch: Bool { expectedCount != actualCount }

    public var passed: Bool { !countMismatch && missing.isEmpty && frames.allSatisfy(\.passed) }

    /// The paired frames that do not pass.
    public var failingFrames: [FrameOutcome] { frames.filter { !$0.passed } }

    /// Differing pixels over all paired frames of equal size.
    public var totalDifferingPixels: Int {
        frames.reduce(0) { $0 + ($1.diff?.differingPixels ?? 0) }
    }

    /// Anti-aliasing pixels over all paired frames of equal size.
    public var totalAntiAliasedPixels: Int {
        frames.reduce(0) { $0 + ($1.diff?.antiAliasedPixels ?? 0) }
    }
}
