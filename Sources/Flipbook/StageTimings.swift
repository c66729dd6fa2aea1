#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The stages of a scene's render that `--timings` and the report's `"timings"` split
/// CPU time into.
public enum RenderStage: Int, CaseIterable, Sendable {
    /// Reading and validating the scene, decoding its assets, laying its text out, hashing.
    case load
    /// Building the timeline and evaluating it at each frame's time.
    case timeline
    /// Rasterizing frames.
    case render
    /// PNG compression; GIF differencing, quantizing and LZW compression.
    case encode
    /// Writing files (and handing compressed GIF frames to giflib).
    case write
}

/// CPU time per stage of one scene, summed over every thread that worked on it.
///
/// Each stage is timed with the calling thread's own CPU clock
/// (`CLOCK_THREAD_CPUTIME_ID`) around the work, so parallel stages add up to the CPU
/// they used rather than to wall time, and time a thread spends waiting counts nowhere.
public final class StageTimings: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds = [UInt64](repeating: 0, count: RenderStage.allCases.count)
    private var frameCount = 0

    public init() {}

    /// The calling thread's CPU time so far, in nanoseconds.
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Runs `body`, adding the CPU time the calling thread spent in it to `stage`.
    @inline(__always)
    public func measure<T, E: Error>(_ stage: RenderStage, _ body: () throws(E) -> T) throws(E) -> T
    {
        let start = Self.threadCPUNanoseconds()
        defer { add(stage, nanoseconds: Self.threadCPUNanoseconds() &- start) }
        return try body()
    }

    /// Adds CPU time measured elsewhere to `stage`.
    public func add(_ stage: RenderStage, nanoseconds ns: UInt64) {
        lock.lock()
        nanoseconds[stage.rawValue] &+= ns
        lock.unlock()
    }

    /// Counts `n` more frames rendered.
    public func addFrames(_ n: Int) {
        lock.lock()
        frameCount += n
        lock.unlock()
    }

    /// The totals so far.
    public var snapshot: SceneTimings {
        lock.lock()
        defer { lock.unlock() }
        func ms(_ s: RenderStage) -> Double {
            (Double(nanoseconds[s.rawValue]) / 1e6 * 1000).rounded() / 1000
        }
        return SceneTimings(
            frames: frameCount, loadCpuMs: ms(.load), timelineCpuMs: ms(.timeline),
            renderCpuMs: ms(.render), encodeCpuMs: ms(.encode), writeCpuMs: ms(.write))
    }
}

/// The report's `"timings"` object: CPU milliseconds per stage, totals over the scene.
public struct SceneTimings: Codable, Sendable, Equatable {
    /// Frames rendered by this run.
    public var frames: Int
    public var loadCpuMs: Double
    public var timelineCpuMs: Double
    public var renderCpuMs: Double
    public var encodeCpuMs: Double
    public var writeCpuMs: Double

    /// Every stage together.
    public var totalCpuMs: Double {
        loadCpuMs + timelineCpuMs + renderCpuMs + encodeCpuMs + writeCpuMs
    }

    /// One line for `--timings`.
    public var summary: String {
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let per =
            frames > 0 ? " (\(String(format: "%.2f", renderCpuMs / Double(frames))) ms/frame)" : ""
        return
            "\(frames) frames, CPU ms: load \(f(loadCpuMs)), timeline \(f(timelineCpuMs)), render \(f(renderCpuMs))\(per), "
            + "encode \(f(encodeCpuMs)), write \(f(writeCpuMs)); total \(f(totalCpuMs))"
    }
}

#if canImport(Glibc)
    private let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
    private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// CPU time of the whole process so far (user + system, every thread), in milliseconds.
public func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF_WHO, &usage)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}
