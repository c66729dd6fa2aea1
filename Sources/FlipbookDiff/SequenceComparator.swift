import Dispatch
import Foundation
import FlipbookCodecs
import FlipbookRaster

/// Compares two ``FrameSequence``s frame by frame, in parallel, and optionally writes a
/// side-by-side ``DiffImage`` per frame with differing pixels.
///
/// Rules:
/// - frames pair by position (0 with 0, …); the shorter count bounds the pairs, and a
///   count mismatch is reported as such (see ``SequenceDiff``);
/// - a pair of different sizes is a size mismatch, not compared pixel by pixel;
/// - delays are compared only when both inputs carry them (GIF against GIF);
/// - the diff image of pair i is `diffFolder/diff-NNNN.png` (i, 4 digits at least),
///   written for every pair with differing pixels (within tolerance or not).
public enum SequenceComparator {
    public static func compare(
        expected: FrameSequence, actual: FrameSequence, options: DiffOptions = DiffOptions(),
        diffFolder: String? = nil
    ) -> SequenceDiff {
        let pairs = min(expected.count, actual.count)
        if let diffFolder {
            // A folder that cannot be made shows up as a write error on each diff image.
            try? FileManager.default.createDirectory(
                atPath: diffFolder, withIntermediateDirectories: true)
        }
        var outcomes = [FrameOutcome?](repeating: nil, count: pairs)
        outcomes.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: pairs) { i in
                slots[i] = comparePair(
                    index: i, expected: expected[i], actual: actual[i], options: options,
                    diffFolder: diffFolder)
            }
        }
        return SequenceDiff(
            expectedSource: expected.source, actualSource: actual.source,
            expectedCount: expected.count, actualCount: actual.count, options: options,
            frames: outcomes.map { $0! })
    }

    /// The file name of the diff image of pair `index`.
    public static func diffImageName(index: Int) -> String {
        let digits = String(index)
        return "diff-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// Compares one pair of frames (and writes its diff image when asked and needed, named
    /// `diffImageName`, by default ``diffImageName(index:)``).
    public static func comparePair(
        index: Int, expected: NamedFrame, actual: NamedFrame, options: DiffOptions,
        diffFolder: String?, diffImageName name: String? = nil
    ) -> FrameOutcome {
        let a = expected.image, b = actual.image
        var delays: (Int, Int)?
        if let da = expected.delay, let db = actual.delay, da != db { delays = (da, db) }
        let sameSize = a.width == b.width && a.height == b.height
        let diff =
            sameSize
            ? ImageComparator.compare(a, b, options: options, keepClasses: diffFolder != nil) : nil
        var outcome = FrameOutcome(
            index: index, expectedName: expected.name, actualName: actual.name,
            expectedSize: PixelSize(width: a.width, height: a.height),
            actualSize: PixelSize(width: b.width, height: b.height), diff: diff,
            delayMismatch: delays)
        if var kept = diff {
            if let diffFolder, kept.differingPixels > 0 {
                let path = diffFolder + "/" + (name ?? diffImageName(index: index))
                do {
                    try PNGCodec.write(
                        DiffImage.sideBySide(expected: a, actual: b, diff: kept), to: path)
                    outcome.diffImagePath = path
                } catch {
                    outcome.writeError = error.message
                }
            }
            kept.classes = []
            outcome.diff = kept
        }
        return outcome
    }
}
