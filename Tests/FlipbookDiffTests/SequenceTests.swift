import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster
@testable import FlipbookDiff

/// Sequences: pairing, count/size/delay mismatches, diff images, loading inputs, reports.
@Suite struct SequenceTests {
    static func frames(_ colors: [(UInt8, UInt8, UInt8)], delays: [Int]? = nil) -> FrameSequence {
        FrameSequence(
            source: "test", frames: colors.map { solid(8, 6, $0) },
            names: colors.indices.map { "f\($0)" }, delays: delays)
    }

    @Test func frameCountMismatchFails() {
        let a = Self.frames([(0, 0, 0), (9, 9, 9), (200, 0, 0)])
        let b = Self.frames([(0, 0, 0), (9, 9, 9)])
        let r = SequenceComparator.compare(expected: a, actual: b)
        #expect(r.frames.count == 2)
        #expect(r.frames.allSatisfy { $0.passed })
        #expect(r.countMismatch && !r.passed)
        #expect(DiffReport.lines(r).contains("frame count differs: 3 expected, 2 actual"))
    }

    @Test func sizeAndDelayMismatchesAreReportedAsSuch() {
        let a = FrameSequence(
            source: "a", frames: [solid(8, 6, (0, 0, 0)), solid(8, 6, (0, 0, 0))],
            names: ["#0", "#1"], delays: [3, 4])
        let b = FrameSequence(
            source: "b", frames: [solid(9, 6, (0, 0, 0)), solid(8, 6, (0, 0, 0))],
            names: ["#0", "#1"], delays: [3, 3])
        let r = SequenceComparator.compare(expected: a, actual: b)
        #expect(r.frames[0].sizeMismatch && r.frames[0].diff == nil)
        #expect(r.frames[1].delayMismatch! == (4, 3))
        let lines = DiffReport.lines(r)
        #expect(lines[0] == "frame 0 (#0): size differs: 8×6 expected, 9×6 actual")
        #expect(lines[1] == "frame 1 (#1): delay differs: 4 cs expected, 3 cs actual")
        #expect(lines.last!.hasPrefix("DIFFERENT: 2 of 2"))
    }

    @Test func diffImageIsExpectedHighlightActual() throws {
        var b = solid(8, 6, (255, 255, 255))
        paint(&b, x: 2, y: 1, w: 3, h: 2, (0, 0, 255))
        let a = FrameSequence(source: "a", frames: [solid(8, 6, (255, 255, 255))], names: ["x.png"])
        let folder = NSTemporaryDirectory() + "flipbook-diff-" + UUID().uuidString
        let r = SequenceComparator.compare(
            expected: a, actual: FrameSequence(source: "b", frames: [b], names: ["x.png"]),
            diffFolder: folder)
        #expect(r.frames[0].diff?.differingPixels == 6)
        let path = try #require(r.frames[0].diffImagePath)
        #expect(path == folder + "/diff-0000.png")
        let image = try PNGCodec.read(path: path)
        #expect(image.width == 3 * 8 + 2 * DiffImage.gap && image.height == 6)
        let mid = 8 + DiffImage.gap
        #expect(image.pixel(x: mid + 2, y: 1) == (255, 0, 0, 255))  // differing: red
        #expect(image.pixel(x: mid, y: 0) == (255, 255, 255, 255))  // same, white faded
        #expect(image.pixel(x: 2 * mid + 3, y: 2) == (0, 0, 255, 255))  // actual panel
        #expect(image.pixel(x: 3, y: 2) == (255, 255, 255, 255))  // expected panel
        #expect(DiffReport.lines(r)[0].hasSuffix("→ \(path)"))
    }

    @Test func gifSamplingPairsByTime() throws {
        // Delays 100 ms and 50 ms at 20 fps (50 ms per tick): ticks 0, 50, 100 → frames 0, 0, 1.
        let gif = Self.frames([(1, 1, 1), (2, 2, 2)], delays: [100, 50])
        let sampled = try gif.sampled(fps: 20)
        #expect(sampled.count == 3)
        #expect(sampled.frames[0] == gif.frames[0] && sampled.frames[1] == gif.frames[0])
        #expect(sampled.frames[2] == gif.frames[1])
        #expect(sampled.delays == nil)
        #expect(sampled.names == ["f0@0", "f0@1", "f1@2"])
    }

    /// Two frames of 65535 s (the longest APNG delay) at 30 fps are 3.9 million ticks: refused
    /// with the limit's name before any is made (ten such frames hung `diff --fps 30` for
    /// over a minute; found reading the sampling for the fuzz round of issue 22).
    @Test func samplingMoreTicksThanTheLimitIsRefused() throws {
        let long = Self.frames([(1, 1, 1), (2, 2, 2)], delays: [65_535_000, 65_535_000])
        #expect {
            try long.sampled(fps: 30)
        } throws: { error in
            guard
                case .tooManyFrames(_, 131_070_000, 3_932_100, 30, 10_000) = error
                    as? FrameSourceError
            else { return false }
            return "\(error)".hasSuffix(
                "131070000 ms, 3932100 frames at 30.0 fps; more than 10000, the frame limit")
        }
        // At the limit exactly: read; one tick over: refused.
        let second = Self.frames([(1, 1, 1)], delays: [1000])
        #expect(try second.sampled(fps: 30, maxFrames: 30).count == 30)
        #expect(throws: FrameSourceError.self) { try second.sampled(fps: 31, maxFrames: 30) }
    }

    @Test func loadsPNGFolderAndGIFAndRejectsOthers() throws {
        let folder = NSTemporaryDirectory() + "flipbook-seq-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: folder + "/frames", withIntermediateDirectories: true)
        try PNGCodec.write(solid(4, 4, (1, 2, 3)), to: folder + "/frames/frame-0001.png")
        try PNGCodec.write(solid(4, 4, (4, 5, 6)), to: folder + "/frames/frame-0000.png")
        let seq = try FrameSequence.load(folder + "/frames")
        #expect(seq.names == ["frame-0000.png", "frame-0001.png"])
        #expect(seq.frames[0].pixel(x: 0, y: 0) == (4, 5, 6, 255))
        let single = try FrameSequence.load(folder + "/frames/frame-0001.png")
        #expect(single.count == 1 && single.delays == nil)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: folder + "/text.png"))
        #expect(throws: FrameSourceError.self) { try FrameSequence.load(folder + "/text.png") }
        #expect(throws: FrameSourceError.self) { try FrameSequence.load(folder + "/none") }
        try FileManager.default.createDirectory(
            atPath: folder + "/empty", withIntermediateDirectories: true)
        #expect(throws: FrameSourceError.self) { try FrameSequence.load(folder + "/empty") }
    }

    @Test func jsonReportCarriesCountsAndNullPSNRForIdentical() throws {
        let a = Self.frames([(0, 0, 0), (9, 9, 9)])
        let b = Self.frames([(0, 0, 0), (90, 90, 90)])
        let text = DiffReport.json(SequenceComparator.compare(expected: a, actual: b))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames[0]["psnr"] is NSNull)
        #expect(frames[1]["differingPixels"] as? Int == 48)
        #expect((frames[1]["bbox"] as? [String: Int]) == ["x": 0, "y": 0, "width": 8, "height": 6])
    }
}
