import Foundation
import Testing

/// `flipbook check --golden x.png|x.webp|x.gif`: one animation file as the golden, recorded
/// and compared with the exit codes of a folder of goldens.
@Suite struct CheckAnimationGoldenTests {
    static let scene = """
        version: 1
        canvas: { size: [40, 30], scale: 1, fps: 10, duration: 0.4, background: white }
        layers:
          - { id: box, frame: [0, 10, 10, 10], backgroundColor: red }
        animations:
          - { layer: box, keyPath: position.x, from: 5, to: 35, duration: 0.4, curve: linear }
        """

    @Test(arguments: ["g.png", "g.webp", "g.gif"])
    func recordThenCompare(golden: String) throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        let record = try CLI.run(["check", "s.yaml", "--golden", golden, "--record"], in: folder)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.contains("recorded 4 golden frames in \(golden)"), "\(record.stdout)")

        let same = try CLI.run(["check", "s.yaml", "--golden", golden], in: folder)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")

        try CLI.write(
            Self.scene.replacingOccurrences(of: "red", with: "blue"), to: folder + "/s.yaml")
        let changed = try CLI.run(
            ["check", "s.yaml", "--golden", golden, "--html", "report"], in: folder)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/report/index.html"))
    }

    @Test func aFrameRangeIsAUsageError() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.scene, to: folder + "/s.yaml")
        let partial = try CLI.run(
            ["check", "s.yaml", "--golden", "g.png", "--record", "--frames", "0-1"], in: folder)
        #expect(partial.status == 2, "\(partial.stderr)")
        #expect(partial.stderr.contains("g.png is an animation golden"), "\(partial.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/g.png"))
    }
}
