import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// `flipbook render` on folders and globs: outputs, summary, report, exit codes,
/// reproducible bytes, incremental skipping, contact sheets, shards and `assemble`.
@Suite struct BatchRenderTests {
    /// 1 s at 20 fps on a transparent canvas: semi-transparent shapes exercise alpha in
    /// PNG and GIF output.
    static let fading = """
        version: 1
        canvas: { size: [30, 20], scale: 1, fps: 20, duration: 1, background: clear }
        layers:
          - { id: dot, frame: [2, 2, 12, 12], cornerRadius: 6, backgroundColor: "#00ff0080" }
          - { id: bar, frame: [0, 15, 30, 5], backgroundColor: "#3366ffcc" }
        animations:
          - { layer: dot, keyPath: position.x, from: 8, to: 22, duration: 1, curve: easeInEaseOut }
          - { layer: bar, keyPath: opacity, from: 1, to: 0.2, duration: 1 }
        """

    /// A scene with an image asset (written by `writeAsset`).
    static let pictured = """
        version: 1
        canvas: { size: [24, 24], fps: 10, duration: 1 }
        assets: { tile: tile.png }
        layers:
          - { id: pic, frame: [0, 0, 12, 12], contents: tile }
        animations:
          - { layer: pic, keyPath: position.x, from: 6, to: 18, duration: 1 }
        """

    static func writeAsset(_ folder: String, red: UInt8) throws {
        var data = [UInt8]()
        for _ in 0..<(8 * 8) { data += [red, 80, 40, 255] }
        try PNGCodec.write(
            Pixmap(width: 8, height: 8, premultipliedRGBA: data), to: folder + "/tile.png")
    }

