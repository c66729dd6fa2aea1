import Testing

/// Whole frames with image layers drawn with warm per-thread caches (every frame rendered
/// twice in order on one thread, so still images blend from ``ImageCache``) equal the same
/// frames drawn each on a new thread (empty caches: every image span shaded). heart_fill
/// has still, fading and scaling 372×372 images at fractional offsets; photo-pan moves
/// its photo every frame; image_embedded is a small still Lottie image.
@Suite struct ImageCacheRenderTests {
    @Test(arguments: [
        "Tests/LottieCorpus/heart_fill.json", "scenes/bench/photo-pan.yaml",
        "Tests/FlipbookLottieTests/Fixtures/image_embedded.json",
    ])
    func warmFramesEqualColdFrames(_ relative: String) throws {
        try CoverageCacheRenderTests.expectWarmFramesEqualCold(relative, scale: 0.375, samples: 20)
    }
}
