// Fuzz target for the scene loader, the Lottie reader and the PNG and GIF readers.
//
// Built by scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`: libFuzzer then
// drives `LLVMFuzzerTestOneInput` through `LLVMFuzzerRunDriver`. The input kind comes
// from the FLIPBOOK_FUZZ environment variable: `scene` (default: load, limits,
// timeline), `render` (the same, then one frame of what fits small limits), `lottie` (the
// Lottie reader, limits, timeline, then two small frames with frame reuse on: the middle
// one and the next, so the reuse damage code compares consecutive frames),
// `lottie-structured` (the same harness, inputs edited as JSON trees by JSONMutator through
// `LLVMFuzzerCustomMutator`), `lottie-ca` and `lottie-structured-ca` (the same two with
// `--lottie-compat core-animation`, text layers drawn: the Core Text layout path), `png`,
// `gif`, `apng` or `webp` (the readers `flipbook diff` loads animations with). The custom
// mutator is one per process, so for every other kind it hands the input to libFuzzer's
// own byte mutation.
//
// Built plainly (as `swift build` does), it replays files instead:
//   FLIPBOOK_FUZZ=png .build/debug/FlipbookFuzz crash-1234 corpus/*.png
// so that a finding can be rerun without the sanitizers; with FLIPBOOK_FUZZ_MUTATE=<seed>
// it prints what the structured mutator makes of each file with that seed instead.
import Flipbook
import FlipbookCodecs
import FlipbookLottie
import FlipbookRender
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

enum FuzzKind: String {
    case scene, render, lottie, lottieStructured = "lottie-structured", lottieCA = "lottie-ca"
    case lottieStructuredCA = "lottie-structured-ca", png, gif, apng, webp

    /// Inputs edited as JSON trees by JSONMutator.
    var isStructured: Bool { self == .lottieStructured || self == .lottieStructuredCA }
}

let fuzzKind: FuzzKind = {
    guard let raw = getenv("FLIPBOOK_FUZZ") else { return .scene }
    guard let kind = FuzzKind(rawValue: String(cString: raw)) else {
        warn(
            "FLIPBOOK_FUZZ must be scene, render, lottie, lottie-structured, lottie-ca, lottie-structured-ca, png, gif, "
                + "apng or webp")
        exit(64)
    }
    return kind
}()

/// Small limits: big scenes are refused like the CLI refuses them, and what passes
/// renders quickly under the sanitizers.
let fuzzLimits = ResourceLimits(
    maxPixels: 96 * 96, maxFrames: 120, maxLayers: 64, maxPathElements: 2_000,
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
    guard !drawsText, let renderer = try? SceneRenderer(scene: scene, limits: fuzzLimits) else {
        return
    }
    _ = renderer.renderFrame(renderer.frameCount / 2)
}

func fuzzLottie(_ bytes: [UInt8], compatibility: LottieCompatibility) {
    // The small limits go to the reader too, as the CLI hands it its --max-* flags: a file of
    // nested precompositions is refused at 64 layers instead of being built to the default
    // 10000 (seconds under ASan, a timeout finding that is only the limit's size).
    let options = SceneLoader.Options(limits: fuzzLimits, lottieCompatibility: compatibility)
    guard let scene = try? LottieLoader.parse(Data(bytes), path: nil, options: options) else {
        return
    }
    // Real Lottie files are 500–2000 px and 60 fps: drawn at a scale that fits the small
    // limits' 96 px and a rate that fits their 120 frames, as `--scale` and `--fps` would,
    // rather than refused (which left the renderer unfuzzed for nearly every corpus file).
    let side = max(scene.canvas.size.width, scene.canvas.size.height)
    let scale = side > 0 && 96 / side >= 0.001 ? min(0.25, 96 / side) : 0.25
    let duration = scene.canvas.duration
    let fps = duration > 0 ? min(scene.canvas.fps, 120 / duration) : scene.canvas.fps
    guard fuzzLimits.violations(of: scene, scale: scale, fps: fps).isEmpty else { return }
    let timeline = Timeline(scene: scene)
    for t in [0, duration / 2, duration] { _ = timeline.frame(at: t) }
    // Text goes through fontconfig and FreeType, left out for lottie-web; the core-animation
    // kinds draw it, since their text layout (Core Text's frame rules) is ours.
    var drawsText = false
    for layer in scene.layers {
        layer.forEachLayer { if case .text = $0.content { drawsText = true } }
    }
    guard !drawsText || compatibility == .coreAnimation,
        var renderer = try? SceneRenderer(scene: scene, scale: scale, fps: fps, limits: fuzzLimits)
    else { return }
    // Reuse on, whatever FLIPBOOK_FRAME_REUSE says: the frame after the middle one is drawn
    // over the middle one's pixels through the damage box between the two trees (a
    // far-away position crashed there and nowhere else).
    renderer.frameReuse = FrameReuse()
    let middle = renderer.frameCount / 2
    for frame in [middle, middle + 1] where frame < renderer.frameCount {
        _ = renderer.renderFrame(frame)
    }
}

