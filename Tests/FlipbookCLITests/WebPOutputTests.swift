import Foundation
import Testing
import FlipbookCodecs

/// `flipbook render -o x.webp`, `--format webp` and `--lossless`, and `flipbook diff`
/// reading the animated WebP back.
@Suite struct WebPOutputTests {
    static func decodeWebP(_ path: String) throws -> WebPAnimationDecoded {
        try WebPAnimationReader.decode(FileIO.readAll(path: path))
    }

    @Test func outputNamedWebPIsAnAnimatedWebP() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        let run = try CLI.run(
            ["render", "fade.yaml", "-o", "fade.webp", "--jobs", "2"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let decoded = try Self.decodeWebP(folder + "/fade.webp")
        #expect(decoded.width == 30 && decoded.height == 20 && decoded.loopCount == 0)
        #expect(decoded.frames.count == 20 && decoded.durations == Array(repeating: 50, count: 20))

        // Up to date until an option that changes the bytes changes.
        let again = try CLI.run(["render", "fade.yaml", "-o", "fade.webp"], in: folder)
        #expect(again.status == 0 && again.stdout.contains("up to date"), "\(again.stdout)")
        let changed = try CLI.run(
            ["render", "fade.yaml", "-o", "fade.webp", "--quality", "60"], in: folder)
        #expect(changed.status == 0 && !changed.stdout.contains("up to date"), "\(changed.stdout)")
    }

    @Test func explicitFormatAndLosslessMatchThePNGFrames() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        let png = try CLI.run(
            ["render", "fade.yaml", "--format", "png", "-o", "frames"], in: folder)
        #expect(png.status == 0, "\(png.stderr)")
        let webp = try CLI.run(
            ["render", "fade.yaml", "--format", "webp", "--lossless", "-o", "exact"], in: folder)
        #expect(webp.status == 0, "\(webp.stderr)")
        let decoded = try Self.decodeWebP(folder + "/exact")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(
            decoded.frames.map(\.data)
                == names.map { try? PNGCodec.read(path: folder + "/frames/" + $0).data })

        // diff reads the WebP: the same frames pass, another scene's do not.
        let same = try CLI.run(["diff", "exact", "frames"], in: folder)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        try CLI.write(
            BatchRenderTests.fading.replacingOccurrences(of: "#00ff0080", with: "#ff000080"),
            to: folder + "/red.yaml")
        #expect(
            try CLI.run(["render", "red.yaml", "-o", "red.webp", "--lossless"], in: folder).status
                == 0)
        let different = try CLI.run(["diff", "exact", "red.webp"], in: folder)
        #expect(different.status == 1, "\(different.stdout)\(different.stderr)")
        // Paired by time: sampled at 20 fps, the WebP's 50 ms frames give one frame per PNG
        // (read as centiseconds they would give ten).
        let timed = try CLI.run(["diff", "exact", "frames", "--fps", "20"], in: folder)
        #expect(timed.status == 0, "\(timed.stdout)\(timed.stderr)")
    }

    @Test func badInputsExitWithUsageErrors() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        let quality = try CLI.run(
            ["render", "fade.yaml", "-o", "x.webp", "--quality", "0"], in: folder)
        #expect(quality.status == 64 && quality.stderr.contains("--quality"), "\(quality.stderr)")
        try CLI.write("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ", to: folder + "/broken.webp")
        let broken = try CLI.run(["diff", "broken.webp", "broken.webp"], in: folder)
        #expect(broken.status == 2 && broken.stderr.contains("broken.webp"), "\(broken.stderr)")
    }
}
