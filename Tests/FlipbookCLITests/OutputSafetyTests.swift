import Foundation
import Testing

/// An output that is the same file as an input (the scene, an asset) or as another
/// output is refused before anything is written: exit 64 (2 for diff and check, whose
/// usage errors are 2), one line naming the path, every file as it was.
@Suite struct OutputSafetyTests {
    static let scene =
        "canvas: { size: [8, 8], duration: 0.2 }\nlayers: [{ id: a, bounds: [0, 0, 4, 4], backgroundColor: red }]\n"

    /// A folder holding s.yaml; returns its path.
    func folder() throws -> String {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        return folder
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func expectRefused(
        _ arguments: [String], in folder: String, naming path: String, status: Int32 = 64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let sceneBytes = contents(folder + "/s.yaml")
        let outcome = try CLI.run(arguments, in: folder)
        #expect(outcome.status == status, "\(outcome.stderr)", sourceLocation: sourceLocation)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains(path) && lines[0].contains("same file"),
            "\(outcome.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before,
            sourceLocation: sourceLocation)
        #expect(contents(folder + "/s.yaml") == sceneBytes, sourceLocation: sourceLocation)
    }

    @Test func stillOverItsSceneIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try expectRefused(
            ["still", "s.yaml", "--at", "0", "-o", "s.yaml"], in: folder, naming: "s.yaml")
        // Spelled differently: through `..`, an absolute path, a symbolic link, a hard link.
        try FileManager.default.createDirectory(
            atPath: folder + "/sub", withIntermediateDirectories: true)
        try expectRefused(
            ["still", "s.yaml", "--at", "0", "-o", "sub/../s.yaml"], in: folder,
            naming: "sub/../s.yaml")
        try expectRefused(
            ["still", "s.yaml", "--at", "0", "-o", folder + "/./s.yaml"], in: folder,
            naming: "s.yaml")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/link.png", withDestinationPath: "s.yaml")
        try expectRefused(
            ["still", "s.yaml", "--at", "0", "-o", "link.png"], in: folder, naming: "link.png")
        try FileManager.default.linkItem(atPath: folder + "/s.yaml", toPath: folder + "/hard.png")
        try expectRefused(
            ["still", "s.yaml", "--at", "0", "-o", "hard.png"], in: folder, naming: "hard.png")
        // A folder reached through a symbolic link.
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/alias", withDestinationPath: folder)
        try expectRefused(
            ["still", "alias/s.yaml", "--at", "0", "-o", "s.yaml"], in: folder, naming: "s.yaml")
    }

    @Test func stillOverAnAssetIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try CLI.run(["still", "s.yaml", "--at", "0", "-o", "pic.png"], in: folder)
        #expect(image.status == 0, "\(image.stderr)")
        try CLI.write(
            "canvas: { size: [8, 8], duration: 0.2 }\nassets: { pic: pic.png }\n"
                + "layers: [{ id: a, bounds: [0, 0, 8, 8], contents: pic }]\n",
            to: folder + "/i.yaml")
        try expectRefused(
            ["still", "i.yaml", "--at", "0", "-o", "./pic.png"], in: folder, naming: "pic.png")
        try expectRefused(
            ["render", "i.yaml", "-o", "out.gif", "--contact-sheet", "--report", "pic.png"],
            in: folder,
            naming: "pic.png")
    }

    @Test func renderReportOverTheSceneOrTheOutputIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try expectRefused(
            ["render", "s.yaml", "-o", "r.gif", "--report", "s.yaml"], in: folder, naming: "s.yaml")
        try expectRefused(
            ["render", "s.yaml", "-o", "X", "--report", "X"], in: folder, naming: "X")
        try expectRefused(
            ["render", "s.yaml", "-o", "X.gif", "--report", "./X.gif"], in: folder, naming: "X.gif")
        try expectRefused(["render", "s.yaml", "-o", "s.yaml"], in: folder, naming: "s.yaml")
        // A PNG folder output and a report of the same name.
        try expectRefused(
            ["render", "s.yaml", "-o", "frames", "--format", "png", "--report", "frames"],
            in: folder,
            naming: "frames")
        // Distinct files: written.
        let fine = try CLI.run(
            ["render", "s.yaml", "-o", "r.gif", "--report", "r.json", "-q"], in: folder)
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(contents(folder + "/r.json") != nil && contents(folder + "/r.gif") != nil)
    }

    /// Batch renders: a scene's PNG frames folder holding another scene's asset under a
    /// frame's name, and the report over a scene of the batch.
    @Test func batchOutputsLandingOnInputsAreRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(
            atPath: folder + "/scenes/out/s", withIntermediateDirectories: true)
        try CLI.write(Self.scene, to: folder + "/scenes/s.yaml")
        let frame = try CLI.run(
            ["still", "s.yaml", "--at", "0", "-o", "scenes/out/s/frame-0001.png"], in: folder)
        #expect(frame.status == 0, "\(frame.stderr)")
        try CLI.write(
            "canvas: { size: [8, 8], duration: 0.2 }\nassets: { pic: out/s/frame-0001.png }\n"
                + "layers: [{ id: a, bounds: [0, 0, 8, 8], contents: pic }]\n",
            to: folder + "/scenes/t.yaml")
        try expectRefused(
            ["render", "scenes", "-o", "scenes/out", "--format", "png"], in: folder,
            naming: "frame-0001.png")
        try expectRefused(
            ["render", "scenes", "-o", "scenes/out", "--report", "scenes/t.yaml"], in: folder,
            naming: "scenes/t.yaml")
    }

    @Test func diffAndCheckHTMLReportsOverTheirInputsAreRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(
            atPath: folder + "/report", withIntermediateDirectories: true)
        for name in ["a.png", "report/index.html"] {
            _ = try CLI.run(["still", "s.yaml", "--at", "0", "-o", name], in: folder)
        }
        try expectRefused(
            ["diff", "a.png", "report/index.html", "--html", "report"], in: folder,
            naming: "index.html",
            status: 2)
        // check --record writes frame-NNNN.png into the goldens: an asset there is refused.
        try FileManager.default.createDirectory(
            atPath: folder + "/goldens", withIntermediateDirectories: true)
        _ = try CLI.run(
            ["still", "s.yaml", "--at", "0", "-o", "goldens/frame-0000.png"], in: folder)
        try CLI.write(
            "canvas: { size: [8, 8], duration: 0.2 }\nassets: { pic: goldens/frame-0000.png }\n"
                + "layers: [{ id: a, bounds: [0, 0, 8, 8], contents: pic }]\n",
            to: folder + "/i.yaml")
        try expectRefused(
            ["check", "i.yaml", "--golden", "goldens", "--record"], in: folder,
            naming: "frame-0000.png",
            status: 2)
    }

    @Test func assembleReportOverAShardsFramesIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shard = try CLI.run(
            ["render", "s.yaml", "-o", "out/s.gif", "--shard", "1/1", "-q"], in: folder)
        #expect(shard.status == 0, "\(shard.stderr)")
        try expectRefused(
            ["assemble", "out", "--report", "out/s.frames/manifest.json"], in: folder,
            naming: "manifest.json")
        try expectRefused(
            ["assemble", "out", "--report", "out/s.gif"], in: folder, naming: "out/s.gif")
    }
}
