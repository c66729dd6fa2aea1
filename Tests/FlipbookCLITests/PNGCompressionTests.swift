import Foundation
import Testing
import FlipbookCodecs

/// `--png-compression`: every setting writes the same pixels; the settings trade size;
/// a changed setting makes an up-to-date PNG folder render again.
@Suite struct PNGCompressionTests {
    @Test func settingsWriteTheSamePixels() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        var sizes: [String: Int] = [:]
        var decoded: [String: [[UInt8]]] = [:]
        for setting in ["fast", "default", "small"] {
            let run = try CLI.run(
                [
                    "render", "fade.yaml", "--format", "png", "-o", setting, "--png-compression",
                    setting,
                    "--jobs", "2",
                ], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let files = try BatchRenderTests.files(in: folder + "/" + setting)
            #expect(files.count == 20)
            sizes[setting] = files.values.reduce(0) { $0 + $1.count }
            decoded[setting] = try files.keys.sorted().map { try PNGCodec.decode(files[$0]!).data }
        }
        #expect(decoded["fast"] == decoded["default"])
        #expect(decoded["small"] == decoded["default"])
        #expect(sizes["small"]! <= sizes["default"]!, "\(sizes)")

        // The default is not hashed (old hashes stay valid); another setting is.
        let again = try CLI.run(
            ["render", "fade.yaml", "--format", "png", "-o", "default"], in: folder)
        #expect(again.stdout.contains("up to date"), "\(again.stdout)")
        let changed = try CLI.run(
            [
                "render", "fade.yaml", "--format", "png", "-o", "default", "--png-compression",
                "small",
            ],
            in: folder)
        #expect(!changed.stdout.contains("up to date"), "\(changed.stdout)")
    }

    @Test func unknownSettingIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        let run = try CLI.run(
            ["render", "fade.yaml", "--format", "png", "--png-compression", "tiny"], in: folder)
        #expect(run.status == 64)
        #expect(run.stderr.contains("tiny"), "\(run.stderr)")
    }
}
