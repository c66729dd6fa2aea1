import Foundation
import Testing
import Flipbook
import FlipbookRaster
import FlipbookScene
@testable import FlipbookRender

/// Whole frames drawn with warm geometry caches (coverage, stroke outlines, gradient
/// tables, vector artwork's layers, clip masks; every frame rendered twice in order on one thread, so most of the
/// second pass comes from them) equal the same frames drawn each on a new thread, whose
/// caches are empty (every fill swept, every outline and layer built). Reuse between frames
/// is off on both sides, so every pixel is painted.
@Suite struct CoverageCacheRenderTests {
    /// Renders `frame` on a thread of its own (an empty per-thread cache).
    static func renderCold(_ renderer: SceneRenderer, _ frame: Int) -> Pixmap {
        final class Box: @unchecked Sendable { var pixmap: Pixmap? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.pixmap = renderer.renderFrame(frame); done.signal()
        }
        thread.start()
        done.wait()
        return box.pixmap!
    }

    @Test(arguments: [
        "Tests/FlipbookLottieTests/Fixtures/matte_alpha.json",
        "Tests/FlipbookLottieTests/Fixtures/repeater.json", "scenes/phone-ui.yaml",
        "Tests/LottieCorpus/starstrips.json", "Tests/LottieCorpus/property_market.json",
        "Tests/LottieCorpus/masking.json", "Tests/LottieCorpus/lolo_walk.json",
        "Tests/LottieCorpus/gradient_smoke.json",
        "Tests/LottieCorpus/5317-fireworkds.json",
    ])
    func warmFramesEqualColdFrames(_ relative: String) throws {
        try Self.expectWarmFramesEqualCold(relative, scale: 0.5, samples: 24)
    }

    /// Renders about `samples` frames of the file at `relative` (from the repository)
    /// twice in order on this thread, then each again warm and on a fresh thread, and
    /// expects the same bytes. Reuse between frames is off, so every pixel is painted.
    static func expectWarmFramesEqualCold(_ relative: String, scale: Double, samples: Int) throws {
        let path = URL(fileURLWithPath: FrameReuseTests.root + "/" + relative).standardizedFileURL
            .path
        try #require(FileManager.default.fileExists(atPath: path), "missing: \(path)")
        var renderer = try SceneRenderer(scene: try SceneFile.load(path: path), scale: scale)
        renderer.frameReuse = nil
        let frames = Array(
            stride(from: 0, to: renderer.frameCount, by: max(1, renderer.frameCount / samples)))
        for _ in 0..<2 { for i in frames { _ = renderer.renderFrame(i) } }
        for i in frames {
            let warm = renderer.renderFrame(i)
            let cold = renderCold(renderer, i)
            #expect(
                warm.data == cold.data,
                "\(relative) frame \(i): \(FrameReuseTests.differing(warm, cold)) bytes differ")
        }
    }
}
