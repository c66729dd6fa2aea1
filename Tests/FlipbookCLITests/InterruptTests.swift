import Foundation
import Testing

/// Ctrl-C and SIGTERM during `flipbook render`: the render stops promptly, exits 130,
/// deletes its temporary files and leaves the earlier output as it was.
@Suite(.serialized) struct InterruptTests {
    /// Long enough (600 frames of 640×480) that no debug build finishes it in the test.
    static let longScene = """
        canvas: { size: [640, 480], fps: 30, duration: 20 }
        layers:
          - { id: box, bounds: [0, 0, 200, 200], position: [320, 240], backgroundColor: red, cornerRadius: 40 }
          - { id: dots, instanceCount: 20, instanceTransform: { translation: [30, 0] },
              sublayers: [{ id: dot, path: "M0 0 C 10 0 20 10 20 20 Z", fillColor: blue }] }
        animations:
          - { layer: box, keyPath: transform.rotation, from: 0, to: 6.28, duration: 20 }
        """

    /// Starts a render, waits until it is writing (a file whose name contains `marker`
    /// appears in `folder`), sends `signal`, and returns its exit status and how long it
    /// took to stop.
    func interruptRender(
        _ arguments: [String], in folder: String, watching watched: String, marker: String,
        signal: Int32
    ) throws -> (status: Int32, reason: Process.TerminationReason, seconds: Double) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !marker.isEmpty, Date() < deadline, process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: watched)) ?? []
            if names.contains(where: { $0.contains(marker) }) { break }
            usleep(20_000)
        }
        usleep(marker.isEmpty ? 2_000_000 : 300_000)
        #expect(process.isRunning, "the render finished before it could be interrupted")
        let sent = Date()
        kill(process.processIdentifier, signal)
        let stopBy = Date().addingTimeInterval(20)
        while process.isRunning, Date() < stopBy { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (
            process.terminationStatus, process.terminationReason, Date().timeIntervalSince(sent)
        )
    }

    @Test func sigintStopsAGIFRenderAndKeepsTheEarlierFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(Self.longScene, to: folder + "/long.yaml")
        let earlier = Data("an earlier render".utf8)
        _ = FileManager.default.createFile(atPath: folder + "/out.gif", contents: earlier)
        let result = try interruptRender(
            ["render", "long.yaml", "-o", "out.gif", "--jobs", "2"],
            in: folder, watching: folder, marker: ".out.gif.tmp-", signal: SIGINT)
        #expect(result.reason == .exit)
        #expect(result.status == 130)
        // The watchdog ends the process 0.8 s after the signal at the latest; 2 s leaves
        // room for a loaded machine.
        #expect(result.seconds < 2, "stopped in \(result.seconds) s")
        #expect(FileManager.default.contents(atPath: folder + "/out.gif") == earlier)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["long.yaml", "out.gif"])
    }

    @Test func sigtermStopsAPNGRenderAndKeepsTheEarlierFrames() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(Self.longScene, to: folder + "/long.yaml")
        try FileManager.default.createDirectory(
            atPath: folder + "/frames", withIntermediateDirectories: true)
        let earlier = Data("an earlier frame".utf8)
        _ = FileManager.default.createFile(
            atPath: folder + "/frames/frame-0000.png", contents: earlier)
        let result = try interruptRender(
            ["render", "long.yaml", "-o", "frames", "--format", "png", "--jobs", "2"],
            in: folder, watching: folder + "/frames", marker: ".partial-",
            signal: SIGTERM)
        #expect(result.reason == .exit)
        #expect(result.status == 130)
        #expect(result.seconds < 2, "stopped in \(result.seconds) s")
        #expect(FileManager.default.contents(atPath: folder + "/frames/frame-0000.png") == earlier)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames")
        #expect(left == ["frame-0000.png"])
    }

    /// One frame that takes a debug build minutes: 200 shadowed shapes on a 2000×2000 canvas.
    static let slowStill = """
        canvas: { size: [2000, 2000], fps: 30, duration: 2 }
        layers:
          - { id: box, bounds: [0, 0, 1600, 1600], position: [1000, 1000], backgroundColor: red,
              shadowOpacity: 1, shadowRadius: 200 }
          - { id: dots, instanceCount: 200, instanceTransform: { translation: [8, 3] },
              sublayers: [{ id: dot, path: "M0 0 C 100 0 200 100 200 200 Z", fillColor: blue,
                            shadowOpacity: 0.5, shadowRadius: 30 }] }
        """

    /// `still` stops while it renders its one frame (no temporary file exists yet, so
    /// the signal goes 2 s after the start).
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsALongStill(_ signal: Int32) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(Self.slowStill, to: folder + "/slow.yaml")
        let earlier = Data("an earlier still".utf8)
        _ = FileManager.default.createFile(atPath: folder + "/out.png", contents: earlier)
        let result = try interruptRender(
            ["still", "slow.yaml", "--at", "50%", "-o", "out.png"],
            in: folder, watching: folder, marker: "", signal: signal)
        #expect(result.reason == .exit)
        #expect(result.status == 130)
        #expect(result.seconds < 2, "stopped in \(result.seconds) s")
        #expect(FileManager.default.contents(atPath: folder + "/out.png") == earlier)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "out.png", "slow.yaml",
            ])
    }

    /// A failed PNG export (here: a frame name taken by a folder, found when the frames
    /// are renamed into place) leaves no partial files.
    @Test func aFailedPNGExportLeavesNothingBehind() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(
            "canvas: { size: [8, 8], duration: 0.2 }\nlayers: [{ id: a }]\n", to: folder + "/s.yaml"
        )
        try FileManager.default.createDirectory(
            atPath: folder + "/out/frame-0003.png", withIntermediateDirectories: true)
        let outcome = try CLI.run(["render", "s.yaml", "-o", "out", "--format", "png"], in: folder)
        #expect(outcome.status == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
        #expect(!left.contains { $0.contains(".partial-") })
        #expect(left.contains("frame-0003.png"))
    }
}
