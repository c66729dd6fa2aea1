import FlipbookRaster

/// Compares two frames of the same size pixel by pixel (pixelmatch's algorithm; see
/// ``ColorDelta``, ``AntiAliasDetector`` and ``DiffOptions`` for the rules).
///
/// Cost: equal pixels cost one 32-bit comparison each, so identical regions are nearly
/// free; only pixels whose words differ pay for Δ, and only those over the threshold for
/// the anti-aliasing test (two 3×3 neighbourhood scans per image).
public enum ImageComparator {
    /// Compares `expected` with `actual`, which must have the same size
    /// (`precondition`). `keepClasses` keeps the per-pixel classification for
    /// ``DiffImage``.
    public static func compare(_ expected: Pixmap, _ actual: Pixmap, options: DiffOptions = DiffOptions(),
                               keepClasses: Bool = false) -> FrameDiff {
        precondition(expected.width == actual.width && expected.height == actual.height, "frame sizes differ")
        let width = expected.width, height = expected.height
        let limit = ColorDelta.limit(threshold: options.threshold)
        let detector = AntiAliasDetector(width: width, height: height)
        let regions = options.ignoreRegions
        var classes = keepClasses ? [UInt8](repeating: PixelClass.same.rawValue, count: width * height) : []
        if keepClasses {
            for r in regions {
                for y in max(0, r.y)..<max(max(0, r.y), min(height, r.y + r.height)) {
                    for x in max(0, r.x)..<max(max(0, r.x), min(width, r.x + r.width)) {
                        classes[y * width + x] = PixelClass.ignored.rawValue
                    }
                }
            }
        }
        var differing = 0, antiAliased = 0
        var squaredError = 0.0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

        expected.data.withUnsafeBytes { rawA in
            actual.data.withUnsafeBytes { rawB in
              rawA.withMemoryRebound(to: UInt32.self) { a in
                rawB.withMemoryRebound(to: UInt32.self) { b in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let p = a[row + x], q = b[row + x]
                        if p == q { continue }
                        if !regions.isEmpty && regions.contains(where: { $0.contains(x: x, y: y) }) { continue }
                        squaredError += squaredDifference(p, q)
                        guard ColorDelta.between(p, q) > limit else { continue }
                        if !options.includeAntiAliased
                            && (detector.isAntiAliased(x: x, y: y, in: a, other: b)
                                || detector.isAntiAliased(x: x, y: y, in: b, other: a)) {
                            antiAliased += 1
                            if keepClasses { classes[row + x] = PixelClass.antiAliased.rawValue }
                            continue
                        }
                        differing += 1
                        if keepClasses { classes[row + x] = PixelClass.differing.rawValue }
                        minX = min(minX, x); maxX = max(maxX, x)
                        minY = min(minY, y); maxY = max(maxY, y)
                    }
                }
                }
              }
            }
        }
        let total = width * height
        let compared = total - ignoredArea(regions, width: width, height: height)
        let mse = compared > 0 ? squaredError / Double(4 * compared) : 0
        let ratio = total > 0 ? Double(differing) / Double(total) : 0
        return FrameDiff(
            width: width, height: height, differingPixels: differing, antiAliasedPixels: antiAliased, ratio: ratio,
            bounds: maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1),
            psnr: mse == 0 ? .infinity : 10 * log10(255 * 255 / mse),
            withinTolerance: options.tolerates(differingPixels: differing, ratio: ratio),
            classes: classes)
    }

    /// Sum of the squared differences of the four channels of two RGBA words.
    @inline(__always)
    static func squaredDifference(_ p: UInt32, _ q: UInt32) -> Double {
        var sum = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            let d = Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)
            sum += d * d
        }
        return Double(sum)
    }

    /// Pixels of the frame covered by at least one region (their union, clipped).
    static func ignoredArea(_ regions: [PixelRect], width: Int, height: Int) -> Int {
        guard !regions.isEmpty else { return 0 }
        var area = 0
        for y in 0..<height {
            // Merge the x-spans of the regions covering this row.
            let spans = regions.filter { y >= $0.y && y < $0.y + $0.height }
                .map { (max(0, $0.x), min(width, $0.x + $0.width)) }
                .filter { $0.0 < $0.1 }
                .sorted { $0.0 < $1.0 }
            var end = 0
            for (lo, hi) in spans where hi > end {
                area += hi - max(lo, end)
                end = hi
            }
        }
        return area
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
