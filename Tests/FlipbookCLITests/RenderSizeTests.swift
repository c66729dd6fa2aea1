import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// `render --size WxH`: every scene scaled uniformly to fit inside W×H and centred on
/// frames of exactly W×H, as `still --size` makes its picture.
@Suite struct RenderSizeTests {
    /// 20×10 pt, transparent, a blue square at the left end: fitted into 40×40 it is drawn
    /// at 2× (40×20 px) with 10 px of transparency above and below.
    static let wide = """
        version: 1
        canvas: { size: [20, 10], scale: 1, fps: 10, duration: 1, background: clear }
        layers:
          - { id: box, frame: [0, 0, 10, 10], backgroundColor: blue }
        animations:
          - { layer: box, keyPath: opacity, from: 1, to: 0.5, duration: 1 }
        """

    static func folder() throws -> String {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.wide, to: folder + "/wide.yaml")
        return folder
    }

    @Test func aWideSceneIsFittedAndCentredInTheSize() throws {
        let folder = try Self.folder()
        let outcome = try CLI.run(
            ["render", "wide.yaml", "--size", "40x40", "-o", "wide.gif"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let gif = try GIFReader.read(path: folder + "/wide.gif")
        #expect(gif.width == 40 && gif.height == 40)
        let first = gif.frames[0]
        // Above and below the fitted 40×20 canvas: transparent; the square spans x 0…19, y 10…29.
        for (x, y) in [(5, 5), (5, 34), (30, 15)] {
            #expect(first.pixel(x: x, y: y).a == 0, "(\(x), \(y))")
        }
        for (x, y) in [(0, 10), (19, 10), (0, 29), (19, 29)] {
            #expect(first.pixel(x: x, y: y) == (0, 0, 255, 255), "(\(x), \(y))")
        }
        #expect(first.pixel(x: 20, y: 20).a == 0 && first.pixel(x: 10, y: 9).a == 0)
    }

    /// The same pixels as `still --size`: both go through one fitting.
    @Test func framesEqualStillsOfTheSameSize() throws {
        let folder = try Self.folder()
        try CLI.write(
            Self.wide.replacingOccurrences(
                of: "background: clear", with: "background: \"#ffcc00\""),
            to: folder + "/filled.yaml")
        for scene in ["wide", "filled"] {
            let render = try CLI.run(
                [
                    "render", scene + ".yaml", "--size", "30x45", "--format", "png", "-o", scene,
                    "--frames", "5-5",
                ], in: folder)
            let still = try CLI.run(
                ["still", scene + ".yaml", "--size", "30x45", "--at", "5f", "-o", scene + ".png"],
                in: folder)
            #expect(render.status == 0 && still.status == 0, "\(render.stderr) \(still.stderr)")
            let frame = try PNGCodec.read(path: folder + "/\(scene)/frame-0005.png")
            #expect(frame.width == 30 && frame.height == 45)
            #expect(frame == (try PNGCodec.read(path: folder + "/\(scene).png")), "\(scene)")
        }
        // A background fills the bars too (30×15 px fitted, 15 px above).
        let filled = try PNGCodec.read(path: folder + "/filled/frame-0005.png")
        #expect(
            filled.pixel(x: 29, y: 0) == (255, 204, 0, 255)
                && filled.pixel(x: 29, y: 44) == (255, 204, 0, 255))
    }

    @Test func everySceneOfABatchGetsTheSizeAndTheSizeIsHashed() throws {
        let folder = try BatchRenderTests.sceneFolder()
        #expect(
            try CLI.run(["render", "scenes", "-o", "sized", "--size", "32x32"], in: folder).status
                == 0)
        for name in ["slide", "fade", "pictured"] {
            let gif = try GIFReader.read(path: folder + "/sized/\(name).gif")
            #expect(gif.width == 32 && gif.height == 32, "\(name)")
        }
        let other = try CLI.run(
            ["render", "scenes", "-o", "sized", "--size", "32x24", "--report", "r.json"], in: folder
        )
        #expect(other.status == 0)
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/r.json"))
                == ["fade": "rendered", "pictured": "rendered", "slide": "rendered"])
        // slide (40×30) fits 32×24 exactly; fade (30×20) is 32×21 inside.
        #expect(try GIFReader.read(path: folder + "/sized/slide.gif").height == 24)
        #expect(try GIFReader.read(path: folder + "/sized/fade.gif").height == 24)
    }

    @Test func aLottieFileRendersAtTheSizeAsked() throws {
        let lottie = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("FlipbookLottieTests/Fixtures/ellipse.json").path
        let folder = try CLI.temporaryFolder()
        let outcome = try CLI.run(
            ["render", lottie, "--size", "48x48", "-o", "ellipse.gif", "--frames", "0-5"],
            in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let gif = try GIFReader.read(path: folder + "/ellipse.gif")
        #expect(gif.width == 48 && gif.height == 48)
    }

    @Test(arguments: [
        ["--size", "40x40", "--scale", "2"], ["--size", "0x10"], ["--size", "40"],
        ["--size", "axb"],
        ["--size", "100000x10"],
    ])
    func badSizesAreUsageErrors(_ options: [String]) throws {
        let folder = try Self.folder()
        let outcome = try CLI.run(["render", "wide.yaml"] + options, in: folder)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("--size") || outcome.stderr.contains("--scale"),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/output"))
    }
}
