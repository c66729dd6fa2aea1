import Foundation
import Testing
import FlipbookTesting

/// Golden tests of Scenes/box.yaml (and the same animation as a Lottie file, Scenes/box.json)
/// against Goldens/box/frame-000N.png.
///
/// Why the goldens are right: they are not Flipbook's output. make_goldens.py writes them
/// from the scene's numbers alone (white 40×30 canvas, a #3366cc 10×10 box in columns
/// 6i…6i+9 and rows 10…19 of frame i), and every edge falls on a whole pixel, so the
/// expected pixels are exact and the comparisons here can be pixel-exact.
@Suite struct BoxSceneTests {
    /// The goldens are the analytic picture: pixel-exact.
    static let exact = GoldenOptions(comparison: .exact)

    /// Passing: every frame matches its golden (paths resolve beside this file).
    @Test func boxMatchesItsGoldens() throws {
        try expectFrames(of: "Scenes/box.yaml", match: "Goldens/box", options: Self.exact)
    }

    /// Lottie through the same call: the same animation drawn by a shape layer over a white
    /// solid renders the same pixels.
    @Test func lottieBoxMatchesTheSameGoldens() throws {
        try expectFrames(of: "Scenes/box.json", match: "Goldens/box", options: Self.exact)
    }

    /// Recording: the trait makes the call write goldens, here into a temporary folder so that
    /// running the tests leaves the repository as it was. What it writes has the committed
    /// goldens' pixels.
    @Test(.recordingGoldens) func recordsGoldensIntoATemporaryFolder() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("box-goldens-" + UUID().uuidString).path
        let recorded = try expectFrames(of: "Scenes/box.yaml", match: folder)
        #expect(recorded.didRecord)
        #expect(
            recorded.recorded.map { URL(fileURLWithPath: $0).lastPathComponent }
                == (0..<5).map { "frame-000\($0).png" })
        let committed = GoldenCheck.folder("Goldens/box")
        let same = SequenceComparator.compare(
            expected: try FrameSequence.load(committed),
            actual: try FrameSequence.load(folder),
            options: DiffOptions(threshold: 0, includeAntiAliased: true))
        #expect(same.passed && same.frames.count == 5)
    }

    /// Expected to fail, and checks its own failure: the box drawn one pixel lower leaves
    /// row 10 white and paints row 20, 20 pixels per frame, and the issue says so at the call.
    @Test func boxOnePixelLowerFails() throws {
        let scene = try String(
            contentsOfFile: GoldenCheck.folder("Scenes/box.yaml"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "box-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lower = folder.appendingPathComponent("box-lower.yaml").path
        try scene.replacingOccurrences(of: "frame: [0, 10, 10, 10]", with: "frame: [0, 11, 10, 10]")
            .write(toFile: lower, atomically: true, encoding: .utf8)
        var result: GoldenResult?
        try withKnownIssue("the box moved one pixel down") {
            result = try expectFrames(
                of: lower, match: "Goldens/box", options: Self.exact, record: false)
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.fileName == "BoxSceneTests.swift"
                && message.contains("frame 0 (frame-0000.png): 20 px differ")
                && message.contains("HTML report: ")
        }
        let failed = try #require(result)
        #expect(failed.failingFrames == [0, 1, 2, 3, 4])
        #expect(failed.diff.frames.map { $0.diff?.differingPixels } == [20, 20, 20, 20, 20])
        #expect(
            failed.diff.frames[0].diff?.bounds == PixelBounds(x: 0, y: 10, width: 10, height: 11))
        #expect(failed.evidence.count == 5 && failed.evidence.allSatisfy { $0.difference != nil })
        #expect(failed.reportPath.map(FileManager.default.fileExists(atPath:)) == true)
    }
}
