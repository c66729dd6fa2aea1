// Lottie frames, for issue 14's speed goal: a frame in at most rlottie's time for the same
// file and size. rlottie's (and ThorVG's) side is scripts/bench-lottie-peers, which renders
// every frame 0 … N−1 of the same ten files at the same two sizes and reports CPU ms per
// frame; here one iteration renders every frame of the file the same way (timeline
// evaluation and rasterizing, no PNG encoding), P times over (P×N in the name), so CPU
// time ÷ (P·N) compares directly.
import Benchmark
import Flipbook
import FlipbookScene

/// The shared corpus beside the repository (../shared/lottie/corpus).
let corpus: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(5)
    return parts.joined(separator: "/") + "/shared/lottie/corpus"
}()

/// The same ten files as scripts/bench-lottie-peers.
let files = ["heart_fill", "5317-fireworkds", "gradient_smoke", "masking", "starstrips",
             "lolo_walk", "property_market", "water_filling", "confetti2", "isometric"]

/// The composition fitted into 256×256 (rounded), as `flipbook still --size` and the peers get it.
func fitScale(_ scene: Scene) -> Double {
    256 / max(scene.canvas.size.width, scene.canvas.size.height)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.cpuTotal, .wallClock], maxDuration: .seconds(3), maxIterations: 20)
    for name in files {
        guard let scene = try? SceneFile.load(path: "\(corpus)/\(name).json") else { continue }
        for (label, scale) in [("256", fitScale(scene)), ("comp", 1.0)] {
            guard var renderer = try? SceneRenderer(scene: scene, scale: scale) else { continue }
            renderer.frameReuse = nil   // every frame drawn whole, as the peers draw them (FrameReuse measures reuse)
            let frames = renderer.frameCount
            // The benchmark's CPU clock ticks in 10 ms: every frame is rendered `passes`
            // times per iteration so that an iteration takes about half a second (a tick
            // is then 2 % of it), from one untimed pass (which also warms the caches as
            // the peers' warm-up frames do).
            let clock = ContinuousClock()
            let once = clock.measure { for i in 0..<frames { blackHole(renderer.renderFrame(i)) } }
            let passes = max(1, Int((Duration.milliseconds(500) / once).rounded(.up)))
            Benchmark("Lottie \(name) \(label) \(passes)x\(frames) frames") { benchmark in
                for _ in 0..<passes {
                    for i in 0..<frames { blackHole(renderer.renderFrame(i)) }
                }
            }
        }
    }
}
