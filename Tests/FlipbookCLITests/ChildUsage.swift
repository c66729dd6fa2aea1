import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs `flipbook` as a child process and reads what it used from the kernel: the exit
/// status, wall time, and its peak resident memory (`wait4`'s rusage, through GNU time,
/// which scripts/setup installs).
///
/// Why GNU time in between: a child spawned straight from the test process starts with
/// the test's address space (posix_spawn shares it until exec), and Linux keeps that
/// space's high-water mark as the child's ru_maxrss, so a test that built a 70 MB file
/// would see its own size. `time` is a small process whose fork of itself is measured.
enum ChildUsage {
    struct Outcome {
        var status: Int32
        var stderr: String
        var seconds: Double
        /// Peak resident set size, bytes (ru_maxrss is in KiB on Linux).
        var peakBytes: Int
        var peakMiB: Double { Double(peakBytes) / 1_048_576 }
    }

    static func run(_ arguments: [String], in folder: String) throws -> Outcome {
        let errPath = folder + "/.stderr-\(UUID().uuidString)"
        let rssPath = folder + "/.rss-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: errPath)
            try? FileManager.default.removeItem(atPath: rssPath)
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw ChildUsageError(
                description: "/usr/bin/time (Debian's `time`) is missing; scripts/setup installs it"
            )
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let script = #"cd "$1" && out="$2" && shift 2 && exec /usr/bin/time -f %M -o "$out" "$@""#
        let argv =
            (["/bin/sh", "-c", script, "sh", folder, rssPath, CLI.executable.path] + arguments)
            .map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var environment = ProcessInfo.processInfo.environment
        for key in CLI.shardVariables { environment[key] = nil }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let exited = status & 0x7f == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // time's last line is the peak in KiB (a line before it says so when the command failed).
        let report = (try? String(contentsOfFile: rssPath, encoding: .utf8)) ?? ""
        guard
            let kib = report.split(separator: "\n").last.flatMap({
                Int($0.trimmingCharacters(in: .whitespaces))
            })
        else {
            throw ChildUsageError(description: "no peak memory from /usr/bin/time: \(report)")
        }
        return Outcome(status: code, stderr: stderr, seconds: seconds, peakBytes: kib * 1024)
    }
}

struct ChildUsageError: Error, CustomStringConvertible {
    var description: String
}
