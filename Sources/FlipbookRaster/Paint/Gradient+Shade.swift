import FlipbookGeometry

/// Shading a span of device pixels from the gradient's table.
///
/// Rules: a pixel's table entry is `tableIndex((t − origin) · scale + 0.5)` with t its
/// parameter (``Gradient`` says how t is found), evaluated in that order, so that a span
/// gives the same pixels however it is cut. The shortcuts below skip work, never change an
/// entry: each rests on that expression rising with t (every step of it, rounding
/// included, is monotonic), so a pixel known to lie beyond a verified bound takes the
/// bound's entry.
extension Gradient: SpanShader {
    /// The table entry for a scaled parameter: clamped to the table, NaN (a transform
    /// holding inf − inf) taking the first entry.
    @inline(__always)
    static func tableIndex(_ f: Double, _ maxIndex: Double) -> Int {
        f >= 0 ? Int(min(f, maxIndex)) : 0
    }

    /// The entry a radial pixel at squared radius `r2` takes, computed as ``shade`` does.
    @inline(__always)
    static func radialIndex(_ r2: Double, origin: Double, scale: Double) -> Int {
        tableIndex((r2.squareRoot() - origin) * scale + 0.5, Double(tableSize - 1))
    }

    /// Squared radii that bound the table's two clamped ends of a radial gradient: every
    /// r² ≤ `first` takes entry 0 and every r² ≥ `last` the last entry (−∞ and +∞ when
    /// no such bound was found). Why: a radial fill often lies mostly inside its first stop
    /// or beyond its last (Lottie's gradients rarely span 0…1), and there a pixel needs
    /// neither the square root nor the index arithmetic.
    ///
    /// Each bound starts at the square of the radius where the index changes and steps by
    /// one unit in the last place until ``radialIndex`` confirms it; since that index never
    /// falls as r² grows, every r² beyond a confirmed bound has the bound's entry.
    static func radialEnds(origin: Double, scale: Double) -> (first: Double, last: Double) {
        let top = tableSize - 1
        var first = -Double.infinity, last = Double.infinity
        let t0 = origin + 0.5 / scale, t1 = origin + (Double(top) - 0.5) / scale
        if t0.isFinite, t0 > 0 {
            var r2 = t0 * t0, steps = 0
            while radialIndex(r2, origin: origin, scale: scale) != 0 && steps < 64 {
                r2 = r2.nextDown; steps += 1
            }
            if radialIndex(r2, origin: origin, scale: scale) == 0 { first = r2 }
        }
        if t1.isFinite, t1 > 0 {
            var r2 = t1 * t1, steps = 0
            while radialIndex(r2, origin: origin, scale: scale) != top && steps < 64 {
                r2 = r2.nextUp; steps += 1
            }
            if radialIndex(r2, origin: origin, scale: scale) == top { last = r2 }
        }
        return (first, last)
    }

    var shadesOpaque: Bool { isOpaque }

    /// An axial span's index at its first pixel, its step per pixel, both in 32.32 fixed
    /// point, when the span's parameters stay in a safe range (else nil: ``shade`` then
    /// works in floating point).
    @inline(__always)
    private func axialSteps(x: Int, y: Int, count: Int) -> (start: Int64, step: Int64)? {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let u = transform.a * px + transform.c * py + transform.tx
        let f0 = (u - tableOrigin) * tableScale + 0.5, df = transform.a * tableScale
        let fEnd = f0 + df * Double(count)
        guard abs(f0) < 1e6, abs(fEnd) < 1e6 else { return nil }
        let one = 4_294_967_296.0
        return (Int64(f0 * one), Int64(df * one))
    }

    /// The one color every pixel of the span takes, when ``shade`` would write the same
    /// entry to all of them (an axial span within one table step or beyond an end: every
    /// row of a vertical gradient, the transparent far side of a fade; a radial span wholly
    /// inside the first stop's radius or beyond the last's), else nil.
    func uniformColor(x: Int, y: Int, count: Int) -> UInt32? {
        guard count > 0 else { return nil }
        switch kind {
        case .axial:
            guard let (start, step) = axialSteps(x: x, y: y, count: count),
                let index = Self.uniformIndex(start: start, step: step, count: count)
            else { return nil }
            return table[index]
        case .radial:
            return radialUniformColor(x: x, y: y, count: count)
        case .focal:
            return nil
        }
    }

