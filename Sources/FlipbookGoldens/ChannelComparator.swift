import Foundation
import FlipbookDiff
import FlipbookRaster

/// ``GoldenComparison/channels(tolerance:maxDifferingPixels:)``: a pixel differs when any of
/// its four premultiplied channels is more than `tolerance` levels from the golden's.
///
/// The counts fill a ``FrameDiff`` as pixelmatch's comparison does (differing pixels, ratio
/// over the frame, bounding box, PSNR over the four channels, a class per pixel for the diff
/// image), with no anti-aliasing excuse: a tolerance is the only allowance.
enum ChannelComparator {
    static func compare(expected: Pixmap, actual: Pixmap, tolerance: Int, maxDifferingPixels: Int)
        -> FrameDiff
    {
        precondition(
            expected.width == actual.width && expected.height == actual.height, "frame sizes differ"
        )
        let count = expected.width * expected.height
        var classes = [UInt8](repeating: PixelClass.same.rawValue, count: count)
        var differing = 0
        var squaredError = 0.0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        expected.data.withUnsafeBufferPointer { a in
            actual.data.withUnsafeBufferPointer { b in
                for i in 0..<count {
                    var worst = 0
                    for c in 0..<4 {
                        let d = Int(a[4 * i + c]) - Int(b[4 * i + c])
                        squaredError += Double(d * d)
                        worst = max(worst, abs(d))
                    }
                    guard worst > tolerance else { continue }
                    differing += 1
                    classes[i] = PixelClass.differing.rawValue
                    let x = i % expected.width, y = i / expected.width
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y);
                    maxY = max(maxY, y)
                }
            }
        }
        let mse = count == 0 ? 0 : squaredError / Double(4 * count)
        let bounds =
            differing == 0
            ? nil : PixelBounds(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        return FrameDiff(
            width: expected.width, height: expected.height, differingPixels: differing,
            antiAliasedPixels: 0, ratio: count == 0 ? 0 : Double(differing) / Double(count),
            bounds: bounds, psnr: mse == 0 ? .infinity : 10 * log10(255 * 255 / mse),
            withinTolerance: differing <= maxDifferingPixels, classes: classes)
    }
}
