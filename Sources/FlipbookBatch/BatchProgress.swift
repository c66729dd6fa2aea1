/// Where a batch run (``BatchRenderer``, ``FrameAssembler``) reports what happens: the
/// progress of each output, result lines, warnings and errors. The target itself writes
/// nothing to the terminal; `flipbook` draws these (its `ProgressReporter`). Called from
/// every render thread.
package protocol BatchProgress: Sendable {
    /// Output `id` starts: `total` frames to produce.
    func start(_ id: Int, name: String, total: Int)
    /// One more frame of output `id` is done.
    func advance(_ id: Int)
    /// Output `id` ends; `line` is its result (nil after a failure, which ``error(_:)`` reports).
    func finish(_ id: Int, line: String?)
    /// A result line (a skipped output, a summary).
    func output(_ line: String)
    /// A scene that renders, but without something it asks for (unsupported features, missing glyphs).
    func warning(_ line: String)
    /// A scene or an output that failed.
    func error(_ message: String)
}

/// A duration in seconds.
package func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}
