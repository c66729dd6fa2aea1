import ArgumentParser
import Dispatch
import Flipbook
import FlipbookCodecs
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM during a render: the first asks the render to stop
/// (``RenderCancellation``): every long stage polls it, the exporters delete their
/// temporary files, and the command exits 130, leaving any earlier output untouched.
///
/// A watchdog guarantees the promise "within a second": if the process is still running
/// ``watchdogDelay`` after the signal (a stage that does not poll, a slow machine), it
/// deletes the registered temporary files (``TemporaryFiles``) and exits 130 itself. A
/// second signal does the same at once. Polling stays the mechanism; the watchdog is the
/// backstop.
enum Interruption {
    /// The exit status of an interrupted command, as shells report for SIGINT.
    static let exitCode = ExitCode(130)

    /// How long after the first signal the watchdog ends the process.
    static let watchdogDelay = 0.8

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Routes SIGINT and SIGTERM to ``RenderCancellation/shared`` and arms the watchdog.
    static func install() {
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if RenderCancellation.shared.isCancelled { exitNow() }
                RenderCancellation.shared.cancel()
                DispatchQueue.global().asyncAfter(deadline: .now() + watchdogDelay) { exitNow() }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Deletes the temporary files and exits 130 without unwinding (the render threads
    /// may still be running).
    private static func exitNow() -> Never {
        TemporaryFiles.removeAllAndHold()
        let message = Array("interrupted; nothing more was written\n".utf8)
        _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _exit(130)
    }

    /// Exits 130 when a stop was requested, saying that `target` was left as it was.
    static func exitIfInterrupted(_ error: any Error, target: String) throws {
        guard RenderCancellation.shared.isCancelled else { return }
        printError("interrupted; \(target) was left as it was")
        throw exitCode
    }
}
