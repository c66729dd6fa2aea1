import Foundation
import Testing

/// `flipbook preview` where it cannot listen: exit 64 and one line, not NIO's errors.
@Suite struct PreviewCommandTests {
    @Test func aBadHostOrABusyPortExits64WithOneLine() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(
            "canvas: { size: [8, 8], duration: 0.2 }\nlayers: [{ id: a }]\n", to: folder + "/s.yaml"
        )
        let badHost = try CLI.run(
            ["preview", "s.yaml", "--host", "no such host.invalid"], in: folder)
        #expect(badHost.status == 64)
        #expect(badHost.stderr.split(separator: "\n").count == 1, "\(badHost.stderr)")
        #expect(badHost.stderr.contains("--host no such host.invalid"))

        // A port taken by another preview.
        let first = Process()
        first.executableURL = CLI.executable
        first.arguments = ["preview", "s.yaml"]
        first.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        first.standardOutput = out
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { first.terminate(); first.waitUntilExit() }
        // "preview: http://127.0.0.1:PORT/  (Ctrl-C to stop)"
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard let url = line.split(separator: " ").dropFirst().first,
            let port = URL(string: String(url))?.port
        else {
            Issue.record("no URL from the first preview: \(line)"); return
        }
        let busy = try CLI.run(["preview", "s.yaml", "--port", "\(port)"], in: folder)
        #expect(busy.status == 64)
        #expect(busy.stderr == "error: --port \(port): already in use on 127.0.0.1\n")
    }
}
