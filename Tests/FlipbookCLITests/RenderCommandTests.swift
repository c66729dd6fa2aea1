import Foundation
import Testing
import FlipbookCodecs

/// End-to-end: the `flipbook` executable on small scenes, checked on exit codes, files,
/// and decoded output.
@Suite struct RenderCommandTests {
    /// 4 s at 30 fps on a small canvas: 120 frames; a square slides and changes color so
    /// that every frame differs.
    static let sliding = """
        version: 1
        canvas: { size: [40, 30], scale: 1, fps: 30, duration: 4, background: white }
        layers:
          - { id: box, frame: [0, 10, 10, 10], backgroundColor: red }
        animations:
          - layer: box
            keyPath: position.x
            from: 5
            to: 35
            duration: 4
            curve: linear
          - layer: box
            keyPath: backgroundColor
            from: red
            to: blue
            duration: 4
            curve: linear
        """

    @Test func gifPlaysExactlyTheScenesDuration() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.sliding, to: folder + "/slide.yaml")
        let outcome = try CLI.run(["render", "slide.yaml", "--jobs", "2"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Default output: output/<scene name>.gif beside the working folder.
        let gif = try GIFReader.read(path: folder + "/output/slide.gif")
        #expect(gif.width == 40 && gif.height == 30)
        #expect(gif.loopCount == 0)
        #expect(gif.delays.reduce(0, +) == 400)
        #expect(gif.delays.allSatisfy { $0 >= 2 })
        #expect(Array(gif.delays.prefix(6)) == [3, 3, 4, 3, 3, 4])
        let bytes = try FileIO.readAll(path: folder + "/output/slide.gif")
        #expect(Array(bytes.prefix(6)) == Array("GIF89a".utf8))
        #expect(outcome.stdout.contains("120 frames"))
    }

    @Test func pngFramesAreNumberedByFrameIndexAtCanvasTimesScale() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.sliding, to: folder + "/slide.yaml")
        let outcome = try CLI.run(
            [
                "render", "slide.yaml", "--format", "png", "-o", "frames", "--frames", "3-5",
                "--scale", "2",
            ], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(names == ["frame-0003.png", "frame-0004.png", "frame-0005.png"])
        let frame = try PNGCodec.read(path: folder + "/frames/frame-0003.png")
        #expect(frame.width == 80 && frame.height == 60)
        // t = 3/30 = 0.1 s: the box's center is at x = 5 + 30·0.1/4 = 5.75 pt, so its left
        // edge is at 0.75 pt → 1.5 px, rounded (snap: round) to 2 px at 2×.
        #expect(frame.pixel(x: 1, y: 30).r == 255 && frame.pixel(x: 1, y: 30).g == 255)
        #expect(frame.pixel(x: 2, y: 30).g == 0 && frame.pixel(x: 2, y: 30).a == 255)
    }

    @Test func sameBytesWithOneJobOrMany() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.sliding, to: folder + "/slide.yaml")
        #expect(
            try CLI.run(["render", "slide.yaml", "-o", "one.gif", "--jobs", "1"], in: folder).status
                == 0)
        #expect(
            try CLI.run(["render", "slide.yaml", "-o", "many.gif", "--jobs", "4"], in: folder)
                .status == 0)
        let one = try FileIO.readAll(path: folder + "/one.gif")
        #expect(one == (try FileIO.readAll(path: folder + "/many.gif")))
    }

    @Test func sceneErrorsExitTwoNamingFileLineAndKey() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(
            """
            version: 1
            canvas: { size: [40, 30] }
            layers:
              - id: card
                opactiy: 0.5
            """, to: folder + "/bad.yaml")
        for command in ["render", "validate", "info"] {
            let outcome = try CLI.run([command, "bad.yaml"], in: folder)
            #expect(outcome.status == 2, "\(command)")
            #expect(outcome.stderr.contains("bad.yaml:5:5"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("did you mean `opacity`?"), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/output/bad.gif"))
    }

    /// A font file that exists but is not a font is refused before rendering, naming the
    /// layer and FreeType's verdict.
    @Test func unusableFontIsASceneError() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write("not a font", to: folder + "/broken.ttf")
        try CLI.write(
            """
            canvas: { size: [100, 50] }
            layers:
              - { id: label, frame: [0, 0, 100, 50], text: { string: hi, font: broken.ttf } }
            """, to: folder + "/text.yaml")
        for command in ["validate", "render"] {
            let outcome = try CLI.run([command, "text.yaml"], in: folder)
            #expect(outcome.status == 2, "\(command)")
            #expect(
                outcome.stderr.contains("text layer `label`: FreeType cannot open the font file"),
                "\(outcome.stderr)")
        }
    }

    @Test func missingSceneFileExitsTwo() throws {
        let outcome = try CLI.run(["render", "/nonexistent/scene.yaml"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("/nonexistent/scene.yaml"))
    }

    @Test(arguments: [
        ["--scale", "0"], ["--fps", "-1"], ["--jobs", "0"], ["--frames", "9-3"],
        ["--format", "bmp"], ["--lossy", "101"], ["--lossy", "-1"], ["--quality", "0"],
    ])
    func badOptionsAreUsageErrors(_ options: [String]) throws {
        let outcome = try CLI.run(["render", "scene.yaml"] + options)
        #expect(outcome.status == 64, "\(options): \(outcome.stderr)")
    }

    @Test func validateAndInfoDescribeAGoodScene() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.sliding, to: folder + "/slide.yaml")
        let validate = try CLI.run(["validate", "slide.yaml"], in: folder)
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("valid"))
        let info = try CLI.run(["info", "slide.yaml", "--scale", "3"], in: folder)
        #expect(info.status == 0)
        #expect(info.stdout.contains("120 at 30 fps"))
        #expect(info.stdout.contains("120×90 px at 3×"))
        #expect(info.stdout.contains("box"))
    }

    @Test func aFailedRenderLeavesTheEarlierOutputAlone() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.sliding, to: folder + "/slide.yaml")
        #expect(try CLI.run(["render", "slide.yaml", "-o", "keep.gif"], in: folder).status == 0)
        let before = try FileIO.readAll(path: folder + "/keep.gif")
        // Frames past the end: refused before anything is written.
        #expect(
            try CLI.run(
                ["render", "slide.yaml", "-o", "keep.gif", "--frames", "500-600"], in: folder
            ).status == 1)
        #expect(try FileIO.readAll(path: folder + "/keep.gif") == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }
}
