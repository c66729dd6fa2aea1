import FlipbookGeometry

/// Gaussian blur of a coverage mask, for layer shadows.
///
/// Algorithm: three successive box blurs whose widths are chosen so that their combined
/// variance equals σ² (the "fast Gaussian" construction: n = 3 boxes of widths wl or
/// wl + 2, wl the largest odd width ≤ √(12σ²/3 + 1)); each box pass is a running sum,
/// so the cost per pixel does not depend on σ. Three boxes match a true Gaussian to
/// within about 1 % of the peak. Work is limited to the mask's bounds grown by 3σ, the
/// reach of the blur, and the result is moved by a whole-pixel offset.
///
/// Radii from hostile files (a shadow softness of 1e5 or 1e308) are bounded by the mask,
/// with the same result:
/// - Vanishing: no pixel of a blur exceeds S / (wx · wy), S the sum of the coverage and
///   wx, wy the widths of the first box on each axis (that box averages at most a whole
///   row or column; later boxes only average). When that bound is under a quarter level
///   every pixel rounds to 0, so the empty mask is the exact result, found without blurring.
/// - Large radii: when the grown region would exceed four times the grid (a σ larger than
///   the mask), the three boxes are applied at once through triple prefix sums (see
///   ``tripleBox(_:radii:at:into:)``), evaluated only at pixels that land on the grid:
///   memory stays within the grid and time within its pixels, whatever σ. Its rounding
///   differs from the running sums' in the last bits only (within one level,
///   `MaskBlurBoundsTests`); the running sums keep every smaller blur's bytes.
extension Mask {
    /// The mask blurred with standard deviation `sigma` (pixels) and moved by
    /// (`dx`, `dy`) whole pixels; pixels moved off the grid are dropped.
    public func blurred(sigma: Double, dx: Int = 0, dy: Int = 0) -> Mask {
        blurredSeparable(sigmaX: sigma, sigmaY: sigma, dx: dx, dy: dy)
    }

    /// The mask blurred with standard deviations `sigmaX` and `sigmaY` (pixels) along the
    /// two axes, moved by (`dx`, `dy`).
    public func blurredSeparable(sigmaX: Double, sigmaY: Double, dx: Int = 0, dy: Int = 0) -> Mask {
        let nothing = Mask(width: width, height: height)
        guard !bounds.isEmpty else { return nothing }
        // Width of the first box per axis, at least (see `vanishes`); NaN blurs nothing.
        let firstX = Self.firstBoxWidth(sigma: sigmaX), firstY = Self.firstBoxWidth(sigma: sigmaY)
        // Cheap check first (every coverage 255): the radii of a larger σ overflow Int.
        if Self.vanishes(sum: 255 * Double(bounds.width) * Double(bounds.height), firstX, firstY) {
            return nothing
        }
        let radiiX = sigmaX > 0.2 ? Self.boxRadii(sigma: sigmaX) : []
        let radiiY = sigmaY > 0.2 ? Self.boxRadii(sigma: sigmaY) : []
        let reachX = radiiX.reduce(0, +), reachY = radiiY.reduce(0, +)
        // The region that can be non-zero after blurring, in source coordinates.
        let region = PixelBounds(
            x0: bounds.x0 - reachX, y0: bounds.y0 - reachY,
            x1: bounds.x1 + reachX, y1: bounds.y1 + reachY)
        if Double(region.width) * Double(region.height) > 4 * Double(max(width * height, 65_536)) {
            guard !Self.vanishes(sum: coverageSum, firstX, firstY) else { return nothing }
            return blurredByPrefixSums(
                radiiX: radiiX, radiiY: radiiY, region: region, dx: dx, dy: dy)
        }
        return blurredByRunningSums(radiiX: radiiX, radiiY: radiiY, region: region, dx: dx, dy: dy)
    }

