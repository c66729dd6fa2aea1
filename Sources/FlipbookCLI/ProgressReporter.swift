import FlipbookBatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Progress of a batch render, safe to call from every render thread.
///
/// Styles:
/// - `live` (standard error is a terminal, not `--quiet`, `TERM` is not `dumb`, `CI` is
///   unset): one line per scene in flight on standard error — scene, a bar, frames
///   done/total, frames per second, time left — redrawn at most 10 times a second.
///   Finished scenes' lines scroll up above the live block.
/// - `plain` (logs): a line when a scene starts and at 25 %, 50 % and 75 %, when
///   `milestones` is on (batch runs; a single scene prints only its result line).
/// - `quiet`: only errors.
/// Result lines go to standard output, errors to standard error.
final class ProgressReporter: BatchProgress, @unchecked Sendable {
    enum Style: Sendable { case live, plain, quiet }

    let style: Style
    let milestones: Bool
    private let lock = NSLock()
    private let clock = ContinuousClock()
    private struct Task {
        var name: String
        var done = 0
        var total: Int
        var started: ContinuousClock.Instant
        var milestone = 0
    }
    private var tasks: [Int: Task] = [:]
    private var order: [Int] = []
    private var drawnLines = 0
    private var lastDraw: ContinuousClock.Instant?

    init(style: Style, milestones: Bool) {
        self.style = style
        self.milestones = milestones
    }

    /// The style for this process: live on a terminal, plain in logs, quiet with `--quiet`.
    static func defaultStyle(
        quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Style {
        if quiet { return .quiet }
        let ci = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        if isatty(2) == 1, environment["TERM"] != "dumb", !ci { return .live }
        return .plain
    }

    func start(_ id: Int, name: String, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        tasks[id] = Task(name: name, total: max(1, total), started: clock.now)
        order.append(id)
        switch style {
        case .live: redraw(force: true)
        case .plain: if milestones { writeOut("\(name): rendering \(total) frames") }
        case .quiet: break
        }
    }

    func advance(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard var task = tasks[id] else { return }
        task.done += 1
        if style == .plain, milestones, task.total >= 8 {
            let quarter = task.done * 4 / task.total
            if quarter > task.milestone && quarter < 4 {
                task.milestone = quarter
                writeOut("\(task.name): \(status(task))")
            }
        }
        tasks[id] = task
        if style == .live { redraw(force: false) }
    }

    /// Ends a task; `line` (standard output) is its result, unless quiet.
    func finish(_ id: Int, line: String?) {
        lock.lock()
        defer { lock.unlock() }
        tasks[id] = nil
        order.removeAll { $0 == id }
        if let line, style != .quiet {
            permanent { writeOut(line) }
        } else if style == .live {
            redraw(force: true)
        }
    }

    /// A line on standard output (not in quiet mode).
    func output(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        if style != .quiet { permanent { writeOut(line) } }
    }

    /// A warning on standard error, in every style.
    func warning(_ line: String) { error(line) }

    /// A line on standard error, in every style.
    func error(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        permanent { writeErr(message) }
    }

    /// Clears the live block, runs `body`, draws the block again.
    private func permanent(_ body: () -> Void) {
        if style == .live { clearBlock() }
        body()
        if style == .live { redraw(force: true) }
    }

    private func status(_ task: Task) -> String {
        let elapsed = seconds(task.started.duration(to: clock.now))
        let rate = elapsed > 0 ? Double(task.done) / elapsed : 0
        var text = "\(task.done)/\(task.total) frames, \(String(format: "%.1f", rate)) frames/s"
        if rate > 0, task.done < task.total {
            text += ", \(Self.duration(Double(task.total - task.done) / rate)) left"
        }
        return text
    }

    private func redraw(force: Bool) {
        let now = clock.now
        if !force, let lastDraw, lastDraw.duration(to: now) < .milliseconds(100) { return }
        lastDraw = now
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F" : ""
        for id in order {
            guard let task = tasks[id] else { continue }
            let width = 20
            let filled = min(width, task.done * width / task.total)
            let bar =
                String(repeating: "█", count: filled)
                + String(repeating: "·", count: width - filled)
            // Never wider than the terminal: a wrapped line would break the cursor-up count.
            let line = "\(task.name)  \(bar)  \(status(task))"
            text += "\u{1B}[2K" + String(line.prefix(max(20, columns - 1))) + "\n"
        }
        text += "\u{1B}[J"
        drawnLines = order.count
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The terminal's width (standard error), 80 when unknown.
    private var columns: Int {
        var size = winsize()
        #if canImport(Glibc)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        return ioctl(2, request, &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    private func clearBlock() {
        guard drawnLines > 0 else { return }
        FileHandle.standardError.write(Data("\u{1B}[\(drawnLines)F\u{1B}[J".utf8))
        drawnLines = 0
    }

    private func writeOut(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    private func writeErr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func duration(_ s: Double) -> String {
        if s < 60 { return String(format: "%.1f s", s) }
        return "\(Int(s) / 60) min \(Int(s) % 60) s"
    }
}
