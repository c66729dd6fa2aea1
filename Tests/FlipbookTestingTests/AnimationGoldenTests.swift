import Foundation
import Testing
import FlipbookCodecs
import FlipbookTesting
import Flipbook
import FlipbookRaster
import FlipbookScene

/// Goldens held in one animation file (`Goldens/box.png`, `.webp`, `.gif`) instead of a
/// folder of PNG frames. The expectations come from the scene itself: its frames as the
/// renderer draws them one by one, and its delays from the canvas' fps (10 fps: 100 ms).
@Suite struct AnimationGoldenTests {
    /// The scene of GoldenCheckTests (a red box moving right, 5 frames at 10 fps) with its
    /// colour as a parameter.
    static func scene(color: String = "red") -> String {
        GoldenCheckTests.scene.replacingOccurrences(
            of: "backgroundColor: red", with: "backgroundColor: \(color)")
    }

    /// A scene file and a golden path with the extension given, in a fresh folder.
    static func workspace(_ ext: String) throws -> (scene: String, golden: String, diffs: String) {
        let w = try GoldenCheckTests.workspace()
        return (w.scene, w.goldens + "." + ext, w.diffs)
    }

    static func frames(of scene: String) throws -> [Pixmap] {
        let renderer = try SceneRenderer(scene: SceneLoader.load(path: scene))
        return (0..<renderer.frameCount).map { renderer.renderFrame($0) }
    }

    /// An APNG golden holds exactly the scene's frames with their delays, is one file, and a
    /// check of the unchanged scene passes.
    @Test func apngGoldenHoldsTheFramesAndPasses() throws {
        let w = try Self.workspace("png")
        let recorded = try GoldenCheck(goldenFolder: w.golden, record: true).verify(scene: w.scene)
        #expect(recorded.didRecord && recorded.recorded == [w.golden])
        #expect(recorded.reportLines == ["recorded 5 golden frames in \(w.golden)"])
        var isFolder: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: w.golden, isDirectory: &isFolder))
        #expect(!isFolder.boolValue)

        let stored = try FrameSequence.load(w.golden)
        let expected = try Self.frames(of: w.scene)
        #expect(stored.count == 5 && stored.delays == [100, 100, 100, 100, 100])
        for i in 0..<5 { #expect(stored.frames[i].data == expected[i].data, "frame \(i)") }

        let result = try GoldenCheck(goldenFolder: w.golden, diffFolder: w.diffs, record: false)
            .verify(scene: w.scene)
        #expect(result.passed && result.diff.frames.count == 5, "\(result.failureMessage ?? "")")
    }

    /// Changed pixels fail frame by frame, and the message names the frames.
    @Test(arguments: ["png", "webp", "gif"])
    func changedColourFailsEveryFrame(ext: String) throws {
        let w = try Self.workspace(ext)
        _ = try GoldenCheck(goldenFolder: w.golden, record: true).verify(scene: w.scene)
        let check = GoldenCheck(goldenFolder: w.golden, diffFolder: w.diffs, record: false)
        #expect(try check.verify(scene: w.scene).passed)

        try Self.scene(color: "blue").write(toFile: w.scene, atomically: true, encoding: .utf8)
        let result = try check.verify(scene: w.scene)
        #expect(result.failingFrames == [0, 1, 2, 3, 4])
        let message = try #require(result.failureMessage)
        #expect(message.contains("(frames 0, 1, 2, 3, 4 differ)"), "\(message)")
        #expect(result.evidence.map(\.name).first == "frame-0000")
        #expect(result.diffImages.first == w.diffs + "/diff-0000.png")
    }

    /// A lossless WebP golden holds the exact pixels too.
    @Test func webpGoldenIsLossless() throws {
        let w = try Self.workspace("webp")
        _ = try GoldenCheck(goldenFolder: w.golden, record: true).verify(scene: w.scene)
        let stored = try FrameSequence.load(w.golden)
        let expected = try Self.frames(of: w.scene)
        #expect(stored.count == 5 && stored.delays == [100, 100, 100, 100, 100])
        for i in 0..<5 { #expect(stored.frames[i].data == expected[i].data, "frame \(i)") }
    }

    /// Timing is part of the golden: the same motion at another frame rate has other frames
    /// and delays, and fails on the count.
    @Test func anotherFrameRateFails() throws {
        let w = try Self.workspace("png")
        _ = try GoldenCheck(goldenFolder: w.golden, record: true).verify(scene: w.scene)
        let result = try GoldenCheck(goldenFolder: w.golden, record: false)
            .verify(scene: w.scene, fps: 20)
        #expect(!result.passed)
        #expect(result.diff.expectedCount == 5 && result.diff.actualCount == 10)
    }

    /// The exact channel comparison works on animation goldens as on folders.
    @Test func exactComparison() throws {
        let w = try Self.workspace("png")
        _ = try GoldenCheck(goldenFolder: w.golden, comparison: .exact, record: true)
            .verify(scene: w.scene)
        let check = GoldenCheck(goldenFolder: w.golden, comparison: .exact, record: false)
        #expect(try check.verify(scene: w.scene).passed)
        try Self.scene(color: "\"#FE0000\"").write(
            toFile: w.scene, atomically: true, encoding: .utf8)
        #expect(try check.verify(scene: w.scene).failingFrames == [0, 1, 2, 3, 4])
    }

    @Test func missingGoldenFileFails() throws {
        let w = try Self.workspace("png")
        let result = try GoldenCheck(goldenFolder: w.golden, record: false).verify(scene: w.scene)
        #expect(!result.passed && result.diff.missing == [w.golden])
        #expect(result.evidence.count == 5 && result.evidence.allSatisfy { $0.expected == nil })
        #expect(!FileManager.default.fileExists(atPath: w.golden))
    }

    /// An animation holds the whole scene: part of it, or a named frame, is refused.
    @Test func partsOfTheSceneAreRefused() throws {
        let w = try Self.workspace("gif")
        let check = GoldenCheck(goldenFolder: w.golden, record: true)
        #expect(throws: GoldenError.self) { try check.verify(scene: w.scene, frames: 0...1) }
        #expect(throws: GoldenError.self) { try check.verify(scene: w.scene, at: 0.1) }
        #expect(!FileManager.default.fileExists(atPath: w.golden))
        // The whole range is the whole scene.
        #expect(try check.verify(scene: w.scene, frames: 0...4).didRecord)
    }

    /// A folder that exists keeps being a folder of PNG goldens, whatever its name.
    @Test func existingFolderNamedLikeAFileStaysAFolder() throws {
        let w = try Self.workspace("png")
        try FileManager.default.createDirectory(
            atPath: w.golden, withIntermediateDirectories: true)
        let check = GoldenCheck(goldenFolder: w.golden, record: true)
        #expect(check.animationFormat == nil)
        _ = try check.verify(scene: w.scene)
        #expect(FileManager.default.fileExists(atPath: w.golden + "/frame-0004.png"))
    }
}
