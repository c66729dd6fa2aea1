/// The largest number of differing pixels in any N×N window of a frame (pixelmatch's
/// `windowSize`), from the per-pixel classes of a comparison.
///
/// The window is a square of side ``side(window:width:height:)`` (N clamped to the frame's
/// smaller side, as pixelmatch main clamps it), placed at every position where it lies
/// wholly inside the frame; every window overhanging the border holds no more than some
/// window inside, so this is also the largest count over those. A summed-area table makes
/// it O(width · height).
enum WindowCount {
    /// The side of the square window: N, at least 1, at most the frame's smaller side.
    static func side(window: Int, width: Int, height: Int) -> Int {
        max(1, min(window, width, height))
    }

    static func largest(_ classes: [UInt8], width: Int, height: Int, window: Int) -> Int {
        guard width > 0, height > 0, classes.count == width * height else { return 0 }
        let nw = side(window: window, width: width, height: height), nh = nw
        let stride = width + 1
        var sums = [Int32](repeating: 0, count: stride * (height + 1))
        let differing = PixelClass.differing.rawValue
        for y in 0..<height {
            var run: Int32 = 0
            for x in 0..<width {
                if classes[y * width + x] == differing { run += 1 }
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + run
            }
        }
        var best: Int32 = 0
        for y in 0...(height - nh) {
            for x in 0...(width - nw) {
                let count =
                    sums[(y + nh) * stride + x + nw] - sums[y * stride + x + nw]
                    - sums[(y + nh) * stride + x] + sums[y * stride + x]
                best = max(best, count)
            }
        }
        return Int(best)
    }
}
