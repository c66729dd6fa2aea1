import ArgumentParser
import Dispatch
import Flipbook
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM during a render: the first asks the render to stop
/// (``RenderCancellation``), which deletes its temporary files and exits 130, leaving
/// any earlier output untouched; a second one exits at once.
enum Interruption {
    /// The exit status of an interrupted command, as shells report for SIGINT.
    static let exitCode = ExitCode(130)

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Routes SIGINT and SIGTERM to ``RenderCancellation/shared``.
    static func install() {
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if RenderCancellation.shared.isCancelled { _exit(130) }
                RenderCancellation.shared.cancel()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Exits 130 when a stop was requested, saying that `target` was left as it was.
    static func exitIfInterrupted(_ error: any Error, target: String) throws {
        guard RenderCancellation.shared.isCancelled else { return }
        printError("interrupted; \(target) was left as it was")
        throw exitCode
    }
}
