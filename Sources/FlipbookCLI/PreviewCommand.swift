import ArgumentParser
import Dispatch
import Foundation
import Flipbook
import FlipbookPreview

/// `flipbook preview SCENE`: a live preview in the browser (see `PreviewServer`).
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract:
            "Serve a live preview of a scene on a local web page; it reloads when the scene or its assets change.",
        discussion: """
            Prints the URL (a free port unless --port). The page plays the scene at its \
            timing, steps with the arrow keys, scrubs, zooms, renders at 1×/2×/3× and shows \
            the layer tree; frames are GET /frames/<i>.png (?scale=S as render --scale), \
            the same pixels `render --format png` writes. A scene with errors keeps the last \
            good frames under a banner with the messages `validate` prints. Ctrl-C stops it.
            """)

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "Port to listen on. Default: a free one.")
    var port: Int = 0

    @Option(help: "Address to listen on. Default: 127.0.0.1 (this machine only).")
    var host: String = "127.0.0.1"

    @Flag(help: "Open the page in the default browser (xdg-open or open).")
    var open = false

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be in 0…65535, got \(port)")
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: scene) else {
            printError("error: \(scene): no such file")
            throw ExitStatus.badScene
        }
        do { try PreviewServer.checkListening(host: host, port: port) } catch {
            printError("error: \(Self.wording(error))")
            throw ExitCode(64)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            printError(
                "warning: serving on \(host): anyone who can reach this address can see the scene")
        }
        let limits = self.limits, path = scene, open = self.open
        let server = PreviewServer(scenePath: path, host: host, port: port) { scale in
            limits.prepare(path, scale: scale).map(\.renderer).mapError {
                PreviewProblem(messages: $0.messages)
            }
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task.detached {
            do {
                try await server.run { url in
                    // Written straight to the descriptor: a pipe reader (a test, a script)
                    // gets the URL at once, not when a buffer fills.
                    FileHandle.standardOutput.write(
                        Data("preview: \(url)  (Ctrl-C to stop)\n".utf8))
                    if open { Self.openBrowser(url) }
                }
            } catch { failure = error }
            done.signal()
        }
        done.wait()
        if let failure = failure as? PreviewListenError {
            printError("error: \(Self.wording(failure))")
            throw ExitCode(64)
        }
        if let failure {
            printError("error: \(failure)")
            throw ExitStatus.failure
        }
    }

    /// A listening failure naming this command's flags.
    static func wording(_ error: PreviewListenError) -> String {
        error.message(hostSetting: "--host", portSetting: "--port")
    }

    static func openBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        try? process.run()
    }
}
