import Foundation
import Testing

/// `flipbook render --timings` and the report's `"timings"` object: every key present,
/// the frame count the run rendered, non-negative CPU milliseconds that add up to no more
/// than the process used.
@Suite struct TimingsTests {
    static let keys = [
        "frames", "loadCpuMs", "timelineCpuMs", "renderCpuMs", "encodeCpuMs", "writeCpuMs",
    ]

    /// The `"timings"` object of each scene, by name.
    static func timings(_ reportPath: String) throws -> [String: [String: Any]] {
        let report = try BatchRenderTests.report(reportPath)
        var out: [String: [String: Any]] = [:]
        for scene in report["scenes"] as! [[String: Any]] {
            if let t = scene["timings"] as? [String: Any] { out[scene["name"] as! String] = t }
        }
        return out
    }

    /// "timings: process CPU X ms in …" from standard error.
    static func processCPU(_ stderr: String) -> Double? {
        for line in stderr.split(separator: "\n") where line.hasPrefix("timings: process CPU ") {
            return Double(line.dropFirst("timings: process CPU ".count).prefix { $0 != " " })
        }
        return nil
    }

    static func check(_ t: [String: Any], frames: Int, encodes: Bool = true) {
        #expect(Set(t.keys) == Set(keys))
        #expect(t["frames"] as? Int == frames)
        for key in keys.dropFirst() {
            let value = t[key] as? Double
            #expect(value != nil && value! >= 0, "\(key) = \(String(describing: t[key]))")
        }
        // Rasterizing and loading always cost something; encoding and writing do when a
        // file was written.
        #expect((t["renderCpuMs"] as? Double ?? 0) > 0)
        #expect((t["loadCpuMs"] as? Double ?? 0) > 0)
        if encodes {
            #expect((t["encodeCpuMs"] as? Double ?? 0) > 0)
            #expect((t["writeCpuMs"] as? Double ?? 0) > 0)
        }
    }

    static func total(_ t: [String: Any]) -> Double {
        keys.dropFirst().reduce(0) { $0 + (t[$1] as? Double ?? 0) }
    }

    @Test func batchReportHasTimingsPerScene() throws {
        let folder = try BatchRenderTests.sceneFolder()
        let run = try CLI.run(
            ["render", "scenes", "--jobs", "2", "--timings", "--report", "r.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let timings = try Self.timings(folder + "/r.json")
        // slide: 4 s at 30 fps; fade: 1 s at 20 fps; pictured: 1 s at 10 fps.
        #expect(Set(timings.keys) == ["slide", "fade", "pictured"])
        Self.check(timings["slide"] ?? [:], frames: 120)
        Self.check(timings["fade"] ?? [:], frames: 20)
        Self.check(timings["pictured"] ?? [:], frames: 10)
        // Per-thread CPU clocks: the stages of all scenes together cannot exceed the CPU the
        // whole process used (a wall clock around parallel or waiting work would).
        let process = try #require(Self.processCPU(run.stderr), "\(run.stderr)")
        let stages = timings.values.reduce(0) { $0 + Self.total($1) }
        #expect(stages <= process + 1, "stages \(stages) ms, process \(process) ms")
        for name in ["slide", "fade", "pictured"] {
            #expect(run.stderr.contains("timings \(name): "), "\(run.stderr)")
        }

        // Up to date: nothing renders, the scene still reports its load time and zero frames.
        let again = try CLI.run(
            ["render", "scenes", "--jobs", "2", "--report", "r2.json"], in: folder)
        #expect(again.status == 0)
        let skipped = try Self.timings(folder + "/r2.json")
        #expect(skipped["slide"]?["frames"] as? Int == 0)
        #expect(skipped["slide"]?["renderCpuMs"] as? Double == 0)
        #expect(!again.stderr.contains("timings"))
    }

    @Test func singleScenePNGFramesAndRange() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(RenderCommandTests.sliding, to: folder + "/slide.yaml")
        let run = try CLI.run(
            [
                "render", "slide.yaml", "--format", "png", "-o", "frames", "--frames", "10-29",
                "--jobs", "3", "--timings", "--report", "r.json",
            ], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let t = try #require(try Self.timings(folder + "/r.json")["slide"])
        Self.check(t, frames: 20)
        #expect(run.stderr.contains("timings slide: 20 frames, CPU ms: load "), "\(run.stderr)")
        let process = try #require(Self.processCPU(run.stderr))
        #expect(Self.total(t) <= process + 1)
    }
}
