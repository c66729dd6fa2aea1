import Foundation
import Testing
import FlipbookCodecs

/// `render`'s outputs named the way users type them (issue 25): the table of `-o` names
/// and `--format`, checked on files, decoded pixels and exit codes.
@Suite struct OutputNamingTests {
    /// 1 s at 10 fps on a transparent canvas: a box that slides and fades (semi-transparent
    /// pixels over nothing), so every frame differs.
    static let scene = """
        version: 1
        canvas: { size: [40, 30], scale: 1, fps: 10, duration: 1 }
        layers:
          - { id: box, frame: [0, 10, 10, 10], backgroundColor: red }
        animations:
          - { layer: box, keyPath: position.x, from: 5, to: 35, duration: 1, curve: linear }
          - { layer: box, keyPath: opacity, from: 1, to: 0.3, duration: 1, curve: linear }
        """

    static func folderWithScene() throws -> String {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        return folder
    }

    static func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            && isFolder.boolValue
    }

    @Test func dotPNGWritesAnAnimatedPNGWithTheFramesOfThePNGSequence() throws {
        let folder = try Self.folderWithScene()
        let apng = try CLI.run(["render", "s.yaml", "-o", "x.png", "-q"], in: folder)
        #expect(apng.status == 0, "\(apng.stderr)")
        #expect(!Self.isDirectory(folder + "/x.png"))
        let bytes = try FileIO.readAll(path: folder + "/x.png")
        #expect(APNGReader.isAnimated(bytes))
        let decoded = try APNGReader.decode(bytes)
        #expect(decoded.frames.count == 10 && decoded.delays.allSatisfy { $0 == (1, 10) })
        // The PNG frames are written by libpng: the APNG's frames must equal them exactly.
        let frames = try CLI.run(
            ["render", "s.yaml", "--format", "png", "-o", "frames", "-q"], in: folder)
        #expect(frames.status == 0, "\(frames.stderr)")
        for k in 0..<10 {
            let png = try PNGCodec.read(path: folder + "/frames/frame-000\(k).png")
            #expect(decoded.frames[k] == png, "frame \(k)")
        }
        // diff reads the APNG, timing included: against the PNG frames, and against itself.
        #expect(try CLI.run(["diff", "x.png", "frames", "--fps", "10"], in: folder).status == 0)
        #expect(try CLI.run(["diff", "frames", "x.png"], in: folder).status == 0)
        #expect(try CLI.run(["diff", "x.png", "x.png"], in: folder).status == 0)
    }

    @Test func oneFrameWritesAPlainPNG() throws {
        let folder = try Self.folderWithScene()
        let outcome = try CLI.run(
            ["render", "s.yaml", "-o", "one.png", "--frames", "4", "-q"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let bytes = try FileIO.readAll(path: folder + "/one.png")
        #expect(!APNGReader.isAnimated(bytes))
        let still = try PNGCodec.decode(bytes)
        let frames = try CLI.run(
            ["render", "s.yaml", "--format", "png", "-o", "frames", "--frames", "4", "-q"],
            in: folder)
        #expect(frames.status == 0)
        #expect(still == (try PNGCodec.read(path: folder + "/frames/frame-0004.png")))
    }

    @Test func printfPatternNamesEachFrame() throws {
        let folder = try Self.folderWithScene()
        let outcome = try CLI.run(
            ["render", "s.yaml", "-o", "out/f-%03d.png", "--frames", "2-4", "-q"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        #expect(names == ["f-002.png", "f-003.png", "f-004.png"])
        // Unpadded %d, and %% for a literal percent sign.
        let plain = try CLI.run(
            ["render", "s.yaml", "-o", "p/100%%-%d.png", "--frames", "9", "-q"], in: folder)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/p/100%-9.png"))
        // A second run finds them up to date (the hash is inside each frame).
        let again = try CLI.run(
            ["render", "s.yaml", "-o", "out/f-%03d.png", "--frames", "2-4"], in: folder)
        #expect(again.status == 0 && again.stdout.contains("up to date"), "\(again.stdout)")
    }

    @Test func explicitFormatsWin() throws {
        let folder = try Self.folderWithScene()
        // --format png -o DIR keeps writing frame-NNNN.png into DIR, even when DIR ends in .png.
        #expect(
            try CLI.run(
                ["render", "s.yaml", "--format", "png", "-o", "dir.png", "--frames", "0-1", "-q"],
                in: folder
            ).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/dir.png/frame-0001.png"))
        #expect(
            try CLI.run(["render", "s.yaml", "--format", "apng", "-o", "anim", "-q"], in: folder)
                .status == 0)
        #expect(APNGReader.isAnimated(try FileIO.readAll(path: folder + "/anim")))
        #expect(
            try CLI.run(["render", "s.yaml", "--format", "gif", "-o", "g.png", "-q"], in: folder)
                .status == 0)
        #expect(Array(try FileIO.readAll(path: folder + "/g.png").prefix(3)) == Array("GIF".utf8))
        // Several scenes with --format apng: <folder>/<name>.png each.
        try CLI.write(Self.scene, to: folder + "/t.yaml")
        #expect(
            try CLI.run(
                ["render", "s.yaml", "t.yaml", "--format", "apng", "-o", "all", "-q"], in: folder
            ).status == 0)
        #expect(APNGReader.isAnimated(try FileIO.readAll(path: folder + "/all/t.png")))
    }

    @Test(arguments: ["a-%d-%d.png", "a-%s.png", "%d/a.png", "a-%5d.png", "a.png%", "a-%0d.png"])
    func badPatternsAreUsageErrors(_ pattern: String) throws {
        let folder = try Self.folderWithScene()
        let outcome = try CLI.run(["render", "s.yaml", "-o", pattern], in: folder)
        #expect(outcome.status == 64, "\(pattern): \(outcome.stderr)")
        #expect(outcome.stderr.contains("--output"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["s.yaml"])
    }

    @Test func outputThatIsTheSceneIsRefused() throws {
        let folder = try Self.folderWithScene()
        let outcome = try CLI.run(
            ["render", "s.yaml", "--format", "apng", "-o", "s.yaml"], in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("refusing"), "\(outcome.stderr)")
        #expect(try String(contentsOfFile: folder + "/s.yaml", encoding: .utf8) == Self.scene)
    }
}
