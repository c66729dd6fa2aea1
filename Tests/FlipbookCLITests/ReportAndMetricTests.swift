import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// `--metric`, `--checkerboard`, `--window` and `--html` end to end, and `preview`'s
/// refusals (the page itself is driven in Chromium by Tests/Browser).
@Suite struct ReportAndMetricTests {
    /// 40×30 white with a 10×10 square of `color` at (10, 8).
    static func square(_ color: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) -> Pixmap {
        var p = Pixmap(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (10..<20).contains(x) && (8..<18).contains(y)
                let c = inside ? color : (255, 255, 255)
                let i = (y * 40 + x) * 4
                p.data[i] = c.0; p.data[i + 1] = c.1; p.data[i + 2] = c.2;
                p.data[i + 3] = inside ? alpha : 255
            }
        }
        return p
    }

    @Test func metricOptionsChangeTheCounts() throws {
        let folder = try CLI.temporaryFolder()
        // Gray 0 → 23: Lr 0 → 0.103 (> 0.1, differs under OKLab); YIQ Δ = 0.5053·23² = 267 < 352 (same).
        try PNGCodec.write(Self.square((0, 0, 0)), to: folder + "/a.png")
        try PNGCodec.write(Self.square((23, 23, 23)), to: folder + "/b.png")
        let yiq = try CLI.run(["diff", "a.png", "b.png"], in: folder)
        #expect(yiq.status == 0, "\(yiq.stdout)")
        let oklab = try CLI.run(["diff", "a.png", "b.png", "--metric", "oklab"], in: folder)
        #expect(oklab.status == 1)
        #expect(oklab.stdout.contains("100 px differ"))
        // The 100 differing pixels are a dense 10×10 block: a 5×5 window holds 25 of them.
        let window = try CLI.run(
            [
                "diff", "a.png", "b.png", "--metric", "oklab", "--window", "5",
                "--max-diff-pixels", "25",
            ], in: folder)
        #expect(window.status == 0, "\(window.stdout)")
        #expect(window.stdout.contains("25 px in the densest window"))
        #expect(
            try CLI.run(
                [
                    "diff", "a.png", "b.png", "--metric", "oklab", "--window", "6",
                    "--max-diff-pixels", "25",
                ], in: folder
            ).status == 1)
        // Bad values are usage errors (2).
        #expect(try CLI.run(["diff", "a.png", "b.png", "--metric", "lab"], in: folder).status == 2)
        #expect(try CLI.run(["diff", "a.png", "b.png", "--window", "0"], in: folder).status == 2)
        #expect(try CLI.run(["diff", "a.png", "b.png", "--window", "x"], in: folder).status == 2)
    }

    /// A fully transparent square against opaque white: the default black-and-white
    /// backdrop sees it (over black it is black), pixelmatch's checkerboard too.
    @Test func transparentPixelsOverTheBackdrops() throws {
        let folder = try CLI.temporaryFolder()
        try PNGCodec.write(Self.square((255, 255, 255)), to: folder + "/a.png")
        try PNGCodec.write(Self.square((255, 255, 255), alpha: 0), to: folder + "/b.png")
        #expect(
            try CLI.run(["diff", "a.png", "b.png"], in: folder).stdout.contains("100 px differ"))
        #expect(
            try CLI.run(["diff", "a.png", "b.png", "--checkerboard"], in: folder).stdout.contains(
                "100 px differ"))
    }

    @Test func htmlReportOfADiff() throws {
        let folder = try CLI.temporaryFolder()
        try PNGCodec.write(Self.square((255, 0, 0)), to: folder + "/a.png")
        try PNGCodec.write(Self.square((0, 0, 255)), to: folder + "/b.png")
        let out = try CLI.run(["diff", "a.png", "b.png", "--html", "rep"], in: folder)
        #expect(out.status == 1)
        #expect(out.stderr.contains("report: rep/index.html"))
        let html = try String(contentsOfFile: folder + "/rep/index.html", encoding: .utf8)
        #expect(html.contains("FAILED"))
        #expect(html.contains("<td>100</td>"))  // differing pixels
        #expect(html.contains("10,8 10×10"))  // bounding box
        #expect(!html.contains("http://") && !html.contains("https://"))  // nothing fetched
        for name in [
            "frame-0-expected.png", "frame-0-actual.png", "frame-0-diff.png", "thumb-0.png",
        ] {
            #expect(FileManager.default.fileExists(atPath: folder + "/rep/" + name), "\(name)")
        }
        let diff = try PNGCodec.read(path: folder + "/rep/frame-0-diff.png")
        #expect(diff.pixel(x: 12, y: 10) == (255, 0, 0, 255))  // differing: red
        // A passing diff still writes a report, without frame sections.
        let same = try CLI.run(["diff", "a.png", "a.png", "--html", "same"], in: folder)
        #expect(same.status == 0)
        let passed = try String(contentsOfFile: folder + "/same/index.html", encoding: .utf8)
        #expect(passed.contains("PASSED") && !passed.contains("<section"))
    }

    @Test func previewRefusesMissingScenesAndBadPorts() throws {
        let folder = try CLI.temporaryFolder()
        let missing = try CLI.run(["preview", "nope.yaml"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.yaml: no such file"))
        #expect(try CLI.run(["preview", "nope.yaml", "--port", "70000"], in: folder).status == 64)
    }
}
