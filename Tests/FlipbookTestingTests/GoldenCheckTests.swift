import Foundation
import Testing
import FlipbookCodecs
import FlipbookTesting
import Flipbook
import FlipbookRaster
import FlipbookScene

/// The test helper as a suite would use it: record, verify, fail with a message naming
/// frames and diff images.
@Suite struct GoldenCheckTests {
    static let scene = """
        version: 1
        canvas: { size: [40, 30], scale: 1, fps: 10, duration: 0.5, background: white }
        layers:
          - { id: box, frame: [0, 10, 10, 10], backgroundColor: red }
        animations:
          - { layer: box, keyPath: position.x, from: 5, to: 35, duration: 0.5, curve: linear }
        """

    /// A scene file and an empty golden folder in a fresh temporary folder.
    static func workspace() throws -> (scene: String, goldens: String, diffs: String) {
        let folder = NSTemporaryDirectory() + "flipbook-golden-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try scene.write(toFile: folder + "/box.yaml", atomically: true, encoding: .utf8)
        return (folder + "/box.yaml", folder + "/Goldens/box", folder + "/diffs")
    }

    /// The pattern a suite uses: any failure becomes an issue with the whole report.
    @Test func usageFromSwiftTesting() throws {
        let w = try Self.workspace()
        _ = try GoldenCheck(goldenFolder: w.goldens, record: true).verify(scene: w.scene)

        let result = try GoldenCheck(goldenFolder: w.goldens, diffFolder: w.diffs).verify(
            scene: w.scene)
        if let message = result.failureMessage { Issue.record(Comment(rawValue: message)) }
        #expect(result.passed && result.diff.frames.count == 5)
    }

    @Test func recordingWritesNumberedGoldensAndPasses() throws {
        let w = try Self.workspace()
        let recorded = try GoldenCheck(goldenFolder: w.goldens, record: true).verify(scene: w.scene)
        #expect(recorded.passed && recorded.didRecord)
        #expect(
            recorded.recorded.map { URL(fileURLWithPath: $0).lastPathComponent }
                == (0..<5).map { "frame-000\($0).png" })
        #expect(recorded.failureMessage == nil)
    }

    @Test func missingGoldensFail() throws {
        let w = try Self.workspace()
        let result = try GoldenCheck(goldenFolder: w.goldens, record: false).verify(scene: w.scene)
        #expect(!result.passed)
        #expect(result.diff.missing.count == 5)
        #expect(result.failureMessage?.contains("missing: \(w.goldens)/frame-0000.png") == true)
    }

    @Test func changedFrameFailsNamingTheFrameAndItsDiffImage() throws {
        let w = try Self.workspace()
        _ = try GoldenCheck(goldenFolder: w.goldens, record: true).verify(scene: w.scene)
        var golden = try PNGCodec.read(path: w.goldens + "/frame-0002.png")
        for i in stride(from: 0, to: 5 * 4, by: 4) {
            golden.data[i + 1] = 0; golden.data[i + 2] = 0
        }
        try PNGCodec.write(golden, to: w.goldens + "/frame-0002.png")

        let result = try GoldenCheck(goldenFolder: w.goldens, diffFolder: w.diffs, record: false)
            .verify(scene: w.scene)
        #expect(result.failingFrames == [2])
        #expect(result.diffImages == [w.diffs + "/diff-0002.png"])
        let message = try #require(result.failureMessage)
        #expect(
            message.contains(
                "\(w.scene) does not match the goldens in \(w.goldens) (frame 2 differ)"))
        #expect(message.contains("frame 2 (frame-0002.png): 5 px differ"))
        #expect(message.contains(w.diffs + "/diff-0002.png"))
        #expect(FileManager.default.fileExists(atPath: w.diffs + "/diff-0002.png"))
        // A tolerance of 5 pixels accepts it.
        let tolerant = GoldenCheck(
            goldenFolder: w.goldens, options: DiffOptions(maxDiffPixels: 5), record: false)
        #expect(try tolerant.verify(scene: w.scene).passed)
    }

    @Test func singleFrameAtATime() throws {
        let w = try Self.workspace()
        let check = GoldenCheck(goldenFolder: w.goldens, diffFolder: w.diffs, record: false)
        var recorder = check
        recorder.record = true
        _ = try recorder.verify(scene: w.scene, at: 0.25)
        #expect(FileManager.default.fileExists(atPath: w.goldens + "/at-0.250s.png"))
        #expect(try check.verify(scene: w.scene, at: 0.25).passed)
        // Another time moves the box: the named golden no longer matches.
        let moved = try check.verify(
            frame: try GoldenCheckTests.render(w.scene, at: 0.1), named: "at-0.250s")
        #expect(!moved.passed)
        #expect(moved.diffImages == [w.diffs + "/at-0.250s.png"])
    }

    static func render(_ scene: String, at t: Double) throws -> Pixmap {
        try SceneRenderer(scene: SceneLoader.load(path: scene)).renderFrame(at: t)
    }
}