    /// The blur as three running-sum box passes per axis over `region` (the bounds grown
    /// by the radii), alternating axes.
    func blurredByRunningSums(radiiX: [Int], radiiY: [Int], region: PixelBounds, dx: Int, dy: Int)
        -> Mask
    {
        var out = Mask(width: width, height: height)
        let grid = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        let w = region.width, h = region.height
        var buffer = [Float](repeating: 0, count: w * h)
        for y in bounds.y0..<bounds.y1 {
            for x in bounds.x0..<bounds.x1 {
                buffer[(y - region.y0) * w + (x - region.x0)] = Float(data[y * width + x])
            }
        }
        var scratch = [Float](repeating: 0, count: max(w, h))
        for i in 0..<max(radiiX.count, radiiY.count) {
            if i < radiiX.count {
                for row in 0..<h {
                    // A stop request (Ctrl-C), polled every 64 lines, leaves the mask empty;
                    // the frame it belongs to is discarded.
                    if row & 63 == 63 && RenderCancellation.shared.isCancelled { return out }
                    Self.boxPass(
                        &buffer, start: row * w, stride: 1, count: w, radius: radiiX[i],
                        scratch: &scratch)
                }
            }
            if i < radiiY.count {
                for col in 0..<w {
                    if col & 63 == 63 && RenderCancellation.shared.isCancelled { return out }
                    Self.boxPass(
                        &buffer, start: col, stride: w, count: h, radius: radiiY[i],
                        scratch: &scratch)
                }
            }
        }
        let target = PixelBounds(
            x0: region.x0 + dx, y0: region.y0 + dy, x1: region.x1 + dx, y1: region.y1 + dy
        )
        .intersection(grid)
        guard !target.isEmpty else { return out }
        for y in target.y0..<target.y1 {
            for x in target.x0..<target.x1 {
                let v = buffer[(y - dy - region.y0) * w + (x - dx - region.x0)]
                out.data[y * width + x] = UInt8(min(max(v.rounded(), 0), 255))
            }
        }
        out.bounds = out.tightBounds(within: target)
        return out
    }

    /// The narrowest first box that ``boxRadii(sigma:)`` can give for `sigma` (1 when
    /// nothing is blurred): its width is the odd `lower` ≥ √(4σ² + 1) − 2.
    static func firstBoxWidth(sigma: Double) -> Double {
        sigma > 0.2 ? max(1, (4 * sigma * sigma + 1).squareRoot() - 2) : 1
    }

    /// Whether every pixel of the blur is under a quarter level (so rounds to 0), given
    /// the coverage sum and the first boxes' widths.
    static func vanishes(sum: Double, _ firstX: Double, _ firstY: Double) -> Bool {
        4 * sum < firstX * firstY
    }

    /// The sum of every coverage value.
    var coverageSum: Double {
        var total = 0
        for y in bounds.y0..<bounds.y1 {
            for x in bounds.x0..<bounds.x1 { total += Int(data[y * width + x]) }
        }
        return Double(total)
    }

    /// The blur of a large σ: rows first (every row of the bounds, at the columns that land
    /// on the grid), then those columns (at the rows that land on the grid).
    func blurredByPrefixSums(radiiX: [Int], radiiY: [Int], region: PixelBounds, dx: Int, dy: Int)
        -> Mask
    {
        var out = Mask(width: width, height: height)
        let grid = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        let target = PixelBounds(
            x0: region.x0 + dx, y0: region.y0 + dy, x1: region.x1 + dx, y1: region.y1 + dy
        )
        .intersection(grid)
        guard !target.isEmpty else { return out }
        // Source columns and rows whose results land in `target`.
        let columns = (target.x0 - dx)..<(target.x1 - dx),
            rows = (target.y0 - dy)..<(target.y1 - dy)
        let b = bounds
        var across = [Double](repeating: 0, count: b.height * columns.count)
        var line = [Double](repeating: 0, count: max(b.width, b.height))
        var result = [Double](repeating: 0, count: max(columns.count, rows.count))
        for y in b.y0..<b.y1 {
            for x in b.x0..<b.x1 { line[x - b.x0] = Double(data[y * width + x]) }
            Self.tripleBox(
                line[0..<b.width], radii: radiiX,
                at: (columns.lowerBound - b.x0)..<(columns.upperBound - b.x0),
                into: &result)
            for i in 0..<columns.count { across[(y - b.y0) * columns.count + i] = result[i] }
        }
        for i in 0..<columns.count {
            for y in 0..<b.height { line[y] = across[y * columns.count + i] }
            Self.tripleBox(
                line[0..<b.height], radii: radiiY,
                at: (rows.lowerBound - b.y0)..<(rows.upperBound - b.y0),
                into: &result)
            for j in 0..<rows.count {
                out.data[(rows.lowerBound + j + dy) * width + columns.lowerBound + i + dx] = UInt8(
                    min(max(result[j].rounded(), 0), 255))
            }
        }
        out.bounds = out.tightBounds(within: target)
        return out
    }

