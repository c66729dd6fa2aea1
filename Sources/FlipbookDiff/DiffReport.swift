import Foundation
import FlipbookRaster

/// The human and machine renderings of a ``SequenceDiff``, shared by `flipbook diff`,
/// `flipbook check` and the test helper.
///
/// Text: one line per notable frame (differing pixels, a size or a delay mismatch), then
/// the frame-count mismatch and missing frames if any, then one summary line ending in
/// SAME or DIFFERENT. A frame line reads
///
///     frame 3 (frame-0003.png): 120 px differ (0.450%), bbox 10,12 20×6, PSNR 31.20 dB, 14 AA px not counted → diffs/diff-0003.png
///
/// JSON: an object with `passed`, `expected`, `actual`, `expectedFrames`,
/// `actualFrames`, `missing`, `options` and `frames` (every paired frame, with
/// `differingPixels`, `antiAliasedPixels`, `ratio`, `bbox` {x, y, width, height} or null,
/// `psnr` in dB or null when identical, `passed`, sizes, `delays` when mismatched,
/// `diffImage`).
public enum DiffReport {
    /// The text report, one line per element.
    public static func lines(_ result: SequenceDiff) -> [String] {
        var lines: [String] = []
        for frame in result.frames where frame.isNotable {
            lines.append(line(frame))
        }
        if result.countMismatch {
            lines.append(
                "frame count differs: \(result.expectedCount) expected, \(result.actualCount) actual"
            )
        }
        for name in result.missing { lines.append("missing: \(name)") }
        lines.append(summary(result))
        return lines
    }

    /// The line of one frame.
    public static func line(_ frame: FrameOutcome) -> String {
        var parts: [String] = []
        if frame.sizeMismatch {
            parts.append("size differs: \(frame.expectedSize) expected, \(frame.actualSize) actual")
        }
        if let (e, a) = frame.delayMismatch {
            parts.append("delay differs: \(e) cs expected, \(a) cs actual")
        }
        if let d = frame.diff, d.differingPixels > 0 {
            var text =
                "\(d.differingPixels) px differ (\(percent(d.ratio))), bbox \(d.bounds.map { "\($0)" } ?? "-"), "
                + "PSNR \(decibels(d.psnr))"
            if d.antiAliasedPixels > 0 { text += ", \(d.antiAliasedPixels) AA px not counted" }
            if let w = d.windowDifferingPixels { text += ", \(w) px in the densest window" }
            if d.withinTolerance { text += " (within tolerance)" }
            parts.append(text)
        }
        var line = "frame \(frame.index) (\(frame.label)): " + parts.joined(separator: "; ")
        if let path = frame.diffImagePath { line += " → \(path)" }
        if let error = frame.writeError { line += " (diff image not written: \(error))" }
        return line
    }

    /// "SAME: 12 frames, …" or "DIFFERENT: 2 of 12 frames differ, …".
    public static func summary(_ result: SequenceDiff) -> String {
        let paired = result.frames.count
        let failing = result.failingFrames.count
        let aa = result.totalAntiAliasedPixels
        var text =
            result.passed
            ? "SAME: \(paired) frame\(paired == 1 ? "" : "s") within tolerance"
            : "DIFFERENT: \(failing) of \(paired) paired frame\(paired == 1 ? "" : "s") differ"
        text += ", \(result.totalDifferingPixels) differing px"
        if aa > 0 { text += ", \(aa) AA px not counted" }
        if result.countMismatch {
            text += ", frame count \(result.expectedCount) vs \(result.actualCount)"
        }
        if !result.missing.isEmpty { text += ", \(result.missing.count) missing" }
        return text
    }

    /// A ratio as a percentage with 3 decimals.
    public static func percent(_ ratio: Double) -> String { String(format: "%.3f%%", ratio * 100) }

    /// PSNR with 2 decimals, "∞ dB" when identical.
    public static func decibels(_ psnr: Double) -> String {
        psnr.isFinite ? String(format: "%.2f dB", psnr) : "∞ dB"
    }

    /// The JSON report (pretty-printed, keys sorted).
    public static func json(_ result: SequenceDiff) -> String {
        let report = JSONReport(result)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The JSON shape of a ``SequenceDiff`` (see ``DiffReport``).
struct JSONReport: Encodable {
    struct Frame: Encodable {
        var index: Int
        var expectedName: String
        var actualName: String
        var expectedSize: PixelSize
        var actualSize: PixelSize
        var differingPixels: Int?
        var antiAliasedPixels: Int?
        var ratio: Double?
        var bbox: PixelBounds?
        var psnr: Double?
        var windowDifferingPixels: Int?
        var delays: [Int]?
        var passed: Bool
        var diffImage: String?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(index, forKey: .index)
            try c.encode(expectedName, forKey: .expectedName)
            try c.encode(actualName, forKey: .actualName)
            try c.encode(expectedSize, forKey: .expectedSize)
            try c.encode(actualSize, forKey: .actualSize)
            try c.encode(differingPixels, forKey: .differingPixels)
            try c.encode(antiAliasedPixels, forKey: .antiAliasedPixels)
            try c.encode(ratio, forKey: .ratio)
            try c.encode(bbox, forKey: .bbox)
            try c.encode(psnr, forKey: .psnr)
            try c.encodeIfPresent(windowDifferingPixels, forKey: .windowDifferingPixels)
            try c.encodeIfPresent(delays, forKey: .delays)
            try c.encode(passed, forKey: .passed)
            try c.encode(diffImage, forKey: .diffImage)
        }

        enum Keys: String, CodingKey {
            case index, expectedName, actualName, expectedSize, actualSize, differingPixels,
                antiAliasedPixels
            case ratio, bbox, psnr, windowDifferingPixels, delays, passed, diffImage
        }
    }

    var passed: Bool
    var expected: String
    var actual: String
    var expectedFrames: Int
    var actualFrames: Int
    var missing: [String]
    var options: DiffOptions
    var frames: [Frame]

    init(_ r: SequenceDiff) {
        passed = r.passed
        expected = r.expectedSource
        actual = r.actualSource
        expectedFrames = r.expectedCount
        actualFrames = r.actualCount
        missing = r.missing
        options = r.options
        frames = r.frames.map { f in
            Frame(
                index: f.index, expectedName: f.expectedName, actualName: f.actualName,
                expectedSize: f.expectedSize, actualSize: f.actualSize,
                differingPixels: f.diff?.differingPixels,
                antiAliasedPixels: f.diff?.antiAliasedPixels,
                ratio: f.diff?.ratio, bbox: f.diff?.bounds,
                psnr: f.diff.flatMap { $0.psnr.isFinite ? $0.psnr : nil },
                windowDifferingPixels: f.diff?.windowDifferingPixels,
                delays: f.delayMismatch.map { [$0.expected, $0.actual] }, passed: f.passed,
                diffImage: f.diffImagePath)
        }
    }
}
