// Flipbook against ThorVG in one process, pass by pass: scripts/bench-lottie-interleaved.
//
// Why: this machine's speed drifts by ±20 % over minutes, and ThorVG's time measured in
// its own Python process was bimodal (masking 256: 0.61–0.79 ms in one process, 1.02–1.04
// in another), so ratios of figures taken minutes apart, as LottieFrames ÷
// bench-lottie-peers are, could not settle rows within 20 % of each other. Here both
// renderers draw the same file in the same process, alternating whole passes, so that
// every ratio compares two passes taken a few milliseconds apart. A process still has a
// speed of its own for each renderer (where their buffers land), so the script runs
// several and takes the median over them.
//
// A round is one pass of each, in alternating order (Flipbook first in odd rounds). A
// Flipbook pass is LottieFrames' protocol: a renderer built beforehand (untimed), every
// frame 0 … N−1 drawn once on a thread of its own, frame reuse off. A ThorVG pass is the
// peers' protocol: the same canvas for every pass, warmed up with the first ten frames
// before the first round, the last frame set before each pass, then frames 0 … N−1. Each
// pass is timed in the CPU time of the thread that draws it. Sizes as LottieFrames: the
// composition fitted into 256×256 (ThorVG's canvas rounded as the peers round it) and the
// composition's own size.
import Flipbook
import FlipbookScene
import Foundation
import LottieBenchFiles

struct Options {
    var thorvg = ""
    var rounds = 30
    var sizes = ["256", "comp"]
    var json: String?
    var files: [String] = []
}

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            """
            usage: LottieInterleaved --thorvg LIB [--rounds N] [--size 256|comp|both] [--json FILE] [FILE…]
              LIB: ThorVG's shared library (libthorvg-1.so from thorvg-python); FILE: names in
              Tests/LottieCorpus (default: LottieFrames' ten).

            """.utf8))
    exit(2)
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    while let a = args.popFirst() {
        switch a {
        case "--thorvg":
            guard let v = args.popFirst() else { usage() }
            o.thorvg = v
        case "--rounds":
            guard let v = args.popFirst().flatMap(Int.init), (2...1000).contains(v) else {
                usage()
            }
            o.rounds = v
        case "--size":
            switch args.popFirst() {
            case "256": o.sizes = ["256"]
            case "comp": o.sizes = ["comp"]
            case "both": o.sizes = ["256", "comp"]
            default: usage()
            }
        case "--json":
            guard let v = args.popFirst() else { usage() }
            o.json = v
        case "-h", "--help": usage()
        default:
            if a.hasPrefix("-") { usage() }
            o.files.append(a)
        }
    }
    if o.thorvg.isEmpty { usage() }
    if o.files.isEmpty { o.files = files }
    return o
}

func threadCPUms() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
}

func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// One Flipbook pass on a fresh thread: ms per frame in that thread's CPU time.
func flipbookPass(_ renderer: SceneRenderer) -> Double {
    let frames = renderer.frameCount
    let result = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    defer { result.deallocate() }
    let done = DispatchSemaphore(value: 0)
    let resultAddress = Int(bitPattern: result)
    let thread = Thread {
        let start = threadCPUms()
        for i in 0..<frames { withExtendedLifetime(renderer.renderFrame(i)) {} }
        UnsafeMutablePointer<Double>(bitPattern: resultAddress)!.pointee =
            (threadCPUms() - start) / Double(frames)
        done.signal()
    }
    thread.start()
    done.wait()
    return result.pointee
}

struct Row: Codable {
    let file: String
    let size: String
    let width: Int
    let height: Int
    let frames: Int
    let rounds: Int
    let flipbookMedianMs: Double
    let thorvgMedianMs: Double
    /// The median over rounds of (Flipbook pass ÷ ThorVG pass).
    let ratioMedian: Double
    let ratioMin: Double
    let ratioMax: Double
}

let options = parse()
var rows: [Row] = []
print(
    "| file | size | frames | Flipbook ms/frame | ThorVG ms/frame | ÷ of medians | median of rounds' ÷ | rounds' ÷ range |"
)
print("|---|---|---:|---:|---:|---:|---:|---|")
for name in options.files {
    let path = "\(corpus)/\(name).json"
    let scene: Scene
    do {
        scene = try SceneFile.load(path: path, options: .init(lottieCompatibility: .lottieWeb))
    } catch {
        FileHandle.standardError.write(Data("LottieInterleaved: \(path): \(error)\n".utf8))
        exit(2)
    }
    let (w, h) = (scene.canvas.size.width, scene.canvas.size.height)
    for size in options.sizes {
        let scale = size == "256" ? 256 / max(w, h) : 1.0
        // The peers' rounding (scripts/lottie/engines.py fit_size): floor(side · s + 0.5).
        let width = max(1, Int((w * scale + 0.5).rounded(.down)))
        let height = max(1, Int((h * scale + 0.5).rounded(.down)))
        do {
            let thorvg = try ThorVGPlayer(
                library: options.thorvg, file: path, width: width, height: height)
            let probe = try SceneRenderer(scene: scene, scale: scale)
            let frames = probe.frameCount
            for i in 0..<min(frames, 10) { thorvg.render(i) }
            var ours: [Double] = [], theirs: [Double] = [], ratios: [Double] = []
            for round in 0..<options.rounds {
                var renderer = try SceneRenderer(scene: scene, scale: scale)
                renderer.frameReuse = nil
                func thorvgPass() -> Double {
                    thorvg.seek(frames - 1)
                    let start = threadCPUms()
                    for i in 0..<frames { thorvg.render(i) }
                    return (threadCPUms() - start) / Double(frames)
                }
                let (a, b): (Double, Double)
                if round % 2 == 0 {
                    a = flipbookPass(renderer); b = thorvgPass()
                } else {
                    b = thorvgPass(); a = flipbookPass(renderer)
                }
                ours.append(a); theirs.append(b); ratios.append(a / b)
            }
            let row = Row(
                file: name, size: size, width: width, height: height, frames: frames,
                rounds: options.rounds, flipbookMedianMs: median(ours),
                thorvgMedianMs: median(theirs), ratioMedian: median(ratios),
                ratioMin: ratios.min()!, ratioMax: ratios.max()!)
            rows.append(row)
            print(
                String(
                    format: "| %@ | %d×%d | %d | %.3f | %.3f | %.2f× | %.2f× | %.2f–%.2f |", name,
                    width,
                    height, frames, row.flipbookMedianMs, row.thorvgMedianMs,
                    row.flipbookMedianMs / row.thorvgMedianMs, row.ratioMedian, row.ratioMin,
                    row.ratioMax))
        } catch {
            FileHandle.standardError.write(
                Data("LottieInterleaved: \(name) \(size): \(error)\n".utf8))
            exit(2)
        }
    }
}
if let json = options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(rows).write(to: URL(fileURLWithPath: json))
}
