import Foundation
import Testing
import FlipbookCodecs

/// `--max-size`: the best GIF under a byte budget, from frames rendered once; an impossible
/// budget exits 1 and writes nothing; batch renders and `assemble` honour it.
@Suite struct MaxSizeTests {
    /// 2 s of a gradient panning under a sliding card: thousands of colors, so quality
    /// has bytes to trade.
    static let panning = """
        version: 1
        canvas: { size: [80, 60], scale: 1, fps: 30, duration: 2, background: white }
        layers:
          - id: sky
            frame: [0, 0, 160, 60]
            gradient: { colors: ["#2b5876", "#4e4376", "#f7971e"], startPoint: [0, 0], endPoint: [1, 1] }
          - { id: card, frame: [5, 20, 30, 20], backgroundColor: white, cornerRadius: 4 }
        animations:
          - { layer: sky, keyPath: position.x, from: 80, to: 0, duration: 2, curve: linear }
          - { layer: card, keyPath: position.x, from: 20, to: 60, duration: 2, curve: easeInEaseOut }
        """

    static func folder() throws -> String {
        let folder = try CLI.temporaryFolder()
        try CLI.write(Self.panning, to: folder + "/pan.yaml")
        return folder
    }

    @Test func halfTheDefaultSizeFitsWithinTenPercent() throws {
        let folder = try Self.folder()
        #expect(try CLI.run(["render", "pan.yaml", "-o", "full.gif"], in: folder).status == 0)
        let full = try FileIO.readAll(path: folder + "/full.gif").count
        let budget = full / 2
        let outcome = try CLI.run(
            ["render", "pan.yaml", "-o", "half.gif", "--max-size", "\(budget)"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let half = try FileIO.readAll(path: folder + "/half.gif")
        #expect(
            half.count <= budget && half.count * 10 >= budget * 9,
            "\(half.count) bytes for a budget of \(budget)")
        let decoded = try GIFReader.decode(half)
        #expect(decoded.delays.reduce(0, +) == 200)
        // Only the GIFs (their hash is inside): no scratch files left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["full.gif", "half.gif", "pan.yaml"])
    }

    @Test func aBudgetThatCannotBeMetWritesNothing() throws {
        let folder = try Self.folder()
        let outcome = try CLI.run(
            ["render", "pan.yaml", "-o", "tiny.gif", "--max-size", "1K"], in: folder)
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "cannot fit in --max-size 1024 bytes: the smallest GIF reached was"),
            "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pan.yaml"])
    }

    @Test(arguments: [["--max-size", "1.5M"], ["--max-size", "0"], ["--max-size", "lots"]])
    func badBudgetsAreRefused(arguments: [String]) throws {
        let folder = try Self.folder()
        let outcome = try CLI.run(["render", "pan.yaml"] + arguments, in: folder)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("max-size"), "\(outcome.stderr)")
    }

    /// The budget travels through the shards' manifest: `assemble` gives the same bytes as
    /// one machine's render with the same budget.
    @Test func batchAndAssembleHonourTheBudget() throws {
        let folder = try CLI.temporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder + "/scenes", withIntermediateDirectories: true)
        try CLI.write(Self.panning, to: folder + "/scenes/pan.yaml")
        try CLI.write(RenderCommandTests.sliding, to: folder + "/scenes/slide.yaml")
        #expect(try CLI.run(["render", "scenes", "-o", "plain"], in: folder).status == 0)
        let budget = try FileIO.readAll(path: folder + "/plain/pan.gif").count * 6 / 10
        let direct = try CLI.run(
            ["render", "scenes", "-o", "direct", "--max-size", "\(budget)"], in: folder)
        #expect(direct.status == 0, "\(direct.stderr)")
        for shard in ["1/2", "2/2"] {
            let outcome = try CLI.run(
                ["render", "scenes", "-o", "shared", "--shard", shard, "--max-size", "\(budget)"],
                in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let assembled = try CLI.run(["assemble", "shared"], in: folder)
        #expect(assembled.status == 0, "\(assembled.stderr)")
        for name in ["pan.gif", "slide.gif"] {
            let a = try FileIO.readAll(path: folder + "/shared/" + name)
            #expect(a == (try FileIO.readAll(path: folder + "/direct/" + name)), "\(name) differs")
            #expect(a.count <= budget)
        }
    }
}