    /// A radial span's color when all of it lies within `radialEnds.first` or beyond
    /// `radialEnds.last`. The span is a segment in gradient space: r² is largest at an end
    /// and smallest at the point nearest the center. ``shade`` steps (u, v) by repeated
    /// addition, so its r² can stray from the segment's; `slack` bounds that (each addition
    /// rounds by at most half an ulp of the largest coordinate `m`, the squares and sum by a
    /// few more), twice over.
    private func radialUniformColor(x: Int, y: Int, count: Int) -> UInt32? {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let u0 = transform.a * px + transform.c * py + transform.tx
        let v0 = transform.b * px + transform.d * py + transform.ty
        let (du, dv) = (transform.a, transform.b)
        let n = Double(count - 1)
        let u1 = u0 + du * n, v1 = v0 + dv * n
        let m = max(abs(u0), abs(u1), abs(v0), abs(v1)) + abs(du) + abs(dv)
        let slack = m * m * (Double(count) + 16) * 1e-15
        guard slack.isFinite else { return nil }
        let (first, last) = radialEnds
        if max(u0 * u0 + v0 * v0, u1 * u1 + v1 * v1) + slack < first { return table[0] }
        let dd = du * du + dv * dv
        let s = dd > 0 ? min(max(-(u0 * du + v0 * dv) / dd, 0), n) : 0
        let uc = u0 + du * s, vc = v0 + dv * s
        let nearest = uc * uc + vc * vc - slack
        if nearest > last, nearest > first { return table[Self.tableSize - 1] }
        return nil
    }

    /// The entry of every pixel of an axial span stepped from `start` by `step`, when they
    /// all have one. The index moves one way along the span, so its clamped ends bound
    /// every pixel's.
    @inline(__always)
    private static func uniformIndex(start: Int64, step: Int64, count: Int) -> Int? {
        let top = tableSize - 1
        let first = min(max(Int(truncatingIfNeeded: start >> 32), 0), top)
        let last = min(
            max(Int(truncatingIfNeeded: (start &+ step &* Int64(count - 1)) >> 32), 0), top)
        return first == last ? first : nil
    }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        var u = transform.a * px + transform.c * py + transform.tx
        var v = transform.b * px + transform.d * py + transform.ty
        let (du, dv) = (transform.a, transform.b)
        let origin = tableOrigin, scale = tableScale
        let maxIndex = Double(Self.tableSize - 1)
        table.withUnsafeBufferPointer { lut in
            switch kind {
            case .axial:
                // The table index is linear along the span: stepped in 32.32 fixed point
                // when it stays in a safe range, clamped per pixel.
                if let (start, step) = axialSteps(x: x, y: y, count: count) {
                    if let index = Self.uniformIndex(start: start, step: step, count: count) {
                        out.update(repeating: lut[index], count: count)
                        return
                    }
                    let top = Self.tableSize - 1
                    var f = start
                    for i in 0..<count {
                        let index = Int(truncatingIfNeeded: f >> 32)
                        out[i] = lut[min(max(index, 0), top)]
                        f &+= step
                    }
                } else {
                    for i in 0..<count {
                        out[i] = lut[Self.tableIndex((u - origin) * scale + 0.5, maxIndex)]
                        u += du
                    }
                }
            case .radial:
                let (first, last) = radialEnds
                let (firstColor, lastColor) = (lut[0], lut[Self.tableSize - 1])
                for i in 0..<count {
                    let r2 = u * u + v * v
                    if r2 <= first {
                        out[i] = firstColor
                    } else if r2 >= last {
                        out[i] = lastColor
                    } else {
                        let t = r2.squareRoot()
                        out[i] = lut[Self.tableIndex((t - origin) * scale + 0.5, maxIndex)]
                    }
                    u += du; v += dv
                }
            case .focal(let fx, let fy):
                for i in 0..<count {
                    let t = Self.focalParameter(u, v, fx, fy)
                    out[i] = lut[Self.tableIndex((t - origin) * scale + 0.5, maxIndex)]
                    u += du; v += dv
                }
            }
        }
    }
}
