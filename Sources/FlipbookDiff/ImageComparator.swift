import Dispatch
import Foundation
import FlipbookRaster

/// Compares two frames of the same size pixel by pixel (pixelmatch's algorithm; see
/// ``PixelMetric``, ``AntiAliasDetector`` and ``DiffOptions`` for the rules).
///
/// Cost: equal pixels cost one 32-bit comparison each, so identical regions are nearly
/// free; only pixels whose words differ pay for Δ, and only those over the threshold for
/// the anti-aliasing test (two 3×3 neighbourhood scans per image). Frames of 64 rows or
/// more are scanned in horizontal bands on all cores; the counts are exact integers, so
/// the result does not depend on the banding.
public enum ImageComparator {
    /// Compares `expected` with `actual`, which must have the same size
    /// (`precondition`). `keepClasses` keeps the per-pixel classification for
    /// ``DiffImage``.
    public static func compare(
        _ expected: Pixmap, _ actual: Pixmap, options: DiffOptions = DiffOptions(),
        keepClasses: Bool = false
    ) -> FrameDiff {
        precondition(
            expected.width == actual.width && expected.height == actual.height, "frame sizes differ"
        )
        return compareWords(
            expected.data, actual.data, width: expected.width, height: expected.height,
            premultiplied: true, options: options, keepClasses: keepClasses)
    }

    /// Compares two images given as straight-alpha RGBA bytes (as PNG files hold them and
    /// pixelmatch reads them), `width · height · 4` bytes each (`precondition`). Opaque
    /// pixels compare exactly as in ``compare(_:_:options:keepClasses:)``.
    public static func compare(
        straightRGBA expected: [UInt8], _ actual: [UInt8], width: Int, height: Int,
        options: DiffOptions = DiffOptions(), keepClasses: Bool = false
    ) -> FrameDiff {
        precondition(
            expected.count == width * height * 4 && actual.count == expected.count,
            "pixel data size")
        return compareWords(
            expected, actual, width: width, height: height, premultiplied: false, options: options,
            keepClasses: keepClasses)
    }

    static func compareWords(
        _ expected: [UInt8], _ actual: [UInt8], width: Int, height: Int, premultiplied: Bool,
        options: DiffOptions, keepClasses: Bool
    ) -> FrameDiff {
        let metric = PixelMetric(
            metric: options.metric, backdrop: options.backdrop, premultiplied: premultiplied,
            threshold: options.threshold)
        let regions = options.ignoreRegions
        // The window count needs the differing pixels' positions: classes are kept for it.
        let keep = keepClasses || options.window != nil
        var classes =
            keep ? [UInt8](repeating: PixelClass.same.rawValue, count: width * height) : []
        if keep {
            for r in regions {
                for y in max(0, r.y)..<max(max(0, r.y), min(height, r.y + r.height)) {
                    for x in max(0, r.x)..<max(max(0, r.x), min(width, r.x + r.width)) {
                        classes[y * width + x] = PixelClass.ignored.rawValue
                    }
                }
            }
        }
        // Horizontal bands scanned in parallel (one band for small frames), then summed.
        let bandCount = min(height / 64, 4 * ProcessInfo.processInfo.activeProcessorCount)
        var bands = [Band](repeating: Band(), count: max(1, bandCount))
        let context = Scan(
            width: width, height: height, metric: metric, regions: regions,
            includeAntiAliased: options.includeAntiAliased)
        expected.withUnsafeBytes { rawA in
            actual.withUnsafeBytes { rawB in
                rawA.withMemoryRebound(to: UInt32.self) { a in
                    rawB.withMemoryRebound(to: UInt32.self) { b in
                        classes.withUnsafeMutableBufferPointer { kept in
                            bands.withUnsafeMutableBufferPointer { out in
                                nonisolated(unsafe) let (a, b, kept, out) = (a, b, kept, out)
                                let n = out.count
                                DispatchQueue.concurrentPerform(iterations: n) { i in
                                    out[i] = context.scan(
                                        rows: (height * i / n)..<(height * (i + 1) / n),
                                        a, b, classes: kept)
                                }
                            }
                        }
                    }
                }
            }
        }
        let differing = bands.reduce(0) { $0 + $1.differing }
        let antiAliased = bands.reduce(0) { $0 + $1.antiAliased }
        let squaredError = Double(bands.reduce(0) { $0 + $1.squaredError })
        let minX = bands.map(\.minX).min()!, maxX = bands.map(\.maxX).max()!
        let minY = bands.map(\.minY).min()!, maxY = bands.map(\.maxY).max()!
        let total = width * height
        let compared = total - ignoredArea(regions, width: width, height: height)
        let mse = compared > 0 ? squaredError / Double(4 * compared) : 0
        let ratio = total > 0 ? Double(differing) / Double(total) : 0
        var windowCount: Int?
        var tolerated = options.tolerates(differingPixels: differing, ratio: ratio)
        if let n = options.window {
            let count = WindowCount.largest(classes, width: width, height: height, window: n)
            let side = WindowCount.side(window: n, width: width, height: height)
            let area = side * side
            windowCount = count
            tolerated = options.tolerates(
                differingPixels: count, ratio: area > 0 ? Double(count) / Double(area) : 0)
        }
        return FrameDiff(
            width: width, height: height, differingPixels: differing,
            antiAliasedPixels: antiAliased, ratio: ratio,
            bounds: maxX < 0
                ? nil
                : PixelBounds(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1),
            psnr: mse == 0 ? .infinity : 10 * log10(255 * 255 / mse),
            withinTolerance: tolerated, classes: keepClasses ? classes : [],
            windowDifferingPixels: windowCount)
    }

