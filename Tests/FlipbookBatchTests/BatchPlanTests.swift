import Foundation
import Testing
@testable import FlipbookBatch

@Suite struct BatchPlanTests {
    @Test func sha256KnownVectors() {
        #expect(
            SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Fed in pieces across block boundaries: the same digest.
        var h = SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for start in stride(from: 0, to: million.count, by: 777) {
            h.update(Array(million[start..<min(start + 777, million.count)]))
        }
        #expect(h.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every frame of every scene is in exactly one unit of exactly one shard, units are
    /// contiguous, long scenes are split, and the plan does not depend on anything else.
    @Test(arguments: [1, 2, 3, 5, 16])
    func shardsCoverEveryFrameOnce(shards: Int) {
        let scenes = [
            RenderPlan.SceneSize(frames: 0...215, pixels: 750 * 1334),
            RenderPlan.SceneSize(frames: 0...119, pixels: 640 * 400),
            RenderPlan.SceneSize(frames: 10...40, pixels: 100),
            RenderPlan.SceneSize(frames: 0...0, pixels: 1),
            RenderPlan.SceneSize(frames: 0...269, pixels: 750 * 1334),
        ]
        let plan = RenderPlan.assign(scenes, shards: shards)
        #expect(plan.map(\.unit) == RenderPlan.assign(scenes, shards: shards).map(\.unit))
        #expect(plan.map(\.shard) == RenderPlan.assign(scenes, shards: shards).map(\.shard))
        for (i, s) in scenes.enumerated() {
            let units = plan.filter { $0.unit.scene == i }.map(\.unit).sorted {
                $0.first < $1.first
            }
            #expect(
                units.first?.first == s.frames.lowerBound && units.last?.last == s.frames.upperBound
            )
            for (a, b) in zip(units, units.dropFirst()) { #expect(b.first == a.last + 1) }
            let expectedPieces =
                shards > 1 && s.frames.count > RenderPlan.splitFrames
                ? min(
                    shards, (s.frames.count + RenderPlan.splitFrames - 1) / RenderPlan.splitFrames)
                : 1
            #expect(units.count == expectedPieces)
        }
        #expect(plan.allSatisfy { (0..<shards).contains($0.shard) })
        if shards <= 5 {
            // Every shard gets work, and the loads are within a unit of each other.
            let loads = (0..<shards).map { s in
                plan.filter { $0.shard == s }.reduce(0) {
                    $0 + $1.unit.frameCount * scenes[$1.unit.scene].pixels
                }
            }
            #expect(loads.allSatisfy { $0 > 0 })
        }
    }

    @Test func shardParsingAndEnvironment() {
        #expect(Shard(parsing: "1/2") == Shard(index: 1, count: 2))
        #expect(
            Shard(parsing: "0/2") == nil && Shard(parsing: "3/2") == nil
                && Shard(parsing: "1") == nil)
        func env(_ e: [String: String]) -> String {
            switch Shard.fromEnvironment(e) {
            case .success(let shard): shard?.description ?? "none"
            case .failure: "error"
            }
        }
        #expect(env([:]) == "none")
        #expect(env(["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "4"]) == "3/4")
        #expect(env(["JOB_COMPLETION_INDEX": "0", "FLIPBOOK_SHARD_TOTAL": "4"]) == "1/4")
        #expect(
            env(["FLIPBOOK_SHARD": "2/3", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"]) == "2/3")
        #expect(env(["JOB_COMPLETION_INDEX": "4", "FLIPBOOK_SHARD_TOTAL": "4"]) == "error")
        #expect(env(["JOB_COMPLETION_INDEX": "0"]) == "error")
        #expect(env(["FLIPBOOK_SHARD": "5"]) == "error")
    }

    @Test func discoveryIsRecursiveSortedAndUnique() throws {
        let root = NSTemporaryDirectory() + "flipbook-discovery-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/b/c", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/.hidden", withIntermediateDirectories: true)
        for name in [
            "a.yaml", "b/z.json", "b/c/y.YML", "b/notes.md", ".hidden/x.yaml", "b/.dot.yaml",
        ] {
            try "x".write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
        }
        let found = SceneDiscovery.discover([
            root, root + "/a.yaml", root + "/b/*.json", root + "/nothing*.yaml",
        ])
        #expect(found.scenes == [root + "/a.yaml", root + "/b/c/y.YML", root + "/b/z.json"])
        #expect(found.missing == [root + "/nothing*.yaml"])
    }

    @Test func contactSheetFramesAreEvenlySpaced() {
        #expect(
            ContactSheet.frameIndices(from: Array(0..<120)) == [
                0, 11, 22, 32, 43, 54, 65, 76, 87, 97, 108, 119,
            ])
        #expect(ContactSheet.frameIndices(from: [3, 4, 5]) == [3, 4, 5])
        #expect(ContactSheet.factor(width: 750, height: 1334) == 7)
    }
}
