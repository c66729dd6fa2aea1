/// Xiaolin Wu's variance-minimizing color quantizer ("Efficient Statistical Computations for
/// Optimal Color Quantization", Graphics Gems II, 1991), in a weighted RGB space.
///
/// Colors are binned at 5 bits per channel into a 33×33×33 table (index 0 is padding) that
/// holds, per cell, the pixel count, the sums of the full 8-bit channel values and the
/// weighted sum of squares. After 3-D prefix sums, any box's moments cost 8 lookups, so the
/// algorithm repeatedly splits the box with the largest weighted variance at the plane (on
/// any axis) that minimizes the summed variance of the two halves. Box means are the palette.
///
/// The variance is weighted per channel (``ColorQuantizer/weights``: green counts most,
/// blue least) as a cheap stand-in for perceptual distance.
struct WuQuantizer {
    static let side = 33
    private var wt: [Int]
    private var mr: [Int]
    private var mg: [Int]
    private var mb: [Int]
    private var m2: [Double]

    /// The non-empty cells before the prefix sums: count and channel sums (for k-means).
    private(set) var cells: [ColorCell] = []

    private struct Box {
        var lower: (Int, Int, Int)
        var upper: (Int, Int, Int)
        subscript(bound upper: Bool, dir: Int) -> Int {
            get {
                let t = upper ? self.upper : lower
                return dir == 0 ? t.0 : dir == 1 ? t.1 : t.2
            }
            set {
                if upper {
                    if dir == 0 {
                        self.upper.0 = newValue
                    } else if dir == 1 {
                        self.upper.1 = newValue
                    } else {
                        self.upper.2 = newValue
                    }
                } else {
                    if dir == 0 {
                        lower.0 = newValue
                    } else if dir == 1 {
                        lower.1 = newValue
                    } else {
                        lower.2 = newValue
                    }
                }
            }
        }
        var volume: Int { (upper.0 - lower.0) * (upper.1 - lower.1) * (upper.2 - lower.2) }
    }

    private struct Moments {
        var w = 0, r = 0, g = 0, b = 0
        /// Weighted squared length of the channel sums.
        var weightedSquare: Double {
            let k = ColorQuantizer.weights
            return Double(k.r) * Double(r) * Double(r) + Double(k.g) * Double(g) * Double(g)
                + Double(k.b) * Double(b) * Double(b)
        }
        static func - (a: Moments, b: Moments) -> Moments {
            Moments(w: a.w - b.w, r: a.r - b.r, g: a.g - b.g, b: a.b - b.b)
        }
    }