    /// scenes/ with three good scenes, one in a subfolder.
    static func sceneFolder() throws -> String {
        let folder = try CLI.temporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder + "/scenes/more", withIntermediateDirectories: true)
        try CLI.write(RenderCommandTests.sliding, to: folder + "/scenes/slide.yaml")
        try CLI.write(fading, to: folder + "/scenes/more/fade.yml")
        try CLI.write(pictured, to: folder + "/scenes/pictured.yaml")
        try writeAsset(folder + "/scenes", red: 200)
        try CLI.write("not a scene, not listed", to: folder + "/scenes/notes.txt")
        return folder
    }

    static func files(in folder: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDir),
                !isDir.boolValue
            {
                out[name] = try FileIO.readAll(path: folder + "/" + name)
            }
        }
        return out
    }

    static func report(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func statuses(_ report: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for scene in report["scenes"] as! [[String: Any]] {
            out[scene["name"] as! String] = scene["status"] as? String
        }
        return out
    }

    @Test func aFolderRendersEveryScene() throws {
        let folder = try Self.sceneFolder()
        let outcome = try CLI.run(
            ["render", "scenes", "--jobs", "2", "--report", "out/report.json"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for name in ["slide", "fade", "pictured"] {
            let gif = try GIFReader.read(path: folder + "/output/\(name).gif")
            #expect(gif.frames.count > 0)
        }
        #expect(try GIFReader.read(path: folder + "/output/slide.gif").delays.reduce(0, +) == 400)
        // Summary: a line per scene with frames and size.
        #expect(outcome.stdout.contains("3 scenes: 3 rendered"), "\(outcome.stdout)")
        let size = try FileIO.readAll(path: folder + "/output/slide.gif").count
        let line =
            outcome.stdout.split(separator: "\n").first { $0.hasPrefix("slide ") }.map(String.init)
            ?? ""
        let fields = line.split(separator: " ").map(String.init)
        #expect(
            fields.prefix(3) == ["slide", "rendered", "120"] && fields.last == "output/slide.gif",
            "\(outcome.stdout)")
        #expect(
            line.contains(
                size < 10_000 ? "\(size) B" : String(format: "%.1f KB", Double(size) / 1000)),
            "\(line)")
        let report = try Self.report(folder + "/out/report.json")
        #expect(report["exitCode"] as? Int == 0)
        let scenes = report["scenes"] as! [[String: Any]]
        #expect(scenes.map { $0["name"] as! String } == ["fade", "pictured", "slide"])
        let slide = scenes[2]
        #expect(slide["frames"] as? Int == 120)
        #expect(
            slide["bytes"] as? Int == (try FileIO.readAll(path: folder + "/output/slide.gif")).count
        )
        #expect((slide["outputs"] as? [String]) == ["output/slide.gif"])
    }

    @Test func globsAndOutputFolderAndPNGFormat() throws {
        let folder = try Self.sceneFolder()
        let outcome = try CLI.run(
            ["render", "scenes/*.yaml", "-o", "frames", "--format", "png"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // The glob takes scenes/*.yaml only (not the .yml one in more/).
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        // Nothing beside the folders: the content hash is inside every frame.
        #expect(names == ["pictured", "slide"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/frames/slide").count
                == 120)
        let empty = try CLI.run(["render", "nothing/*.yaml"], in: folder)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("nothing/*.yaml: no scene files match"))
    }

    @Test func oneBadSceneDoesNotStopTheOthers() throws {
        let folder = try Self.sceneFolder()
        try CLI.write(
            """
            version: 1
            canvas: { size: [40, 30] }
            layers:
              - id: card
                opactiy: 0.5
            """, to: folder + "/scenes/broken.yaml")
        let outcome = try CLI.run(["render", "scenes", "--report", "report.json"], in: folder)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("broken.yaml:5:5"), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("invalid scenes/broken.yaml"), "\(outcome.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder + "/output/slide.gif"))
        #expect(FileManager.default.fileExists(atPath: folder + "/output/fade.gif"))
        let report = try Self.report(folder + "/report.json")
        #expect(report["exitCode"] as? Int == 2)
        #expect(
            Self.statuses(report) == [
                "broken": "invalid", "slide": "rendered", "fade": "rendered",
                "pictured": "rendered",
            ])
        let broken = (report["scenes"] as! [[String: Any]]).first {
            $0["name"] as? String == "broken"
        }!
        #expect((broken["reason"] as? String)?.contains("did you mean `opacity`?") == true)

        // A scene that cannot render the asked frames fails (exit 1); the others render.
        try FileManager.default.removeItem(atPath: folder + "/scenes/broken.yaml")
        let partly = try CLI.run(
            ["render", "scenes", "--frames", "25-40", "-o", "partly", "--report", "r2.json"],
            in: folder)
        #expect(partly.status == 1, "\(partly.stderr)")
        #expect(
            Self.statuses(try Self.report(folder + "/r2.json")) == [
                "fade": "failed", "pictured": "failed", "slide": "rendered",
            ])
        #expect(
            partly.stdout.contains(
                "FAILED scenes/more/fade.yml: --frames 25-40: the scene has frames 0-19"),
            "\(partly.stdout)")
        #expect(try GIFReader.read(path: folder + "/partly/slide.gif").frames.count == 16)
    }

    /// The same scenes and options give the same bytes with one job or many, GIF and PNG.
    @Test(arguments: ["gif", "png"])
    func sameBytesWithOneJobOrMany(format: String) throws {
        let folder = try Self.sceneFolder()
        for jobs in ["1", "4"] {
            let outcome = try CLI.run(
                [
                    "render", "scenes", "--format", format, "--contact-sheet", "-o", "jobs" + jobs,
                    "--jobs", jobs,
                ], in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let one = try Self.files(in: folder + "/jobs1"),
            many = try Self.files(in: folder + "/jobs4")
        // A GIF or a frame folder and a sheet per scene, nothing else (no hash files).
        #expect(one.count == (format == "gif" ? 3 * 2 : 3 + 120 + 20 + 10))
        #expect(one.keys.sorted() == many.keys.sorted())
        for (name, bytes) in one { #expect(bytes == many[name], "\(name) differs") }
        // And the same as rendering each scene alone.
        let alone = try CLI.run(
            ["render", "scenes/more/fade.yml", "--format", format, "-o", "alone", "--jobs", "3"],
            in: folder)
        #expect(alone.status == 0)
        if format == "gif" {
            #expect(try FileIO.readAll(path: folder + "/alone") == one["fade.gif"])
        } else {
            #expect(
                try FileIO.readAll(path: folder + "/alone/frame-0007.png")
                    == one["fade/frame-0007.png"])
        }
    }

    @Test func upToDateScenesAreSkipped() throws {
        let folder = try Self.sceneFolder()
        #expect(try CLI.run(["render", "scenes"], in: folder).status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/output").sorted()
                == ["fade.gif", "pictured.gif", "slide.gif"])
        let before =
            try FileManager.default.attributesOfItem(atPath: folder + "/output/slide.gif")[
                .modificationDate] as! Date

        let second = try CLI.run(["render", "scenes", "--report", "r.json"], in: folder)
        #expect(second.status == 0)
        #expect(second.stdout.contains("output/slide.gif: up to date, skipped"), "\(second.stdout)")
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "skipped", "pictured": "skipped", "slide": "skipped",
            ])
        let after =
            try FileManager.default.attributesOfItem(atPath: folder + "/output/slide.gif")[
                .modificationDate] as! Date
        #expect(before == after)

        // Touching a scene's bytes, an asset, or an option renders again; --force always.
        try CLI.write(Self.fading + "\n# edited\n", to: folder + "/scenes/more/fade.yml")
        try Self.writeAsset(folder + "/scenes", red: 10)
        let third = try CLI.run(["render", "scenes", "--report", "r.json"], in: folder)
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "rendered", "pictured": "rendered", "slide": "skipped",
            ])
        #expect(third.status == 0)
        _ = try CLI.run(["render", "scenes", "--scale", "2", "--report", "r.json"], in: folder)
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "rendered", "pictured": "rendered", "slide": "rendered",
            ])
        _ = try CLI.run(
            ["render", "scenes", "--scale", "2", "--force", "--report", "r.json"], in: folder)
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "rendered", "pictured": "rendered", "slide": "rendered",
            ])
        // A deleted output is rendered again.
        try FileManager.default.removeItem(atPath: folder + "/output/slide.gif")
        _ = try CLI.run(["render", "scenes", "--scale", "2", "--report", "r.json"], in: folder)
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "skipped", "pictured": "skipped", "slide": "rendered",
            ])
    }

    @Test func contactSheetShowsTwelveFramesInAGrid() throws {
        let folder = try Self.sceneFolder()
        let outcome = try CLI.run(
            ["render", "scenes/slide.yaml", "--contact-sheet", "--scale", "2"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let sheet = try PNGCodec.read(path: folder + "/output/slide-sheet.png")
        // 80×60 px frames: factor 1; cells 90 + 16 wide, 60 + 18 + 16 tall; 4 × 3 grid under a 26 px title.
        #expect(sheet.width == 4 * 106 && sheet.height == 26 + 3 * 94)
        // The first thumbnail is frame 0 itself (white canvas, box at x = 0…10 pt → red at 2×).
        let first = try PNGCodec.read(path: folder + "/output/slide-sheet.png")
        let x0 = (106 - 80) / 2, y0 = 26 + 8
        #expect(
            first.pixel(x: x0 + 2, y: y0 + 30).r == 255 && first.pixel(x: x0 + 2, y: y0 + 30).g == 0
        )
        #expect(first.pixel(x: x0 + 70, y: y0 + 30) == (255, 255, 255, 255))
        // Labels: dark text pixels in the strip under each thumbnail.
        func darkPixels(row0: Int, rows: Int, col: Int) -> Int {
            var n = 0
            for y in row0..<(row0 + rows) {
                for x in (col * 106)..<(col * 106 + 106) where sheet.pixel(x: x, y: y).r < 100 {
                    n += 1
                }
            }
            return n
        }
        for cell in 0..<12 {
            #expect(
                darkPixels(row0: 26 + (cell / 4) * 94 + 8 + 60, rows: 18, col: cell % 4) > 20,
                "label \(cell)")
        }
        // The frames are evenly spaced: the last cell is the last frame, whose box sits at the right.
        let lx = 3 * 106 + x0, ly = 26 + 2 * 94 + 8
        #expect(
            sheet.pixel(x: lx + 75, y: ly + 30).b > 200
                && sheet.pixel(x: lx + 2, y: ly + 30) == (255, 255, 255, 255))
    }

    /// Two shards into one folder, assembled, equal one machine's GIF byte for byte; the
    /// long scene is split between the shards.
    /// At 60 fps the GIF drops frames (delays ≥ 2 cs): assemble must pick the same ones.
    @Test(arguments: [[], ["--fps", "60"]])
    func shardsAssembleToTheOneMachineGIF(extra: [String]) throws {
        let folder = try Self.sceneFolder()
        #expect(
            try CLI.run(
                ["render", "scenes", "-o", "direct", "--contact-sheet"] + extra, in: folder
            ).status == 0)
        var ranges: [String: [String]] = [:]
        for shard in ["1/2", "2/2"] {
            let outcome = try CLI.run(
                [
                    "render", "scenes", "-o", "shared", "--contact-sheet", "--shard", shard,
                    "--report", "r.json",
                ] + extra, in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            for scene in try Self.report(folder + "/r.json")["scenes"] as! [[String: Any]] {
                ranges[scene["name"] as! String, default: []] +=
                    scene["frameRanges"] as? [String] ?? []
            }
        }
        // slide has 120 frames > 60: split in two contiguous halves, one per shard.
        if extra.isEmpty {
            #expect(ranges["slide"]?.sorted() == ["0-59", "60-119"])
            #expect(ranges["fade"] == ["0-19"] && ranges["pictured"] == ["0-9"])
        } else {
            #expect(ranges["slide"]?.sorted() == ["0-119", "120-239"])
            #expect(ranges["fade"] == ["0-59"])  // 60 frames: not above the split threshold
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/shared/slide.gif"))
        let assembled = try CLI.run(["assemble", "shared"], in: folder)
        #expect(assembled.status == 0, "\(assembled.stderr)")
        #expect(assembled.stdout.contains("3 scenes: 3 rendered"), "\(assembled.stdout)")
        for name in ["slide.gif", "fade.gif", "pictured.gif", "slide-sheet.png", "fade-sheet.png"] {
            let a = try FileIO.readAll(path: folder + "/shared/" + name)
            #expect(a == (try FileIO.readAll(path: folder + "/direct/" + name)), "\(name) differs")
        }
        // The assembled GIF carries the hash: an unsharded render now skips it.
        let again = try CLI.run(
            ["render", "scenes", "-o", "shared", "--contact-sheet", "--report", "r.json"] + extra,
            in: folder)
        #expect(again.status == 0)
        #expect(
            Self.statuses(try Self.report(folder + "/r.json")) == [
                "fade": "skipped", "pictured": "skipped", "slide": "skipped",
            ])
        let reassembled = try CLI.run(["assemble", "shared", "--remove-frames"], in: folder)
        #expect(reassembled.stdout.contains("3 scenes: 3 skipped"), "\(reassembled.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/shared/slide.frames"))
    }

    @Test func assembleRefusesMissingFrames() throws {
        let folder = try Self.sceneFolder()
        #expect(
            try CLI.run(["render", "scenes", "-o", "shared", "--shard", "1/2"], in: folder).status
                == 0)
        let outcome = try CLI.run(["assemble", "shared"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("frames missing"), "\(outcome.stderr)")
    }

    @Test func shardFromCIEnvironment() throws {
        let folder = try Self.sceneFolder()
        // GitLab: CI_NODE_INDEX is 1-based; a Kubernetes Indexed Job's JOB_COMPLETION_INDEX is 0-based.
        let gitlab = try CLI.run(
            ["render", "scenes", "-o", "a", "--report", "a.json"], in: folder,
            environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"])
        let k8s = try CLI.run(
            ["render", "scenes", "-o", "b", "--report", "b.json"], in: folder,
            environment: ["JOB_COMPLETION_INDEX": "1", "FLIPBOOK_SHARD_TOTAL": "2"])
        #expect(gitlab.status == 0 && k8s.status == 0, "\(gitlab.stderr) \(k8s.stderr)")
        #expect(try Self.report(folder + "/a.json")["shard"] as? String == "2/2")
        #expect(try Self.report(folder + "/b.json")["shard"] as? String == "2/2")
        let bad = try CLI.run(
            ["render", "scenes"], in: folder, environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(bad.status == 64)
    }

    @Test(arguments: [["--shard", "0/2"], ["--shard", "3/2"], ["--shard", "x"]])
    func badShardIsAUsageError(_ options: [String]) throws {
        #expect(try CLI.run(["render", "scenes"] + options).status == 64)
    }
}