    /// Sum of the squared differences of the four channels of two RGBA words.
    @inline(__always)
    static func squaredDifference(_ p: UInt32, _ q: UInt32) -> Int {
        let d0 = Int(p & 0xFF) - Int(q & 0xFF), d1 = Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF)
        let d2 = Int((p >> 16) & 0xFF) - Int((q >> 16) & 0xFF), d3 = Int(p >> 24) - Int(q >> 24)
        return d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3
    }

    /// Counts of one band of rows.
    struct Band {
        var differing = 0, antiAliased = 0, squaredError = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    }

    /// The settings of one comparison, shared by its bands.
    struct Scan: Sendable {
        let width: Int, height: Int
        let metric: PixelMetric
        let regions: [PixelBounds]
        let includeAntiAliased: Bool

        /// Compares `rows`, classifying into `classes` when it is not empty.
        func scan(
            rows: Range<Int>, _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>,
            classes: UnsafeMutableBufferPointer<UInt8>
        ) -> Band {
            let detector = AntiAliasDetector(width: width, height: height, metric: metric)
            let keep = !classes.isEmpty
            var band = Band()
            guard let pa = a.baseAddress, let pb = b.baseAddress else { return band }
            for y in rows {
                let row = y * width
                // Identical rows (most rows of most regression diffs) cost one memcmp.
                if memcmp(pa + row, pb + row, width * 4) == 0 { continue }
                for x in 0..<width {
                    let p = a[row + x], q = b[row + x]
                    if p == q { continue }
                    if !regions.isEmpty && regions.contains(where: { $0.contains(x: x, y: y) }) {
                        continue
                    }
                    band.squaredError += squaredDifference(p, q)
                    guard metric.differs(p, q, index: row + x) else { continue }
                    if !includeAntiAliased
                        && (detector.isAntiAliased(x: x, y: y, in: a, other: b)
                            || detector.isAntiAliased(x: x, y: y, in: b, other: a))
                    {
                        band.antiAliased += 1
                        if keep { classes[row + x] = PixelClass.antiAliased.rawValue }
                        continue
                    }
                    band.differing += 1
                    if keep { classes[row + x] = PixelClass.differing.rawValue }
                    band.minX = min(band.minX, x); band.maxX = max(band.maxX, x)
                    band.minY = min(band.minY, y); band.maxY = max(band.maxY, y)
                }
            }
            return band
        }
    }

    /// Pixels of the frame covered by at least one region (their union, clipped).
    static func ignoredArea(_ regions: [PixelBounds], width: Int, height: Int) -> Int {
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
