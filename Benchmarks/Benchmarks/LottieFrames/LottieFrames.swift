// Lottie frames, for issue 14's speed goal: a frame in at most rlottie's time for the same
// file and size. rlottie's (and ThorVG's) side is scripts/bench-lottie-peers, which renders
// every frame 0 … N−1 of the same ten files at the same two sizes and reports CPU ms per
// frame; here one iteration renders every frame of the file the same way (timeline
// evaluation and rasterizing, no PNG encoding), P times over (P×N in the name), so CPU
// time ÷ (P·N) compares directly.
//
// Each of the P passes is one render as a user runs it (`flipbook render --jobs 1`): its
// own renderer, built before the measurement starts, drawing every frame once on a thread
// of its own. Why: the rasterizer's caches are per thread and the artwork's per renderer,
// and they keep what a frame computed for the frames after it. Passes that shared them
// replayed the previous pass's coverage and masks instead of drawing (heart_fill, masking,
// lolo_walk and starstrips measured 1.6–2× faster so, 27 Nov 2026), which no single
// render gets; the peers' repeated passes keep no such results.
import Benchmark
import Flipbook
import FlipbookScene
import Foundation
import LottieBenchFiles

/// The composition fitted into 256×256 (rounded), as `flipbook still --size` and the peers get it.
func fitScale(_ scene: Scene) -> Double {
    256 / max(scene.canvas.size.width, scene.canvas.size.height)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.cpuTotal, .wallClock], maxDuration: .seconds(3), maxIterations: 20)
    // Each file under both profiles: issue 24 asks that `--lottie-compat core-animation` cost
    // no more than the default (`lottie-web`, whose names carry no suffix).
    let profiles = LottieCompatibility.allCases.map {
        ($0, $0 == .lottieWeb ? "" : " \($0.rawValue)")
    }
    for name in files {
        for (compat, suffix) in profiles {
            let options = SceneLoader.Options(lottieCompatibility: compat)
            guard let scene = try? SceneFile.load(path: "\(corpus)/\(name).json", options: options)
            else { continue }
            for (label, scale) in [("256", fitScale(scene)), ("comp", 1.0)] {
                guard let probe = try? SceneRenderer(scene: scene, scale: scale) else { continue }
                let frames = probe.frameCount
                // The benchmark's CPU clock ticks in 10 ms: every frame is rendered `passes`
                // times per iteration so that an iteration takes well over 100 ms (2,400
                // frames at the small size, whose frames take a fraction of a millisecond, so
                // that a tick is a few percent of it; 600 at the composition's size). The
                // count is part of the name, so it cannot depend on a timing.
                let passes = max(1, (label == "256" ? 2400 : 600) / max(frames, 1))
                Benchmark("Lottie \(name) \(label) \(passes)x\(frames) frames\(suffix)") {
                    benchmark in
                    let renderers = (0..<passes).compactMap { _ -> SceneRenderer? in
                        guard var renderer = try? SceneRenderer(scene: scene, scale: scale)
                        else { return nil }
                        // every frame drawn whole, as the peers draw them (FrameReuse
                        // measures reuse)
                        renderer.frameReuse = nil
                        return renderer
                    }
                    benchmark.startMeasurement()
                    for renderer in renderers {
                        onFreshThread {
                            for i in 0..<frames { blackHole(renderer.renderFrame(i)) }
                        }
                    }
                    benchmark.stopMeasurement()
                }
            }
        }
    }
}

/// Runs `body` on a new thread (with empty per-thread caches) and waits for it.
func onFreshThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}
