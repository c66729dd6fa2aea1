import Foundation

/// A request to stop rendering, shared by every stage in the process: set by the
/// command line's SIGINT/SIGTERM handler (or by a library user), and polled by the long
/// stages (parsing, the timeline, rasterizing, encoding; `OrderedParallelMap` before each
/// frame is started and each result is consumed). It lives in the lowest target so that
/// every stage can poll it without depending on a higher one.
/// A cancelled render throws ``RenderCancelled``; the exporters then delete their
/// temporary files, so earlier outputs stay untouched.
public final class RenderCancellation: @unchecked Sendable {
    public static let shared = RenderCancellation()

    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Clears the request, for a process that renders again afterwards.
    public func reset() {
        lock.lock()
        cancelled = false
        lock.unlock()
    }

    /// Throws ``RenderCancelled`` when a stop was requested.
    public func check() throws(RenderCancelled) {
        if isCancelled { throw RenderCancelled() }
    }
}

/// Thrown by a render that was asked to stop.
public struct RenderCancelled: Error, CustomStringConvertible, Sendable {
    public init() {}
    public var description: String { "interrupted" }
}