func fuzzPNG(_ bytes: [UInt8]) {
    // Through the image decoder scenes use: PNG, or JPEG when the bytes start as one.
    _ = try? ImageDecoder.decode(bytes) { width, height in
        width * height > 1 << 20 ? "too big for fuzzing" : nil
    }
}

func fuzzGIF(_ bytes: [UInt8]) {
    // The budget the CLI would give one input of `diff --max-memory 512M`: what the reader
    // allocates stays far under scripts/fuzz's 1 GB RSS cap.
    _ = try? GIFReader.decode(bytes, maxBytes: 256 << 20)
}

/// The memory budget of the APNG and WebP kinds. Far below the GIF kind's 256 MiB: these
/// formats hold a 65511×49 transparent canvas in a few bytes, and the per-pixel work after
/// libpng and libwebp (compositing, premultiplying) runs near 1 µs a pixel under ASan in a
/// debug build, so 256 MiB (64M pixels) is a 20 s timeout that only measures the budget.
/// 16 MiB is 4M pixels: the budget checks still refuse what is over it.
let animationBudget = 16 << 20

/// An animated PNG as `flipbook diff` reads it (what FrameSequence.load calls).
func fuzzAPNG(_ bytes: [UInt8]) {
    guard APNGReader.isAnimated(bytes) else { return }
    _ = try? APNGReader.decode(bytes, maxBytes: animationBudget).millisecondDelays
}

/// An animated WebP as `flipbook diff` reads it, and its hash chunk as the batch reads it.
func fuzzWebP(_ bytes: [UInt8]) {
    _ = WebPAnimationReader.metadata("FBKH", in: bytes)
    _ = try? WebPAnimationReader.decode(bytes, maxBytes: animationBudget)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch fuzzKind {
    case .scene: fuzzScene(bytes, render: false)
    case .render: fuzzScene(bytes, render: true)
    case .lottie, .lottieStructured: fuzzLottie(bytes, compatibility: .lottieWeb)
    case .lottieCA, .lottieStructuredCA: fuzzLottie(bytes, compatibility: .coreAnimation)
    case .png: fuzzPNG(bytes)
    case .gif: fuzzGIF(bytes)
    case .apng: fuzzAPNG(bytes)
    case .webp: fuzzWebP(bytes)
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

    @_silgen_name("LLVMFuzzerMutate")
    func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int

    /// libFuzzer's mutation hook: a structural edit for `lottie-structured(-ca)` inputs that parse
    /// as JSON, libFuzzer's byte mutation otherwise (and for every other kind).
    @_cdecl("LLVMFuzzerCustomMutator")
    public func fuzzMutate(
        _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32
    ) -> Int {
        if fuzzKind.isStructured, let data,
            let document = JSONValue(parsing: Array(UnsafeBufferPointer(start: data, count: size)))
        {
            var mutator = JSONMutator(seed: seed, maxSize: maxSize)
            if let mutated = mutator.mutate(document) {
                mutated.withUnsafeBufferPointer {
                    data.update(from: $0.baseAddress!, count: mutated.count)
                }
                return mutated.count
            }
        }
        return LLVMFuzzerMutate(data, size, maxSize)
    }

    /// libFuzzer's cross-over hook: a subtree of the second input grafted into the first, for
    /// `lottie-structured` inputs that both parse; nothing (0, libFuzzer tries another
    /// mutation) otherwise.
    @_cdecl("LLVMFuzzerCustomCrossOver")
    public func fuzzCrossOver(
        _ data1: UnsafePointer<UInt8>?, _ size1: Int, _ data2: UnsafePointer<UInt8>?, _ size2: Int,
        _ out: UnsafeMutablePointer<UInt8>?, _ maxOutSize: Int, _ seed: UInt32
    ) -> Int {
        guard fuzzKind.isStructured, let data1, let data2, let out,
            let document = JSONValue(
                parsing: Array(UnsafeBufferPointer(start: data1, count: size1))),
            let donor = JSONValue(parsing: Array(UnsafeBufferPointer(start: data2, count: size2)))
        else { return 0 }
        var mutator = JSONMutator(seed: seed, maxSize: maxOutSize)
        guard let crossed = mutator.crossOver(document, with: donor) else { return 0 }
        crossed.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: crossed.count) }
        return crossed.count
    }

    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
#else
    let mutateSeed = getenv("FLIPBOOK_FUZZ_MUTATE").flatMap { UInt32(String(cString: $0)) }
    var failures = 0
    for path in CommandLine.arguments.dropFirst() {
        guard let bytes = try? FileIO.readAll(path: path) else {
            warn("\(path): cannot read")
            failures += 1
            continue
        }
        if let mutateSeed {
            var mutator = JSONMutator(seed: mutateSeed, maxSize: 256 << 10)
            let mutated = JSONValue(parsing: bytes).flatMap { mutator.mutate($0) }
            print(
                mutated.map { String(decoding: $0, as: UTF8.self) }
                    ?? "\(path): not JSON, or nothing to edit")
            continue
        }
        _ = fuzzOneInput(bytes, bytes.count)
        print("\(path): ok")
    }
    exit(failures == 0 ? 0 : 1)
#endif
