/// What the Lottie benchmarks render (LottieFrames, LottieInterleaved), as
/// scripts/bench-lottie-peers does.

/// The Lottie corpus vendored in the repository (Tests/LottieCorpus).
public let corpus: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/") + "/Tests/LottieCorpus"
}()

/// The same ten files as scripts/bench-lottie-peers: large and small canvases, long and short
/// timelines, gradients, masks and mattes, trim paths, repeaters, precomps, images and text.
public let files = [
    "heart_fill", "5317-fireworkds", "gradient_smoke", "masking", "starstrips",
    "lolo_walk", "property_market", "water_filling", "confetti2", "isometric",
]
