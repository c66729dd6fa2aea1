/// The largest number of differing pixels in any N×N window of a frame (pixelmatch's
/// `windowSize`), from the per-pixel classes of a comparison.
///
/// The window is N clipped to the frame's width and height, placed at every position
/// where it lies wholly inside the frame; with N at most the frame's size every clipped
/// window at the border is inside some whole window, so this is also the largest count
/// over windows overhanging the border. A summed-area table makes it O(width · height).
enum WindowCount {
    static func largest(_ classes: [UInt8], width: Int, height: Int, window: Int) -> Int {
        guard width > 0, height > 0, classes.count == width * height else { return 0 }
        let nw = min(window, width), nh = min(window, height)
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
                let count = sums[(y + nh) * stride + x + nw] - sums[y * stride + x + nw]
                    - sums[(y + nh) * stride + x] + sums[y * stride + x]
                best = max(best, count)
            }
        }
        return Int(best)
    }
}
