import Flipbook
import FlipbookCodecs
import Foundation

/// What happened to one scene in a batch render (one line of the summary, one entry of
/// `--report`).
package struct SceneOutcome: Codable, Sendable {
    package enum Status: String, Codable, Sendable {
        /// Rendered completely on this machine.
        case rendered
        /// Outputs were up to date (same content hash); nothing rendered.
        case skipped
        /// With `--shard`: this machine rendered its frame ranges of the scene (or none).
        case partial
        /// Rendering or writing failed (exit 1).
        case failed
        /// The scene file, an asset or a font has errors (exit 2).
        case invalid
    }

    package var scene: String
    package var name: String
    package var status: Status
    /// Why it failed or is invalid.
    package var reason: String?
    /// Frames rendered (or assembled) by this run.
    package var frames: Int = 0
    package var seconds: Double = 0
    /// Bytes of the outputs written by this run.
    package var bytes: Int = 0
    package var outputs: [String] = []
    package var hash: String?
    /// With `--shard`: the frame ranges this machine rendered, "A-B".
    package var frameRanges: [String]?
    /// CPU time per stage over the scene (absent when the scene could not be loaded).
    package var timings: SceneTimings?

    package init(scene: String, name: String, status: Status, reason: String? = nil) {
        self.scene = scene
        self.name = name
        self.status = status
        self.reason = reason
    }
}

/// The `--report FILE.json` document.
package struct RenderReport: Codable, Sendable {
    package var tool = "flipbook"
    package var rendererVersion = ContentHash.rendererVersion
    package var jobs: Int
    package var shard: String?
    package var wallSeconds: Double
    package var exitCode: Int32
    package var scenes: [SceneOutcome]

    package init(jobs: Int, shard: Shard?, wallSeconds: Double, scenes: [SceneOutcome]) {
        self.jobs = jobs
        self.shard = shard?.description
        self.wallSeconds = wallSeconds
        self.scenes = scenes
        self.exitCode = Self.exitCode(for: scenes)
    }

    /// 2 when a scene is invalid, else 1 when one failed, else 0.
    package static func exitCode(for scenes: [SceneOutcome]) -> Int32 {
        if scenes.contains(where: { $0.status == .invalid }) { return 2 }
        if scenes.contains(where: { $0.status == .failed }) { return 1 }
        return 0
    }

    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        let folder = FileSystem.folder(of: path)
        try FileSystem.makeDirectories(folder)
        try FileIO.writeAtomically(Array(data) + [10], to: path)
    }

    /// The end-of-run table: one line per scene, then the reasons of failures.
    package static func summary(_ scenes: [SceneOutcome], wallSeconds: Double) -> [String] {
        let nameWidth = max(5, scenes.map(\.name.count).max() ?? 5)
        func pad(_ s: String, _ n: Int) -> String {
            s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
        }
        func lpad(_ s: String, _ n: Int) -> String {
            s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
        }
        var lines = [pad("scene", nameWidth) + "  status    frames  seconds        size  output"]
        for s in scenes {
            lines.append(
                pad(s.name, nameWidth) + "  " + pad(s.status.rawValue, 8) + "  "
                    + lpad(String(s.frames), 6) + "  "
                    + lpad(String(format: "%.2f", s.seconds), 7) + "  "
                    + lpad(byteString(s.bytes), 10) + "  "
                    + (s.outputs.first ?? "-"))
        }
        let counts = Dictionary(grouping: scenes, by: \.status).mapValues(\.count)
        let parts = [SceneOutcome.Status.rendered, .partial, .skipped, .failed, .invalid].compactMap
        { st in
            counts[st].map { "\($0) \(st.rawValue)" }
        }
        lines.append(
            "\(scenes.count) scenes: " + parts.joined(separator: ", ") + " in "
                + String(format: "%.2f", wallSeconds) + " s")
        for s in scenes where s.status == .failed || s.status == .invalid {
            lines.append(
                "\(s.status == .invalid ? "invalid" : "FAILED") \(s.scene): \(s.reason ?? "")")
        }
        return lines
    }

    static func byteString(_ n: Int) -> String {
        if n < 10_000 { return "\(n) B" }
        if n < 10_000_000 { return String(format: "%.1f KB", Double(n) / 1000) }
        return String(format: "%.1f MB", Double(n) / 1_000_000)
    }
}
