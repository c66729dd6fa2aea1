// PNG writing and reading, each beside libpng's simplified API with its defaults (zlib
// level 6, adaptive filters, RGBA: how Flipbook wrote PNGs before) measured in the same
// run; and whole scene exports (card scene of Benchmarks/Peers, 120 frames), rendering
// and PNG or GIF encoding on one thread, so that their CPU splits can be compared.
//
// Inputs: frame 60 of Benchmarks/Peers/card.yaml (750×1334, opaque: written as RGB) and
// frame 45 of scenes/phone-ui.yaml.
import Benchmark
import Flipbook
import FlipbookCodecs
import FlipbookRaster
import FlipbookScene

/// The repository root, from this file's path (Benchmarks/Benchmarks/PNGCodec/…).
let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/")
}()

func renderer(_ path: String) -> SceneRenderer {
    var renderer = try! SceneRenderer(scene: try! SceneLoader.load(path: "\(repository)/\(path)"))
    renderer.frameReuse = nil  // one frame rendered again and again: measured whole
    return renderer
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(4), maxIterations: 300)
    let card = renderer("Benchmarks/Peers/card.yaml")
    let phone = renderer("scenes/phone-ui.yaml")
    let frames = [
        ("card frame 60", card.renderFrame(60)), ("phone-ui frame 45", phone.renderFrame(45)),
    ]

    Benchmark("render: card frame 60 (750×1334)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(card.renderFrame(60)) }
    }
    for (name, frame) in frames {
        Benchmark("PNG encode: \(name), libpng simplified API defaults (reference)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PNGCodec.encodeWithSimplifiedAPI(frame))
            }
        }
        for compression in PNGCompression.allCases {
            Benchmark("PNG encode: \(name), --png-compression \(compression.rawValue)") {
                benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try PNGCodec.encode(frame, compression: compression))
                }
            }
        }
        let file = try! PNGCodec.encode(frame)
        Benchmark("PNG decode: \(name), libpng simplified API (reference)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PNGCodec.decodeWithSimplifiedAPI(file) { _, _ in nil })
            }
        }
        Benchmark("PNG decode: \(name), full API") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PNGCodec.decode(file)) }
        }
    }
    let folder = "/tmp/flipbook-benchmark-\(UInt32.random(in: 0 ... .max))"
    let long = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], maxDuration: .seconds(10),
        maxIterations: 5)
    Benchmark("export: card → 120 PNG frames, --jobs 1", configuration: long) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try PNGSequenceExporter().export(
                    card, frames: 0...119, to: folder + "/png", jobs: 1))
        }
    }
    Benchmark("export: card → GIF, --jobs 1", configuration: long) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try GIFExporter().export(card, frames: 0...119, to: folder + "/card.gif", jobs: 1))
        }
    }
}