    /// Successive box filters of `radii` (zero outside `input`, which starts at position
    /// 0) evaluated at `positions`, into `out` from index 0. A box of radius r is
    /// (P(i + r) − P(i − r − 1)) / (2r + 1) with P the prefix sum, so three boxes are a
    /// signed sum of eight values of the triple prefix sum F, divided by the three widths.
    /// Past the input F grows as a known quadratic, so each position costs the same
    /// whatever the radii: O(input + positions).
    static func tripleBox(
        _ input: ArraySlice<Double>, radii: [Int], at positions: Range<Int>,
        into out: inout [Double]
    ) {
        let n = input.count, base = input.startIndex
        guard radii.count == 3 else {
            // No blur on this axis (boxRadii gives three radii or none): the samples as they are.
            for (index, i) in positions.enumerated() {
                out[index] = i >= 0 && i < n ? input[base + i] : 0
            }
            return
        }
        var f1 = 0.0, f2 = 0.0, f3 = 0.0
        var triple = [Double](repeating: 0, count: n)
        for k in 0..<n {
            f1 += input[base + k]; f2 += f1; f3 += f2
            triple[k] = f3
        }
        // The eight shifts and signs: each box contributes +r or −(r + 1).
        var terms: [(shift: Int, sign: Double)] = [(0, 1)]
        var scale = 1.0
        for r in radii {
            terms = terms.flatMap { [($0.shift + r, $0.sign), ($0.shift - r - 1, -$0.sign)] }
            scale *= Double(2 * r + 1)
        }
        triple.withUnsafeBufferPointer { triple in
            for (index, i) in positions.enumerated() {
                var sum = 0.0
                for t in terms {
                    let j = i + t.shift
                    let value: Double
                    if j < 0 {
                        value = 0
                    } else if j < n {
                        value = triple[j]
                    } else {
                        let k = Double(j - (n - 1))
                        value = f3 + k * f2 + f1 * k * (k + 1) / 2
                    }
                    sum += t.sign * value
                }
                out[index] = sum / scale
            }
        }
    }

    /// Radii of three box filters whose successive application has variance σ².
    static func boxRadii(sigma: Double) -> [Int] {
        let n = 3.0
        var lower = Int((12 * sigma * sigma / n + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        let wl = Double(lower)
        let m = ((12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4)).rounded()
        return (0..<3).map { i in (Double(i) < m ? lower : lower + 2) / 2 }
    }

    /// One running-sum box blur of `count` samples spaced `stride` apart; samples outside
    /// the line count as 0 (the region was grown so that they are).
    private static func boxPass(
        _ line: inout [Float], start: Int, stride: Int, count: Int, radius: Int,
        scratch: inout [Float]
    ) {
        guard radius > 0 else { return }
        let scale = 1 / Float(2 * radius + 1)
        for i in 0..<count { scratch[i] = line[start + i * stride] }
        var sum: Float = 0
        for i in 0..<min(radius, count) { sum += scratch[i] }
        for i in 0..<count {
            let entering = i + radius, leaving = i - radius - 1
            if entering < count { sum += scratch[entering] }
            if leaving >= 0 { sum -= scratch[leaving] }
            line[start + i * stride] = sum * scale
        }
    }
}
