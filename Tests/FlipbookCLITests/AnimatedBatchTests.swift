import Foundation
import Testing
import FlipbookCodecs

/// APNG and WebP through the batch paths: folders, contact sheets named after the output,
/// shards and `assemble` (byte for byte the one-machine file), and `--max-size` (lossy WebP
/// searches its quality; exact formats are refused when too large).
@Suite struct AnimatedBatchTests {
    /// Two shards into one folder, assembled, equal one machine's APNG or WebP byte for byte
    /// (contact sheets too); then an unsharded render sees them as up to date.
    @Test(arguments: [
        ["--format", "apng"], ["--format", "webp"], ["--format", "webp", "--lossless"],
    ])
    func shardsAssembleToTheOneMachineFile(format: [String]) throws {
        let folder = try BatchRenderTests.sceneFolder()
        let ext = format[1] == "apng" ? ".png" : ".webp"
        let direct = try CLI.run(
            ["render", "scenes", "-o", "direct", "--contact-sheet"] + format, in: folder)
        #expect(direct.status == 0, "\(direct.stderr)")
        for shard in ["1/2", "2/2"] {
            let outcome = try CLI.run(
                ["render", "scenes", "-o", "shared", "--contact-sheet", "--shard", shard] + format,
                in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/shared/slide" + ext))
        let manifest = try BatchRenderTests.report(folder + "/shared/slide.frames/manifest.json")
        #expect(manifest["format"] as? String == format[1])
        #expect(
            manifest["lossless"] as? Bool
                == (format.contains("--lossless") ? true : format[1] == "webp" ? false : nil))
        let assembled = try CLI.run(["assemble", "shared"], in: folder)
        #expect(assembled.status == 0, "\(assembled.stderr)")
        #expect(assembled.stdout.contains("3 scenes: 3 rendered"), "\(assembled.stdout)")
        for name in [
            "slide" + ext, "fade" + ext, "pictured" + ext, "slide-sheet.png", "fade-sheet.png",
        ] {
            let a = try FileIO.readAll(path: folder + "/shared/" + name)
            #expect(a == (try FileIO.readAll(path: folder + "/direct/" + name)), "\(name) differs")
        }
        let again = try CLI.run(
            ["render", "scenes", "-o", "shared", "--contact-sheet", "--report", "r.json"] + format,
            in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/r.json"))
                == ["fade": "skipped", "pictured": "skipped", "slide": "skipped"])
    }

    /// A folder rendered to APNG: each scene's x.png is animated, its sheet x-sheet.png, and
    /// the report names both.
    @Test func aFolderToAPNGNamesOutputsAndSheets() throws {
        let folder = try BatchRenderTests.sceneFolder()
        let run = try CLI.run(
            [
                "render", "scenes", "--format", "apng", "-o", "out", "--contact-sheet",
                "--report", "r.json",
            ], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(APNGReader.isAnimated(try FileIO.readAll(path: folder + "/out/slide.png")))
        let scenes = try BatchRenderTests.report(folder + "/r.json")["scenes"] as! [[String: Any]]
        let slide = scenes.first { $0["name"] as? String == "slide" }
        #expect(slide?["outputs"] as? [String] == ["out/slide.png", "out/slide-sheet.png"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/slide.png-sheet.png"))
    }

    /// Above 90 fps an APNG drops the frames browsers would slow to 100 ms (APNGTiming), and
    /// a batch renders only the frames it keeps: 120 fps for 0.5 s is 30 frames of 1/60 s,
    /// as one file and as a folder, the same bytes. At 60 fps every frame is kept, 1/60 s
    /// each (before, 50 fps was the limit, as for GIF; and the batch counted all frames).
    @Test(arguments: [(120, 30, 1000), (60, 30, 60)])
    func apngKeepsTheFramesBrowsersShow(fps: Int, frames: Int, denominator: Int) throws {
        let folder = try CLI.temporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder + "/scenes", withIntermediateDirectories: true)
        let scene = BatchRenderTests.fading.replacingOccurrences(of: "fps: 20", with: "fps: \(fps)")
            .replacingOccurrences(of: "duration: 1", with: "duration: 0.5")
        try CLI.write(scene, to: folder + "/scenes/fade.yaml")
        let batch = try CLI.run(["render", "scenes", "--format", "apng", "-o", "out"], in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect((batch.stdout + batch.stderr).contains("fade: rendering \(frames) frames"))
        let single = try CLI.run(["render", "scenes/fade.yaml", "-o", "one.png"], in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        let bytes = try FileIO.readAll(path: folder + "/one.png")
        #expect(bytes == (try FileIO.readAll(path: folder + "/out/fade.png")))
        let decoded = try APNGReader.decode(bytes)
        #expect(decoded.frames.count == frames)
        let ms = 1000 / (fps == 120 ? 60 : fps)
        #expect(decoded.delays.allSatisfy { $0.denominator == denominator })
        #expect(decoded.millisecondDelays.allSatisfy { abs($0 - ms) <= 1 })
        #expect(decoded.millisecondDelays.reduce(0, +) == 500)
    }

    @Test(arguments: ["x.png", "x.webp", "x.gif"])
    func aSingleSceneSheetDropsTheExtension(output: String) throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(BatchRenderTests.fading, to: folder + "/fade.yaml")
        let run = try CLI.run(["render", "fade.yaml", "-o", output, "--contact-sheet"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                == ["fade.yaml", output, "x-sheet.png"].sorted())
    }

    /// Lossy WebP under a budget between its quality-1 and its default size: the best
    /// quality that fits; below its quality-1 size: exit 1, nothing written, that size named.
    @Test func lossyWebPSearchesItsQualityToFit() throws {
        let folder = try MaxSizeTests.folder()
        #expect(try CLI.run(["render", "pan.yaml", "-o", "full.webp"], in: folder).status == 0)
        #expect(
            try CLI.run(["render", "pan.yaml", "-o", "low.webp", "--quality", "1"], in: folder)
                .status == 0)
        let full = try FileIO.readAll(path: folder + "/full.webp").count
        let low = try FileIO.readAll(path: folder + "/low.webp").count
        let budget = (full + low) / 2
        let run = try CLI.run(
            ["render", "pan.yaml", "-o", "fit.webp", "--max-size", "\(budget)"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let fit = try FileIO.readAll(path: folder + "/fit.webp")
        // Lossy WebP's size falls with quality only roughly (each frame chooses VP8 or
        // near-lossless at each quality), so the fit is under the budget, not above quality 1's.
        #expect(
            fit.count <= budget && full > budget,
            "\(fit.count) bytes for \(budget) (\(low)…\(full))")
        // libwebp merges a frame into the one before when it is within the quality's
        // tolerance of it, so a lower quality may hold fewer frames: the timing is the same.
        let fitted = try WebPAnimationReader.decode(fit)
        let whole = try WebPAnimationReader.decode(FileIO.readAll(path: folder + "/full.webp"))
        #expect(fitted.frames.count <= 60 && fitted.frames.count > 1)
        #expect(fitted.durations.reduce(0, +) == whole.durations.reduce(0, +))
        let refused = try CLI.run(
            ["render", "pan.yaml", "-o", "no.webp", "--max-size", "1000"], in: folder)
        #expect(refused.status == 1)
        let reached = refused.stderr.split(separator: " ").drop {
            $0 != "reached"
        }.dropFirst(2).first.flatMap { Int($0) }
        #expect(
            refused.stderr.contains("the smallest WebP reached was ")
                && (reached ?? .max) <= low && (reached ?? 0) > 1000,
            "\(refused.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                == ["fit.webp", "full.webp", "low.webp", "pan.yaml"])
    }

    /// Exact formats keep their pixels: too large is exit 1, nothing written, the size named;
    /// a budget they fit writes the same bytes as no budget.
    @Test(arguments: [["-o", "x.png"], ["-o", "x.webp", "--lossless"]])
    func exactFormatsAreRefusedWhenTooLarge(output: [String]) throws {
        let folder = try MaxSizeTests.folder()
        let refused = try CLI.run(["render", "pan.yaml", "--max-size", "1K"] + output, in: folder)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("cannot fit in --max-size 1024 bytes: the ")
                && refused.stderr.contains("its pixels are exact"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pan.yaml"])
        #expect(try CLI.run(["render", "pan.yaml"] + output, in: folder).status == 0)
        let plain = try FileIO.readAll(
            path: folder + "/x" + (output[1] == "x.png" ? ".png" : ".webp"))
        let fits = try CLI.run(
            ["render", "pan.yaml", "--force", "--max-size", "\(plain.count)"] + output, in: folder)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(try FileIO.readAll(path: folder + "/" + output[1]).count == plain.count)
    }

    @Test func maxSizeOfPNGFramesIsAUsageError() throws {
        let folder = try MaxSizeTests.folder()
        let run = try CLI.run(
            ["render", "pan.yaml", "--format", "png", "-o", "frames", "--max-size", "10K"],
            in: folder)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--max-size: PNG frames"), "\(run.stderr)")
    }

    /// Shards of a lossless WebP with a budget it cannot meet: `assemble` fails (exit 1)
    /// naming the size, and writes no WebP.
    @Test func assembleHonoursTheBudget() throws {
        let folder = try BatchRenderTests.sceneFolder()
        for shard in ["1/2", "2/2"] {
            let run = try CLI.run(
                [
                    "render", "scenes", "-o", "shared", "--format", "webp", "--lossless",
                    "--max-size", "100",
                    "--shard", shard,
                ], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let assembled = try CLI.run(["assemble", "shared"], in: folder)
        #expect(assembled.status == 1)
        #expect(
            assembled.stderr.contains("cannot fit in --max-size 100 bytes"), "\(assembled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/shared/slide.webp"))
    }
}
