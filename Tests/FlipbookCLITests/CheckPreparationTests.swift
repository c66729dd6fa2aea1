import Foundation
import Testing

/// `check` prepares its scene as `render` does (one preparation path): the loader's options
/// (`--strict`, `--max-*`) apply, and the same warning line is printed.
@Suite struct CheckPreparationTests {
    /// A Lottie file with expressions, which Flipbook renders without.
    static let lottie = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("LottieCorpus/heart_fill.json").path

    static func warnings(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    }

    @Test func checkWarnsAsRenderDoes() throws {
        let folder = try CLI.temporaryFolder()
        let small = ["--frames", "0-0", "--scale", "0.25"]
        let check = try CLI.run(
            ["check", Self.lottie, "--golden", "g", "--record"] + small, in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        let render = try CLI.run(["render", Self.lottie, "-o", "r.gif", "-q"] + small, in: folder)
        #expect(render.status == 0, "\(render.stderr)")
        let warned = Self.warnings(check.stderr)
        #expect(warned.count == 1 && warned[0].contains("expressions"), "\(check.stderr)")
        #expect(warned == Self.warnings(render.stderr))
    }

    @Test func checkTakesTheLoaderOptionsAndLimits() throws {
        let folder = try CLI.temporaryFolder()
        let strict = try CLI.run(["check", Self.lottie, "--golden", "g", "--strict"], in: folder)
        #expect(
            strict.status == 2 && strict.stderr.contains("unsupported features (--strict)"),
            "\(strict.stderr)")
        let limited = try CLI.run(
            ["check", Self.lottie, "--golden", "g", "--max-frames", "1"], in: folder)
        #expect(limited.status == 2, "\(limited.stderr)")
        #expect(
            limited.stderr.contains("\(Self.lottie): the scene has")
                && limited.stderr.contains("over the limit of 1"),
            "\(limited.stderr)")
        // Nothing was recorded or compared.
        #expect(!FileManager.default.fileExists(atPath: folder + "/g"))
    }
}
