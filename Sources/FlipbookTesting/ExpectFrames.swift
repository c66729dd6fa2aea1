import Testing
@_exported import FlipbookGoldens
import FlipbookRaster

// Golden tests in one line for Swift Testing (docs/testing.md):
//
//     @Test func login() throws {
//         try expectFrames(of: "scenes/login.yaml", match: "Goldens/login")
//     }
//
// Relative paths resolve beside the calling test file. A failure is recorded as an issue at
// the call's line, with the expected, actual and difference images of the first failing
// frames attached (kept with `swift test --attachments-path DIR`) and the HTML report's path
// in the message. Recording: `record: true`, the `.recordingGoldens` trait, or
// FLIPBOOK_RECORD=1 for the whole run; `record: false` never records.

/// Renders every frame of a scene file (or `frames`) and expects each to match
/// `golden/frame-NNNN.png`. YAML and JSON scenes and Lottie files (`.json`, `.lottie`,
/// `.tgs`) alike; ``GoldenOptions`` holds the load, render and comparison settings.
/// Returns the result, so a test can look further; a failure is already recorded.
@discardableResult
public func expectFrames(
    of scene: String, match golden: String, frames: ClosedRange<Int>? = nil,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> GoldenResult {
    let result = try GoldenExpectation.frames(
        of: scene, golden: golden, frames: frames, options: options,
        record: record, besideFile: sourceLocation.filePath)
    recordFailure(of: result, at: sourceLocation)
    return result
}

/// Renders a scene file at `seconds` and expects the frame to match `golden/<name>.png`
/// (default name `at-<seconds, 3 decimals>s`).
@discardableResult
public func expectFrame(
    of scene: String, at seconds: Double, match golden: String, named name: String? = nil,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> GoldenResult {
    let result = try GoldenExpectation.frame(
        of: scene, at: seconds, golden: golden, named: name, options: options,
        record: record, besideFile: sourceLocation.filePath)
    recordFailure(of: result, at: sourceLocation)
    return result
}

/// Expects an image (a frame rendered by the test, or any `Pixmap`) to match
/// `golden/<name>.png`.
@discardableResult
public func expectFrame(
    _ image: Pixmap, match golden: String, named name: String,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> GoldenResult {
    let result = try GoldenExpectation.frame(
        image, golden: golden, named: name, options: options, record: record,
        besideFile: sourceLocation.filePath)
    recordFailure(of: result, at: sourceLocation)
    return result
}

/// Records a failing result at `sourceLocation`: its images as attachments, then an issue
/// with its message.
func recordFailure(of result: GoldenResult, at sourceLocation: SourceLocation) {
    guard let message = result.failureMessage else { return }
    for file in GoldenExpectation.attachments(of: result) {
        Attachment.record(file.bytes, named: file.name, sourceLocation: sourceLocation)
    }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// Makes the golden calls in a test, or in every test of a suite, record their goldens
/// (or, with `false`, compare even when FLIPBOOK_RECORD is set). A call's own `record:`
/// still wins, so goldens made by another tool are never overwritten.
public struct GoldenRecordingTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether the golden calls record.
    public var record: Bool

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await GoldenRecording.$override.withValue(record) { try await function() }
    }
}

extension Trait where Self == GoldenRecordingTrait {
    /// Golden calls in this test or suite record instead of comparing.
    public static var recordingGoldens: Self { GoldenRecordingTrait(record: true) }

    /// Golden calls in this test or suite record (`true`) or compare (`false`), whatever
    /// FLIPBOOK_RECORD says.
    public static func recordingGoldens(_ record: Bool) -> Self {
        GoldenRecordingTrait(record: record)
    }
}
