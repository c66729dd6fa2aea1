import Foundation
import Testing
import Flipbook
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
@testable import FlipbookTimeline
@testable import FlipbookRender

/// Reuse between frames (``FrameReuse``, damage tracking) gives the bytes of a full render:
/// every frame of the seed scenes, the card benchmark scene and Lottie files rendered with
/// reuse off and on, in order and in a shuffled order (so that a thread's previous frame is
/// any frame), and whole exports compared at --jobs 1 and 2.
@Suite struct FrameReuseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let lottieFixtures = root + "/Tests/FlipbookLottieTests/Fixtures"
    /// The Lottie corpus vendored in the repository (Tests/LottieCorpus, MIT, from ThorVG's examples).
    static let corpus = root + "/Tests/LottieCorpus"

    static func hash(_ p: Pixmap) -> Int {
        var h = Hasher()
        h.combine(p.data)
        return h.finalize()
    }

    /// How many bytes differ (the arrays themselves are too long for a failure message).
    static func differing(_ a: Pixmap, _ b: Pixmap) -> Int {
        a.data.count != b.data.count
            ? -1 : zip(a.data, b.data).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
    }

    /// A fixed permutation of 0..<n (a small LCG, so failures reproduce).
    static func shuffled(_ n: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<n)
        var state = seed
        for i in stride(from: n - 1, to: 0, by: -1) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            order.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        return order
    }

    /// Renders every frame without reuse, then with reuse in order and shuffled; returns
    /// how many frames were repainted in part (fewer rows than the frame has).
    @discardableResult
    static func compareEveryFrame(_ path: String, scale: Double? = nil, step: Int = 1) throws -> Int
    {
        let scene = try SceneFile.load(path: path)
        var full = try SceneRenderer(scene: scene, scale: scale)
        full.frameReuse = nil
        var reusing = full
        let frames = Array(stride(from: 0, to: full.frameCount, by: step))
        var expected: [Int: Int] = [:]
        let reuse = FrameReuse()
        reusing.frameReuse = reuse
        for i in frames {
            let reference = full.renderFrame(i)
            expected[i] = hash(reference)
            let frame = reusing.renderFrame(i)
            let same = frame.data == reference.data
            #expect(
                same, "\(path) frame \(i), in order: \(differing(frame, reference)) bytes differ")
            if !same { return 0 }
        }
        let partial = reuse.partialRepaints
        reuse.reset()
        for i in shuffled(frames.count, seed: UInt64(frames.count)).map({ frames[$0] }) {
            #expect(hash(reusing.renderFrame(i)) == expected[i], "\(path) frame \(i), shuffled")
        }
        return partial
    }

    @Test(arguments: [
        "card-signup", "demo", "fragment-banner", "gradient-bench", "login-form", "owl-login",
        "parallax-guide", "phone-ui",
    ])
    func seedScenes(_ name: String) throws {
        try Self.compareEveryFrame(Self.root + "/scenes/\(name).yaml", scale: 0.5)
    }

    @Test(arguments: [
        "long-gradients", "photo-pan", "shadow-gradient", "text-ui", "transparent-canvas",
    ])
    func benchScenes(_ name: String) throws {
        try Self.compareEveryFrame(Self.root + "/scenes/bench/\(name).yaml", scale: 0.5, step: 2)
    }

    /// The card benchmark scene at its own scale; most of its frames change a few rows.
    @Test func cardScene() throws {
        let partial = try Self.compareEveryFrame(Self.root + "/Benchmarks/Peers/card.yaml")
        #expect(partial > 60, "reuse repainted only \(partial) of 120 frames in part")
    }

    /// Every Lottie fixture (masks, mattes, effects, blend modes, images, text…).
    @Test func lottieFixtures() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.lottieFixtures)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".lottie") }.sorted()
        #expect(files.count > 40)
        for file in files where file != "manifest.json" {
            try Self.compareEveryFrame(Self.lottieFixtures + "/" + file, scale: 0.5, step: 1)
        }
    }

    /// Files of the vendored corpus with static backgrounds, mattes, repeaters and images.
    @Test(arguments: [
        "heart_fill", "masking", "starstrips", "lolo_walk", "water_filling", "hamburger",
    ])
    func lottieCorpus(_ name: String) throws {
        let path = Self.corpus + "/\(name).json"
        try #require(
            FileManager.default.fileExists(atPath: path), "the vendored corpus is missing: \(path)")
        try Self.compareEveryFrame(path, scale: 0.25)
    }

    /// Whole exports: PNG frames and a GIF with reuse off at --jobs 1 against reuse on at
    /// --jobs 1 and 2, byte for byte.
    @Test(arguments: [
        "/Benchmarks/Peers/card.yaml", "/scenes/phone-ui.yaml",
        "/Tests/FlipbookLottieTests/Fixtures/matte_alpha.json",
    ])
    func exportsAreIdentical(_ relative: String) throws {
        let scene = try SceneFile.load(path: Self.root + relative)
        var off = try SceneRenderer(scene: scene, scale: relative.hasSuffix(".json") ? 0.5 : 0.25)
        off.frameReuse = nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reuse-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = 0...(off.frameCount - 1)
        func outputs(_ renderer: SceneRenderer, jobs: Int, _ tag: String) throws -> [Data] {
            let dir = folder + "/" + tag
            try PNGSequenceExporter().export(renderer, frames: frames, to: dir, jobs: jobs)
            try GIFExporter().export(renderer, frames: frames, to: dir + ".gif", jobs: jobs)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            return try (names.map { dir + "/" + $0 } + [dir + ".gif"]).map {
                try Data(contentsOf: URL(fileURLWithPath: $0))
            }
        }
        let reference = try outputs(off, jobs: 1, "off")
        #expect(reference.count == frames.count + 1)
        for jobs in [1, 2] {
            var on = off
            on.frameReuse = FrameReuse()
            #expect(
                try outputs(on, jobs: jobs, "on\(jobs)") == reference, "\(relative) --jobs \(jobs)")
        }
    }

    /// Pairs of frames far apart and on either side of every change, in both directions,
    /// on one kept frame: the damage box of any two trees is enough.
    @Test func anyPairOfFrames() throws {
        let scene = try SceneFile.load(path: Self.root + "/scenes/login-form.yaml")
        var full = try SceneRenderer(scene: scene, scale: 1)
        full.frameReuse = nil
        let reuse = FrameReuse()
        let n = full.frameCount
        for (a, b) in [(0, n - 1), (n - 1, 0), (n / 2, 3), (5, n / 3), (n / 3, n / 3), (1, 0)] {
            reuse.reset()
            _ = reuse.render(full.timeline.frame(at: full.seconds(ofFrame: a)), with: full.renderer)
            let frame = reuse.render(
                full.timeline.frame(at: full.seconds(ofFrame: b)), with: full.renderer)
            let reference = full.renderFrame(b)
            #expect(
                frame.data == reference.data,
                "frame \(b) after \(a): \(Self.differing(frame, reference)) bytes differ")
        }
    }

    /// The damage comparison looks at every stored field of a layer: one added to
    /// ``RenderLayer`` must be added to `sameOwnValues` (and this count).
    @Test func comparisonCoversEveryField() {
        let layer = RenderLayer(id: "a", properties: LayerProperties(), content: .none, snap: .none)
        #expect(Mirror(reflecting: layer).children.count == 10)
        #expect(
            Mirror(
                reflecting: FrameTree(
                    seconds: 0, canvasSize: Size(1, 1), background: .white, snap: .none,
                    layers: [])
            ).children.count == 5)
    }

    /// Only the rows a change reaches are repainted: a small moving dot on a large layer.
    @Test func damageIsTheChangedRows() {
        func tree(_ y: Double) -> FrameTree {
            var big = RenderLayer(
                id: "big", properties: LayerProperties(), content: .none, snap: .none)
            big.properties.bounds = Rect(0, 0, 100, 100)
            big.properties.position = Point(50, 50)
            big.properties.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6)
            big.properties.cornerRadius = 10
            var dot = RenderLayer(
                id: "dot", properties: LayerProperties(), content: .none, snap: .none)
            dot.properties.bounds = Rect(0, 0, 10, 10)
            dot.properties.position = Point(50, y)
            dot.properties.backgroundColor = .white
            big.sublayers = [dot]
            return FrameTree(
                seconds: 0, canvasSize: Size(100, 100), background: .clear, snap: .none,
                layers: [big])
        }
        let renderer = FrameRenderer(scale: 2)
        let start = (pixel: UInt32(0), layers: 0)
        let box = FrameDamage.box(
            from: tree(30), oldStart: start, to: tree(40), newStart: start, renderer: renderer)
        // The dot spans y 25…35 and then 35…45 points: 50…90 px, plus a pixel of anti-aliasing.
        #expect(box == PixelBounds(x0: 89, y0: 49, x1: 111, y1: 91))
        #expect(
            FrameDamage.box(
                from: tree(30), oldStart: start, to: tree(30), newStart: start, renderer: renderer)
                == .empty)
        let reuse = FrameReuse()
        _ = reuse.render(tree(30), with: renderer)
        let reused = reuse.render(tree(40), with: renderer), reference = renderer.render(tree(40))
        #expect(reused.data == reference.data, "\(Self.differing(reused, reference)) bytes differ")
        #expect(reuse.partialRepaints == 1)
    }
}
