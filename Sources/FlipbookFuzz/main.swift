// Fuzz target for the scene loader and the PNG and GIF readers.
//
// Built by scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`: libFuzzer then
// drives `LLVMFuzzerTestOneInput` through `LLVMFuzzerRunDriver`. The input kind comes
// from the FLIPBOOK_FUZZ environment variable: `scene` (default: load, limits,
// timeline), `render` (the same, then one frame of what fits small limits), `lottie` (the
// Lottie reader, limits, timeline and one small frame), `png` or `gif`.
//
// Built plainly (as `swift build` does), it replays files instead:
//   FLIPBOOK_FUZZ=png .build/debug/FlipbookFuzz crash-1234 corpus/*.png
// so that a finding can be rerun without the sanitizers.
import Flipbook
import FlipbookCodecs
import FlipbookLottie
import FlipbookScene
import Foundation
import FlipbookTimeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func warn(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

enum FuzzKind: String { case scene, render, lottie, png, gif }

let fuzzKind: FuzzKind = {
    guard let raw = getenv("FLIPBOOK_FUZZ") else { return .scene }
    guard let kind = FuzzKind(rawValue: String(cString: raw)) else {
        warn("FLIPBOOK_FUZZ must be scene, render, lottie, png or gif")
        exit(64)
    }
    return kind
}()

/// Small limits: big scenes are refused like the CLI refuses them, and what passes
/// renders quickly under the sanitizers.
let fuzzLimits = ResourceLimits(maxPixels: 96 * 96, maxFrames: 120, maxLayers: 64, maxPathElements: 2_000,
                                maxMemory: 32 << 20)

func fuzzScene(_ bytes: [UInt8], render: Bool) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let scene = try? SceneLoader.parse(text, path: nil) else { return }
    _ = scene.canvas.frameCount
    _ = scene.canvas.pixelSize()
    _ = ResourceLimits.default.violations(of: scene)
    guard fuzzLimits.violations(of: scene).isEmpty else { return }
    let timeline = Timeline(scene: scene)
    let duration = scene.canvas.duration
    for t in [0, duration / 3, duration, duration + 1] { _ = timeline.frame(at: t) }
    guard render else { return }
    // Text goes through fontconfig and FreeType, which are not what is fuzzed here.
    var drawsText = false
    for layer in scene.layers {
        layer.forEachLayer { if case .text = $0.content { drawsText = true } }
    }
    guard !drawsText, let renderer = try? SceneRenderer(scene: scene, limits: fuzzLimits) else { return }
    _ = renderer.renderFrame(renderer.frameCount / 2)
}

func fuzzLottie(_ bytes: [UInt8]) {
    guard let scene = try? LottieLoader.parse(Data(bytes), path: nil),
          fuzzLimits.violations(of: scene).isEmpty else { return }
    let timeline = Timeline(scene: scene)
    let duration = scene.canvas.duration
    for t in [0, duration / 2, duration] { _ = timeline.frame(at: t) }
    var drawsText = false
    for layer in scene.layers {
        layer.forEachLayer { if case .text = $0.content { drawsText = true } }
    }
    guard !drawsText, let renderer = try? SceneRenderer(scene: scene, scale: 0.25, limits: fuzzLimits) else { return }
    _ = renderer.renderFrame(renderer.frameCount / 2)
}

func fuzzPNG(_ bytes: [UInt8]) {
    // Through the image decoder scenes use: PNG, or JPEG when the bytes start as one.
    _ = try? ImageDecoder.decode(bytes) { width, height in
        width * height > 1 << 20 ? "too big for fuzzing" : nil
    }
}

func fuzzGIF(_ bytes: [UInt8]) {
    // GIFDecodeBudget keeps what the reader allocates under about 1.3 GB.
    _ = try? GIFReader.decode(bytes)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch fuzzKind {
    case .scene: fuzzScene(bytes, render: false)
    case .render: fuzzScene(bytes, render: true)
    case .lottie: fuzzLottie(bytes)
    case .png: fuzzPNG(bytes)
    case .gif: fuzzGIF(bytes)
    }
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
#else
var failures = 0
for path in CommandLine.arguments.dropFirst() {
    guard let bytes = try? FileIO.readAll(path: path) else {
        warn("\(path): cannot read")
        failures += 1
        continue
    }
    _ = fuzzOneInput(bytes, bytes.count)
    print("\(path): ok")
}
exit(failures == 0 ? 0 : 1)
#endif
