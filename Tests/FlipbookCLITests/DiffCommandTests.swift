import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// `flipbook diff` and `flipbook check` end to end: exit codes 0 / 1 / 2, reports, diff
/// images, GIF against PNG folders, goldens recorded and checked.
@Suite struct DiffCommandTests {
    /// 1 s at 10 fps, 40×30: a box slides and changes color, so every frame differs.
    static let scene = """
        version: 1
        canvas: { size: [40, 30], scale: 1, fps: 10, duration: 1, background: white }
        layers:
          - { id: box, frame: [0, 10, 10, 10], backgroundColor: red }
        animations:
          - { layer: box, keyPath: position.x, from: 5, to: 35, duration: 1, curve: linear }
        """

    static func square(color: (UInt8, UInt8, UInt8)) -> Pixmap {
        var p = Pixmap(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (10..<20).contains(x) && (8..<18).contains(y)
                let c = inside ? color : (255, 255, 255)
                let i = (y * 40 + x) * 4
                p.data[i] = c.0; p.data[i + 1] = c.1; p.data[i + 2] = c.2; p.data[i + 3] = 255
            }
        }
        return p
    }

    @Test func exitCodesZeroOneTwo() throws {
        let folder = try CLI.temporaryFolder()
        try PNGCodec.write(Self.square(color: (255, 0, 0)), to: folder + "/a.png")
        try PNGCodec.write(Self.square(color: (0, 0, 255)), to: folder + "/b.png")
        let same = try CLI.run(["diff", "a.png", "a.png"], in: folder)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.hasPrefix("SAME: 1 frame"))
        let different = try CLI.run(["diff", "a.png", "b.png"], in: folder)
        #expect(different.status == 1)
        #expect(
            different.stdout.contains(
                "frame 0 (a.png vs b.png): 100 px differ (8.333%), bbox 10,8 10×10"))
        #expect(different.stdout.contains("DIFFERENT: 1 of 1 paired frame differ"))
        // Tolerances and ignore regions turn it back into 0.
        #expect(
            try CLI.run(["diff", "a.png", "b.png", "--max-diff-pixels", "100"], in: folder).status
                == 0)
        #expect(
            try CLI.run(["diff", "a.png", "b.png", "--max-diff-ratio", "0.05"], in: folder).status
                == 1)
        #expect(
            try CLI.run(
                ["diff", "a.png", "b.png", "--ignore", "10,8,10,5", "--ignore", "0,13,40,17"],
                in: folder
            ).status == 0)
        #expect(
            try CLI.run(["diff", "a.png", "b.png", "--threshold", "1"], in: folder).status == 0)
        // Usage errors and unreadable input: 2.
        for arguments in [
            ["diff", "a.png", "missing.png"], ["diff", "a.png"],
            ["diff", "a.png", "b.png", "--threshold", "x"],
            ["diff", "a.png", "b.png", "--threshold", "2"],
            ["diff", "a.png", "b.png", "--ignore", "1,2,3"],
            ["diff", "a.png", "b.png", "--max-diff-pixels=-1"],
            ["diff", "a.png", "b.png", "--fps", "0"],
        ] {
            let outcome = try CLI.run(arguments, in: folder)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("error"))
        }
        try CLI.write("not an image", to: folder + "/c.png")
        #expect(try CLI.run(["diff", "a.png", "c.png"], in: folder).status == 2)
        // ArgumentParser's own parse errors are usage errors too: 2 for diff and check.
        for arguments in [
            ["diff", "a.png", "b.png", "--nope"], ["check", "scene.yaml", "--golden"],
        ] {
            let outcome = try CLI.run(arguments, in: folder)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func diffDirAndJSON() throws {
        let folder = try CLI.temporaryFolder()
        try PNGCodec.write(Self.square(color: (255, 0, 0)), to: folder + "/a.png")
        try PNGCodec.write(Self.square(color: (0, 0, 255)), to: folder + "/b.png")
        let outcome = try CLI.run(
            ["diff", "a.png", "b.png", "--json", "--diff-dir", "diffs"], in: folder)
        #expect(outcome.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let frame = try #require((object["frames"] as? [[String: Any]])?.first)
        #expect(frame["differingPixels"] as? Int == 100)
        #expect(frame["diffImage"] as? String == "diffs/diff-0000.png")
        let image = try PNGCodec.read(path: folder + "/diffs/diff-0000.png")
        #expect(image.width == 128 && image.height == 30)
    }

    @Test func gifAgainstPNGFolderAndFrameCounts() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        #expect(
            try CLI.run(["render", "s.yaml", "--format", "png", "-o", "frames", "-q"], in: folder)
                .status == 0)
        #expect(try CLI.run(["render", "s.yaml", "-o", "s.gif", "-q"], in: folder).status == 0)
        // Every frame differs, so the GIF keeps all 10: pairs by position, and by time.
        let byPosition = try CLI.run(["diff", "frames", "s.gif"], in: folder)
        #expect(byPosition.status == 0, "\(byPosition.stdout)")
        #expect(byPosition.stdout.hasPrefix("SAME: 10 frames"))
        #expect(try CLI.run(["diff", "s.gif", "frames", "--fps", "10"], in: folder).status == 0)
        // A frame removed: a count mismatch.
        try FileManager.default.removeItem(atPath: folder + "/frames/frame-0009.png")
        let fewer = try CLI.run(["diff", "s.gif", "frames"], in: folder)
        #expect(fewer.status == 1)
        #expect(fewer.stdout.contains("frame count differs: 10 expected, 9 actual"))
        // GIF against itself: delays compared too, and equal.
        #expect(try CLI.run(["diff", "s.gif", "s.gif"], in: folder).status == 0)
    }

    @Test func checkRecordsThenComparesGoldens() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        let missing = try CLI.run(["check", "s.yaml", "--golden", "goldens"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("missing: goldens/frame-0000.png"))
        let record = try CLI.run(
            ["check", "s.yaml", "--golden", "goldens", "--record"], in: folder)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.contains("recorded 10 golden frames"))
        let clean = try CLI.run(["check", "s.yaml", "--golden", "goldens"], in: folder)
        #expect(clean.status == 0, "\(clean.stdout)")
        // An altered golden fails, names the frame and writes its diff image.
        var golden = try PNGCodec.read(path: folder + "/goldens/frame-0003.png")
        for i in stride(from: 0, to: 40 * 4, by: 4) { golden.data[i] = 0; golden.data[i + 1] = 0 }
        try PNGCodec.write(golden, to: folder + "/goldens/frame-0003.png")
        let changed = try CLI.run(
            ["check", "s.yaml", "--golden", "goldens", "--diff-dir", "d"], in: folder)
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("frame 3 (frame-0003.png): 40 px differ"))
        #expect(changed.stdout.contains("→ d/diff-0003.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/d/diff-0003.png"))
        // A range checks only its frames.
        #expect(
            try CLI.run(["check", "s.yaml", "--golden", "goldens", "--frames", "4-9"], in: folder)
                .status == 0)
        // A stale golden beyond the scene's end fails a whole check; recording removes it.
        #expect(
            try CLI.run(["check", "s.yaml", "--golden", "goldens", "--record"], in: folder).status
                == 0)
        try PNGCodec.write(golden, to: folder + "/goldens/frame-0010.png")
        let stale = try CLI.run(["check", "s.yaml", "--golden", "goldens"], in: folder)
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("frame count differs: 11 expected, 10 actual"))
        #expect(
            try CLI.run(["check", "s.yaml", "--golden", "goldens", "--record"], in: folder).status
                == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/goldens/frame-0010.png"))
        #expect(
            try CLI.run(["check", "s.yaml", "--golden", "goldens", "--json"], in: folder).status
                == 0)
        // Usage errors and bad scenes: 2.
        #expect(try CLI.run(["check", "s.yaml"], in: folder).status == 2)
        #expect(
            try CLI.run(["check", "s.yaml", "--golden", "goldens", "--scale", "0"], in: folder)
                .status == 2)
        #expect(try CLI.run(["check", "nope.yaml", "--golden", "goldens"], in: folder).status == 2)
    }
}
