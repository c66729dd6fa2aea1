import FlipbookGeometry

/// Gaussian blur of a coverage mask, for layer shadows.
///
/// Algorithm: three successive box blurs whose widths are chosen so that their combined
/// variance equals σ² (the "fast Gaussian" construction: n = 3 boxes of widths wl or
/// wl + 2, wl the largest odd width ≤ √(12σ²/3 + 1)); each box pass is a running sum,
/// so the cost per pixel does not depend on σ. Three boxes match a true Gaussian to
/// within about 1 % of the peak. Work is limited to the mask's bounds grown by 3σ, the
/// reach of the blur, and the result is moved by a whole-pixel offset.
extension Mask {
    /// The mask blurred with standard deviation `sigma` (pixels) and moved by
    /// (`dx`, `dy`) whole pixels; pixels moved off the grid are dropped.
    public func blurred(sigma: Double, dx: Int = 0, dy: Int = 0) -> Mask {
        blurredSeparable(sigmaX: sigma, sigmaY: sigma, dx: dx, dy: dy)
    }

    /// The mask blurred with standard deviations `sigmaX` and `sigmaY` (pixels) along the
    /// two axes, moved by (`dx`, `dy`).
    public func blurredSeparable(sigmaX: Double, sigmaY: Double, dx: Int = 0, dy: Int = 0) -> Mask {
        var out = Mask(width: width, height: height)
        guard !bounds.isEmpty else { return out }
        let radiiX = sigmaX > 0.2 ? Self.boxRadii(sigma: sigmaX) : []
        let radiiY = sigmaY > 0.2 ? Self.boxRadii(sigma: sigmaY) : []
        let reachX = radiiX.reduce(0, +), reachY = radiiY.reduce(0, +)
        // The region that can be non-zero after blurring, in source coordinates.
        let grid = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        let region = PixelBounds(x0: bounds.x0 - reachX, y0: bounds.y0 - reachY,
                                 x1: bounds.x1 + reachX, y1: bounds.y1 + reachY)
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
                    Self.boxPass(&buffer, start: row * w, stride: 1, count: w, radius: radiiX[i], scratch: &scratch)
                }
            }
            if i < radiiY.count {
                for col in 0..<w {
                    if col & 63 == 63 && RenderCancellation.shared.isCancelled { return out }
                    Self.boxPass(&buffer, start: col, stride: w, count: h, radius: radiiY[i], scratch: &scratch)
                }
            }
        }
        let target = PixelBounds(x0: region.x0 + dx, y0: region.y0 + dy, x1: region.x1 + dx, y1: region.y1 + dy)
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
    private static func boxPass(_ line: inout [Float], start: Int, stride: Int, count: Int, radius: Int,
                                scratch: inout [Float]) {
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
