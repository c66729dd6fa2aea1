import Foundation
import Testing
import FlipbookCodecs
import FlipbookTesting
import FlipbookRaster

/// The one-line calls as a Swift Testing suite uses them: recording by trait and by
/// parameter, a failure recorded at the call with its report and images, and the
/// per-channel comparison the repository's own goldens use.
@Suite struct ExpectFramesTests {
    /// A golden folder whose frame 2 has 5 pixels turned from white to red: the scene no
    /// longer matches it there.
    static func alteredGoldens() throws -> (scene: String, goldens: String, diffs: String) {
        let w = try GoldenCheckTests.workspace()
        try expectFrames(of: w.scene, match: w.goldens, record: true)
        var golden = try PNGCodec.read(path: w.goldens + "/frame-0002.png")
        for i in stride(from: 0, to: 5 * 4, by: 4) {
            golden.data[i + 1] = 0; golden.data[i + 2] = 0
        }
        try PNGCodec.write(golden, to: w.goldens + "/frame-0002.png")
        return w
    }

    @Test(.recordingGoldens) func traitRecordsAndAnExplicitRecordFalseStillCompares() throws {
        let w = try GoldenCheckTests.workspace()
        let recorded = try expectFrames(of: w.scene, match: w.goldens)
        #expect(recorded.didRecord && recorded.recorded.count == 5)
        // The trait does not override the call: goldens made elsewhere stay untouched.
        let compared = try expectFrames(of: w.scene, match: w.goldens, record: false)
        #expect(!compared.didRecord && compared.passed && compared.diff.frames.count == 5)
    }

    @Test(.recordingGoldens(false)) func traitCanTurnRecordingOff() {
        #expect(!GoldenRecording.isOn)
        #expect(GoldenRecording.$override.withValue(true) { GoldenRecording.isOn })
    }

    @Test func failureIsRecordedAtTheCallWithReportAndImages() throws {
        let w = try Self.alteredGoldens()
        let options = GoldenOptions(diffFolder: w.diffs)
        let file = #fileID
        let line = #line + 3
        var result: GoldenResult?
        try withKnownIssue {
            result = try expectFrames(of: w.scene, match: w.goldens, options: options)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.fileID == file && issue.sourceLocation?.line == line
                && text.contains("frame 2 (frame-0002.png): 5 px differ")
                && text.contains("HTML report: \(w.diffs)/report/index.html")
                && text.contains("FLIPBOOK_RECORD=1")
        }
        let failed = try #require(result)
        #expect(failed.reportPath == w.diffs + "/report/index.html")
        #expect(FileManager.default.fileExists(atPath: w.diffs + "/report/index.html"))
        #expect(FileManager.default.fileExists(atPath: w.diffs + "/report/frame-2-diff.png"))
        let attached = GoldenExpectation.attachments(of: failed)
        #expect(
            attached.map(\.name) == [
                "frame-0002-expected.png", "frame-0002-actual.png",
                "frame-0002-difference.png",
            ])
        // The difference image is the golden's size with exactly the 5 changed pixels red.
        let difference = try PNGCodec.decode(attached[2].bytes)
        let red = (0..<difference.height).flatMap { y in
            (0..<difference.width).map { (x: $0, y: y) }
        }
        .filter {
            let p = difference.pixel(x: $0.x, y: $0.y); return p.r == 255 && p.g == 0 && p.b == 0
        }
        #expect(difference.width == 40 && difference.height == 30)
        #expect(red.map(\.x) == [0, 1, 2, 3, 4] && red.allSatisfy { $0.y == 0 })
    }

    @Test func passingCallRecordsNothing() throws {
        let w = try GoldenCheckTests.workspace()
        try expectFrame(of: w.scene, at: 0.25, match: w.goldens, record: true)
        let result = try expectFrame(of: w.scene, at: 0.25, match: w.goldens, record: false)
        #expect(result.passed && result.evidence.isEmpty && result.reportPath == nil)
        #expect(FileManager.default.fileExists(atPath: w.goldens + "/at-0.250s.png"))
    }

    /// An opaque gray image and a copy with one channel of one pixel moved by `delta` levels.
    static func grayPair(delta: UInt8) -> (Pixmap, Pixmap) {
        let pixels: [UInt8] = (0..<4 * 3).flatMap { _ in [128, 128, 128, 255] }
        let gray = Pixmap(width: 4, height: 3, premultipliedRGBA: pixels)
        var moved = gray
        moved.data[4 * 5 + 1] = 128 + delta
        return (gray, moved)
    }

    @Test(arguments: [(UInt8(2), true), (3, false)])
    func channelToleranceCountsLevels(delta: UInt8, passes: Bool) throws {
        let folder = NSTemporaryDirectory() + "flipbook-channels-" + UUID().uuidString
        let (gray, moved) = Self.grayPair(delta: delta)
        let rule = GoldenOptions(comparison: .channels(tolerance: 2), diffFolder: folder + "/diffs")
        try expectFrame(gray, match: folder, named: "gray", options: rule, record: true)
        let check = GoldenCheck(
            goldenFolder: folder, diffFolder: folder + "/diffs",
            comparison: .channels(tolerance: 2),
            record: false)
        let result = try check.verify(frame: moved, named: "gray")
        #expect(result.passed == passes)
        #expect(result.diff.totalDifferingPixels == (passes ? 0 : 1))
        #expect(
            result.diff.frames.first?.diff?.bounds
                == (passes ? nil : PixelBounds(x: 1, y: 1, width: 1, height: 1)))
        // Pixel-exact sees the move whatever its size.
        let exact = GoldenCheck(goldenFolder: folder, comparison: .exact, record: false)
        #expect(try exact.verify(frame: moved, named: "gray").diff.totalDifferingPixels == 1)
        #expect(try exact.verify(frame: gray, named: "gray").passed)
    }

    @Test func sizeMismatchFailsWithoutADifferenceImage() throws {
        let folder = NSTemporaryDirectory() + "flipbook-size-" + UUID().uuidString
        let check = GoldenCheck(goldenFolder: folder, comparison: .exact, record: false)
        var recorder = check
        recorder.record = true
        _ = try recorder.verify(frame: Pixmap(width: 4, height: 3), named: "blank")
        let result = try check.verify(frame: Pixmap(width: 5, height: 3), named: "blank")
        #expect(!result.passed)
        #expect(result.evidence.count == 1 && result.evidence[0].difference == nil)
        #expect(result.failureMessage?.contains("size differs: 4×3 expected, 5×3 actual") == true)
    }
}
