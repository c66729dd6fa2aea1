import Foundation
import Flipbook
import FlipbookRaster

/// What the one-line test calls (FlipbookTesting's `expectFrames`, FlipbookXCTest's
/// `assertFrames`) share, framework aside: relative paths resolve beside the calling test
/// file, recording follows ``GoldenRecording`` unless the call says, and a failing check
/// writes its HTML report. Each framework layer then records the failure and its evidence.
package enum GoldenExpectation {
    /// Failing frames whose images a test attaches; the HTML report shows them all.
    package static let attachedFrameLimit = 4

    /// The check of `golden` (a folder, relative to the folder of `besideFile` unless absolute).
    package static func check(
        golden: String, besideFile: String, options: GoldenOptions,
        record: Bool?
    ) -> GoldenCheck {
        var check = GoldenCheck(
            goldenFolder: GoldenCheck.folder(golden, besideFile: besideFile),
            diffFolder: options.diffFolder, comparison: options.comparison,
            record: record ?? GoldenRecording.isOn)
        check.writesReport = true
        return check
    }

    /// Every frame of the scene file (or `frames`) against `golden/frame-NNNN.png`.
    package static func frames(
        of scene: String, golden: String, frames: ClosedRange<Int>?, options: GoldenOptions,
        record: Bool?, besideFile: String
    ) throws -> GoldenResult {
        try check(golden: golden, besideFile: besideFile, options: options, record: record)
            .verify(
                scene: GoldenCheck.folder(scene, besideFile: besideFile), scale: options.scale,
                fps: options.fps,
                frames: frames, load: options.load)
    }

    /// The scene file's frame at `seconds` against `golden/<name>.png`.
    package static func frame(
        of scene: String, at seconds: Double, golden: String, named name: String?,
        options: GoldenOptions, record: Bool?, besideFile: String
    ) throws -> GoldenResult {
        try check(golden: golden, besideFile: besideFile, options: options, record: record)
            .verify(
                scene: GoldenCheck.folder(scene, besideFile: besideFile), at: seconds, named: name,
                scale: options.scale, load: options.load)
    }

    /// An image against `golden/<name>.png`.
    package static func frame(
        _ image: Pixmap, golden: String, named name: String, options: GoldenOptions,
        record: Bool?, besideFile: String
    ) throws -> GoldenResult {
        try check(golden: golden, besideFile: besideFile, options: options, record: record)
            .verify(frame: image, named: name, label: name)
    }

    /// The attachments of a failing result: PNGs of the first ``attachedFrameLimit`` failing
    /// frames (expected, actual, difference).
    package static func attachments(of result: GoldenResult) -> [(name: String, bytes: [UInt8])] {
        result.passed ? [] : result.evidence.prefix(attachedFrameLimit).flatMap(\.pngFiles)
    }
}
