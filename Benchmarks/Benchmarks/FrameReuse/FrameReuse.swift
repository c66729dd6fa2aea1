// Reuse between frames (damage tracking, issue 12): the render CPU of every frame of a
// scene with reuse off ("whole") and on ("reuse"), side by side in the same run. One
// iteration renders the frames on one thread in order ("every frame", as --jobs 1 sees
// them) or every other frame ("stride 2": what each of the two workers of the default
// --jobs 2 sees on a 2-core machine); timeline evaluation is included, encoding is not.
// CPU time ÷ frames is the render CPU per frame.
import Benchmark
import Flipbook
import FlipbookRender
import FlipbookScene

/// The repository root, from this file's path (Benchmarks/Benchmarks/FrameReuse/…).
let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/")
}()

/// The Lottie corpus vendored in the repository (Tests/LottieCorpus).
let corpus = repository + "/Tests/LottieCorpus"

/// Scenes: the card benchmark scene and phone-ui at their 2× scale, and Lottie files with
/// static backgrounds (a solid layer or a still backdrop) at their composition size.
let scenes: [(String, String)] = [
    ("card", repository + "/Benchmarks/Peers/card.yaml"),
    ("phone-ui", repository + "/scenes/phone-ui.yaml"),
    ("lottie game_finished", corpus + "/game_finished.json"),
    ("lottie kote", corpus + "/kote.json"),
    ("lottie like", corpus + "/like.json"),
    ("lottie hamburger", corpus + "/hamburger.json"),
    ("lottie heart_fill", corpus + "/heart_fill.json"),
    ("lottie message", corpus + "/message.json"),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.cpuTotal, .wallClock], maxDuration: .seconds(3), maxIterations: 20)
    for (name, path) in scenes {
        guard let scene = try? SceneFile.load(path: path),
            var renderer = try? SceneRenderer(scene: scene)
        else { continue }
        let count = renderer.frameCount
        for stride in [1, 2] {
            let frames = Array(Swift.stride(from: 0, to: count, by: stride))
            for reuse in [false, true] {
                renderer.frameReuse = reuse ? FrameReuse() : nil
                let r = renderer
                let label =
                    "Reuse \(name) \(reuse ? "reuse" : "whole") \(stride == 1 ? "every frame" : "stride 2") (\(frames.count) frames)"
                Benchmark(label) { benchmark in
                    for i in frames { blackHole(r.renderFrame(i)) }
                }
            }
        }
    }
}