    @inline(__always) private static func index(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r * side + g) * side + b
    }

    /// Bins the opaque pixels (packed 0x00BBGGRR; pixels with a non-zero top byte, and `hidden` ones, are skipped).
    init(pixels: PackedPixels, hidden: UnsafeBufferPointer<Bool>? = nil) {
        let n = Self.side * Self.side * Self.side
        var wt = [Int](repeating: 0, count: n), mr = wt, mg = wt, mb = wt
        var m2 = [Double](repeating: 0, count: n)
        let k = ColorQuantizer.weights
        wt.withUnsafeMutableBufferPointer { wt in
            mr.withUnsafeMutableBufferPointer { mr in
                mg.withUnsafeMutableBufferPointer { mg in
                    mb.withUnsafeMutableBufferPointer { mb in
                        m2.withUnsafeMutableBufferPointer { m2 in
                            ColorQuantizer.forEachOpaqueRun(pixels, hidden: hidden) { p, run in
                                let r = Int(p & 0xFF), g = Int((p >> 8) & 0xFF),
                                    b = Int((p >> 16) & 0xFF)
                                let c = Self.index((r >> 3) + 1, (g >> 3) + 1, (b >> 3) + 1)
                                wt[c] += run
                                mr[c] += r * run
                                mg[c] += g * run
                                mb[c] += b * run
                                m2[c] += Double((k.r * r * r + k.g * g * g + k.b * b * b) * run)
                            }
                        }
                    }
                }
            }
        }
        var cells: [ColorCell] = []
        for c in 0..<n where wt[c] > 0 {
            cells.append(ColorCell(count: wt[c], sumR: mr[c], sumG: mg[c], sumB: mb[c]))
        }
        self.cells = cells
        self.wt = wt; self.mr = mr; self.mg = mg; self.mb = mb; self.m2 = m2
        cumulate()
    }

    /// 3-D prefix sums: cell (r, g, b) becomes the total of all cells ≤ it on every axis.
    private mutating func cumulate() {
        let s = Self.side
        for axis in 0..<3 {
            let stride = axis == 0 ? s * s : axis == 1 ? s : 1
            for r in (axis == 0 ? 2 : 1)..<s {
                for g in (axis == 1 ? 2 : 1)..<s {
                    for b in (axis == 2 ? 2 : 1)..<s {
                        let c = Self.index(r, g, b)
                        wt[c] += wt[c - stride]
                        mr[c] += mr[c - stride]
                        mg[c] += mg[c - stride]
                        mb[c] += mb[c - stride]
                        m2[c] += m2[c - stride]
                    }
                }
            }
        }
    }

    @inline(__always) private func corners<T: AdditiveArithmetic>(_ box: Box, _ m: [T]) -> T {
        let (r0, g0, b0) = box.lower, (r1, g1, b1) = box.upper
        let plus =
            m[Self.index(r1, g1, b1)] + m[Self.index(r1, g0, b0)] + m[Self.index(r0, g1, b0)]
            + m[Self.index(r0, g0, b1)]
        let minus =
            m[Self.index(r1, g1, b0)] + m[Self.index(r1, g0, b1)] + m[Self.index(r0, g1, b1)]
            + m[Self.index(r0, g0, b0)]
        return plus - minus
    }

    private func moments(_ box: Box) -> Moments {
        Moments(w: corners(box, wt), r: corners(box, mr), g: corners(box, mg), b: corners(box, mb))
    }

    private func variance(_ box: Box) -> Double {
        let m = moments(box)
        guard m.w > 0 else { return 0 }
        return corners(box, m2) - m.weightedSquare / Double(m.w)
    }

    /// The best cut plane on `dir` and its score (larger is better), or nil if none splits.
    private func maximize(_ box: Box, dir: Int, whole: Moments) -> (cut: Int, score: Double)? {
        var best: (cut: Int, score: Double)?
        let first = box[bound: false, dir] + 1, last = box[bound: true, dir]
        guard first < last else { return nil }
        for i in first..<last {
            var half = box
            half[bound: true, dir] = i
            let a = moments(half)
            if a.w == 0 { continue }
            let b = whole - a
            if b.w == 0 { continue }
            let score = a.weightedSquare / Double(a.w) + b.weightedSquare / Double(b.w)
            if best == nil || score > best!.score { best = (i, score) }
        }
        return best
    }

    private func cut(_ box: inout Box) -> Box? {
        let whole = moments(box)
        var choice: (dir: Int, cut: Int, score: Double)?
        for dir in 0..<3 {
            if let m = maximize(box, dir: dir, whole: whole),
                choice == nil || m.score > choice!.score
            {
                choice = (dir, m.cut, m.score)
            }
        }
        guard let choice else { return nil }
        var other = box
        box[bound: true, choice.dir] = choice.cut
        other[bound: false, choice.dir] = choice.cut
        return other
    }

    /// Up to `maxColors` palette colors (packed 0x00BBGGRR), the means of the final boxes.
    func palette(maxColors: Int) -> [UInt32] {
        var boxes = [Box(lower: (0, 0, 0), upper: (32, 32, 32))]
        var scores = [variance(boxes[0])]
        while boxes.count < maxColors {
            guard let next = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[next] > 0
            else { break }
            var box = boxes[next]
            guard let other = cut(&box) else { scores[next] = 0; continue }
            boxes[next] = box
            scores[next] = box.volume > 1 ? variance(box) : 0
            boxes.append(other)
            scores.append(other.volume > 1 ? variance(other) : 0)
        }
        return boxes.compactMap { box in
            let m = moments(box)
            guard m.w > 0 else { return nil }
            func mean(_ s: Int) -> UInt32 { UInt32(min(255, (s + m.w / 2) / m.w)) }
            return mean(m.r) | mean(m.g) << 8 | mean(m.b) << 16
        }
    }
}

/// A histogram cell: pixel count and channel sums of the pixels binned there.
struct ColorCell {
    var count: Int
    var sumR: Int
    var sumG: Int
    var sumB: Int
}
