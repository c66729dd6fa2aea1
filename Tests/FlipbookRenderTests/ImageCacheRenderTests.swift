import Foundation
import Testing
import Flipbook
import FlipbookRaster
import FlipbookScene
@testable import FlipbookRender

/// Whole frames with image layers drawn with warm per-thread caches (every frame rendered
/// twice in order on one thread, so still images blend from ``ImageCache``) equal the same
/// frames drawn each on a new thread (empty caches: every image span shaded). heart_fill
/// has still, fading and scaling 372×372 images at fractional offsets; photo-pan moves
/// its photo every frame; image_embedded is a small still Lottie image.
@Suite struct ImageCacheRenderTests {
    @Test(arguments: ["../shared/lottie/corpus/heart_fill.json", "scenes/bench/photo-pan.yaml",
                      "Tests/FlipbookLottieTests/Fixtures/image_embedded.json"])
    func warmFramesEqualColdFrames(_ relative: String) throws {
        let path = URL(fileURLWithPath: FrameReuseTests.root + "/" + relative).standardizedFileURL.path
        try #require(FileManager.default.fileExists(atPath: path), "missing: \(path)")
        var renderer = try SceneRenderer(scene: try SceneFile.load(path: path), scale: 0.375)
        renderer.frameReuse = nil
        let frames = Array(stride(from: 0, to: renderer.frameCount, by: max(1, renderer.frameCount / 20)))
        for _ in 0..<2 { for i in frames { _ = renderer.renderFrame(i) } }
        for i in frames {
            let warm = renderer.renderFrame(i)
            let cold = CoverageCacheRenderTests.renderCold(renderer, i)
            #expect(warm.data == cold.data, "\(relative) frame \(i): \(FrameReuseTests.differing(warm, cold)) bytes differ")
        }
    }
}
