// Frame rendering and GIF encoding, measured side by side so that ratios (encoding vs
// rendering, our LZW coder vs giflib's) come from the same run on the same machine.
//
// Inputs: frame 45 of scenes/phone-ui.yaml at 2× (750×1334: a card sliding over a
// full-screen gradient) against frame 44, and frame 30 of scenes/gradient-bench.yaml.
import Benchmark
import CGIFReference
import Flipbook
import FlipbookCodecs
import FlipbookRaster
import FlipbookScene

/// The repository root, from this file's path (Benchmarks/Benchmarks/FrameEncoding/…).
let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/")
}()

/// A scene's renderer, frame `k` and frame `k - 1`, and a GIF frame encoder for it.
struct Fixture {
    let renderer: SceneRenderer
    let k: Int
    let previous: Pixmap
    let frame: Pixmap
    let encoder: GIFFrameEncoder

    init(scene name: String, frame k: Int, options: GIFEncodingOptions = GIFEncodingOptions()) {
        let scene = try! SceneLoader.load(path: "\(repository)/scenes/\(name).yaml")
        var renderer = try! SceneRenderer(scene: scene)
        renderer.frameReuse = nil  // one frame rendered again and again: measured whole
        self.renderer = renderer
        self.k = k
        previous = renderer.renderFrame(k - 1)
        frame = renderer.renderFrame(k)
        let (width, height) = renderer.pixelSize
        let background = scene.canvas.background
        encoder = GIFFrameEncoder(
            width: width, height: height, background: background.alpha >= 1 ? background : nil,
            options: options)
    }
}

/// giflib's own compressor (`EGifPutLine`) on the same indices, into memory: the reference
/// our coder is compared with.
final class MemoryGIF {
    var bytes: [UInt8] = []

    static func giflibCompress(_ indices: [UInt8], width: Int, height: Int, colors: Int) -> Int {
        let sink = MemoryGIF()
        sink.bytes.reserveCapacity(indices.count)
        var err: Int32 = 0
        let gif = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { gif, bytes, count in
                let sink = Unmanaged<MemoryGIF>.fromOpaque(gif!.pointee.UserData)
                    .takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
                return count
            }, &err)!
        var map = (0..<colors).map { GifColorType(Red: UInt8($0 & 0xFF), Green: 0, Blue: 0) }
        let colorMap = GifMakeMapObject(Int32(colors), &map)
        defer { GifFreeMapObject(colorMap) }
        EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil)
        EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, colorMap)
        var row = [UInt8](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width { row[x] = indices[y * width + x] }
            EGifPutLine(gif, &row, Int32(width))
        }
        EGifCloseFile(gif, &err)
        return sink.bytes.count
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(4), maxIterations: 300)
    let phone = Fixture(scene: "phone-ui", frame: 45)
    let lossy = Fixture(scene: "phone-ui", frame: 45, options: GIFEncodingOptions(lossy: 16))
    let gradient = Fixture(scene: "gradient-bench", frame: 30)
    // The whole frame quantized once: the indices both LZW coders compress.
    let whole = phone.encoder.prepare(phone.frame, previous: nil)
    var colors = 2
    while colors < whole.palette.count { colors *= 2 }

    Benchmark("render: phone-ui frame 45 (750×1334)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(phone.renderer.renderFrame(phone.k)) }
    }
    Benchmark("GIF prepare: phone-ui frame 45 vs 44 (difference, quantize, LZW)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(phone.encoder.prepare(phone.frame, previous: phone.previous))
        }
    }
    Benchmark("GIF prepare: phone-ui frame 45 vs 44, --lossy 16") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(lossy.encoder.prepare(lossy.frame, previous: lossy.previous))
        }
    }
    Benchmark("GIF prepare: phone-ui frame 45, whole canvas") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(phone.encoder.prepare(phone.frame, previous: nil))
        }
    }
    Benchmark("LZW: flipbook coder, phone-ui frame 45 whole canvas") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(LZWEncoder.compress(whole.indices, minCodeSize: whole.image.minCodeSize))
        }
    }
    Benchmark("LZW: giflib EGifPutLine, same indices (reference)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                MemoryGIF.giflibCompress(
                    whole.indices, width: whole.width, height: whole.height, colors: colors))
        }
    }
    Benchmark("render: gradient-bench frame 30") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(gradient.renderer.renderFrame(gradient.k)) }
    }
    Benchmark("GIF prepare: gradient-bench frame 30 vs 29 (Wu + k-means, Oklab mapping)") {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(gradient.encoder.prepare(gradient.frame, previous: gradient.previous))
        }
    }
}
