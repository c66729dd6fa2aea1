import Foundation
import Testing
import Flipbook
import FlipbookCodecs
import FlipbookScene

/// The `flipbook` executable on Lottie files: still, validate, info, packaged formats,
/// warnings, --strict and malformed input (exit codes and messages).
@Suite struct LottieCommandTests {
    static var executable: String {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        for candidate in [folder, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("flipbook")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.path }
        }
        return ".build/debug/flipbook"
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(),
            e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: o, as: UTF8.self),
            String(decoding: e, as: UTF8.self)
        )
    }

    static func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "flipbook-lottie-" + UUID().uuidString + "-" + name
    }

    @Test func stillWritesExactlyTheRequestedSize() throws {
        let out = Self.temporary("still.png")
        let r = try Self.run([
            "still", LottieSupport.fixtures + "/ellipse.json", "--at", "50%", "--size", "64x32",
            "-o", out,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.read(path: out)
        #expect(image.width == 64 && image.height == 32)
        // A square composition fitted into 64×32 leaves 16-pixel transparent bars.
        #expect(image.pixel(x: 2, y: 16).a == 0 && image.pixel(x: 61, y: 16).a == 0)
    }

    @Test func stillTakesSecondsFramesAndScale() throws {
        for at in ["0.5s", "12f", "12.5f", "100%"] {
            let out = Self.temporary("at.png")
            let r = try Self.run([
                "still", LottieSupport.fixtures + "/ellipse.json", "--at", at, "--scale", "2", "-o",
                out,
            ])
            #expect(r.status == 0, "\(at): \(r.stderr)")
            let image = try PNGCodec.read(path: out)
            #expect(image.width == 200 && image.height == 200, "\(at)")
        }
        let bad = try Self.run([
            "still", LottieSupport.fixtures + "/ellipse.json", "--at", "150%", "-o",
            Self.temporary("x.png"),
        ])
        #expect(bad.status == 64 && bad.stderr.contains("--at"))
    }

    @Test func stillWorksOnFlipbookScenesToo() throws {
        let folder = Self.temporary("scene")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        canvas: { size: [20, 10], duration: 1, background: red }
        layers: []
        """.write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        let r = try Self.run([
            "still", folder + "/s.yaml", "--at", "50%", "--size", "40x40", "-o", folder + "/s.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.read(path: folder + "/s.png")
        // The background fills the whole requested size, bars included.
        #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 255))
    }

    /// The dotLottie and .tgs fixtures package `image_file.json` and a sticker: they load
    /// through the same reader, so their stills equal the JSON's.
    @Test func packagedFormatsOpen() throws {
        let packaged = try SceneFile.load(path: LottieSupport.fixtures + "/image_file.lottie")
        #expect(packaged.format == .lottie && !packaged.embeddedAssets.isEmpty)
        let a = try StillFrame.render(packaged, at: 0.5, size: (100, 100))
        let b = try StillFrame.render(
            try SceneFile.load(path: LottieSupport.fixtures + "/image_file.json"), at: 0.5,
            size: (100, 100))
        #expect(a == b)
        let sticker = try SceneFile.load(path: LottieSupport.fixtures + "/sticker.tgs")
        #expect(sticker.canvas.size.width == 512 && sticker.canvas.fps == 60)
    }

    @Test func unsupportedFeaturesWarnOncePerFileAndFailWithStrict() throws {
        let file = LottieSupport.fixtures + "/expression.json"
        let r = try Self.run(["validate", file])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("expressions"), "\(r.stderr)")
        let info = try Self.run(["info", file])
        #expect(info.stdout.contains("expressions"))
        let strict = try Self.run(["validate", "--strict", file])
        #expect(strict.status == 2 && strict.stderr.contains("--strict"), "\(strict.stderr)")
    }

    struct Broken: CustomStringConvertible, Sendable {
        var file: String
        var expected: [String]
        var description: String { file }
    }

    /// Each malformed file (Malformed/README.md says what is wrong) exits 2 naming the
    /// JSON path and what was expected.
    static let broken: [Broken] = [
        Broken(file: "missing_layers.json", expected: ["missing `layers`"]),
        Broken(file: "ip_not_before_op.json", expected: ["op:", "must be after the in point"]),
        Broken(file: "precomp_cycle.json", expected: ["refId", "contains itself"]),
        Broken(file: "huge_size.json", expected: ["neither side may exceed"]),
        Broken(file: "traversal_u.json", expected: ["leads outside the animation's folder"]),
        Broken(file: "traversal_p.json", expected: ["leads outside the animation's folder"]),
        Broken(
            file: "absolute_image_path.json", expected: ["leads outside the animation's folder"]),
        Broken(
            file: "precomp_bomb.json",
            expected: ["more than 10000 layers (precompositions expanded", "--max-layers"]),
    ]

    @Test(arguments: broken)
    func malformedFilesExitTwoWithTheirPath(_ b: Broken) throws {
        let r = try Self.run(["validate", LottieSupport.malformed + "/" + b.file])
        #expect(r.status == 2, "\(b.file): \(r.stderr)")
        for text in b.expected { #expect(r.stderr.contains(text), "\(b.file): \(r.stderr)") }
    }

    /// A Lottie file renders to a GIF like a scene: w×h at scale 1, `fr` fps, ip…op.
    @Test func rendersToGIF() throws {
        let out = Self.temporary("anim.gif")
        let r = try Self.run([
            "render", LottieSupport.fixtures + "/ellipse.json", "-o", out, "--jobs", "2",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let gif = try GIFReader.read(path: out)
        let scene = try SceneFile.load(path: LottieSupport.fixtures + "/ellipse.json")
        #expect(
            gif.width == Int(scene.canvas.size.width) && gif.height == Int(scene.canvas.size.height)
        )
        #expect(gif.delays.reduce(0, +) == Int((scene.canvas.duration * 100).rounded()))
    }

    @Test func resourceLimitsApply() throws {
        let r = try Self.run([
            "validate", "--max-path-elements", "3", LottieSupport.fixtures + "/path_animated.json",
        ])
        #expect(r.status == 2 && r.stderr.contains("--max-path-elements"), "\(r.stderr)")
    }
}
