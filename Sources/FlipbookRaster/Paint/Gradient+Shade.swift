import FlipbookGeometry

/// Shading a span of device pixels from the gradient's table.
///
/// Rules: a pixel's table entry is `tableIndex((t − origin) · scale + 0.5)` with t its
/// parameter (``Gradient`` says how t is found). Radial and focal pixels map their own
/// center to gradient space (``RowMapping``), so a pixel's entry does not depend on where
/// its span starts: a span may be cut anywhere and shaded in pieces. Axial spans step the
/// index in fixed point from the span's first pixel. The shortcuts below skip work, never
/// change an entry: each rests on that expression rising with t (every step of it,
/// rounding included, is monotonic), so a pixel known to lie beyond a verified bound takes
/// the bound's entry.
extension Gradient: SpanShader {
    /// Pixel centers of one row mapped to gradient space: what `transform.apply` gives for
    /// (x + 0.5, y + 0.5), the same operations in the same order, with the row's terms
    /// (c·py and d·py) taken once.
    struct RowMapping {
        let a: Double, b: Double, tx: Double, ty: Double
        let cpy: Double, dpy: Double

        @inline(__always)
        init(_ t: AffineTransform, y: Int) {
            let py = Double(y) + 0.5
            (a, b, tx, ty) = (t.a, t.b, t.tx, t.ty)
            (cpy, dpy) = (t.c * py, t.d * py)
        }

        @inline(__always)
        func u(_ x: Int) -> Double { a * (Double(x) + 0.5) + cpy + tx }

        @inline(__always)
        func v(_ x: Int) -> Double { b * (Double(x) + 0.5) + dpy + ty }

        /// The squared radius at pixel x's center, as ``shade`` computes it.
        @inline(__always)
        func radius2(_ x: Int) -> Double {
            let u = u(x), v = v(x)
            return u * u + v * v
        }

        /// A bound on how far ``radius2(_:)`` lies from the exact squared radius of the
        /// mapped center (a linear function of x), for pixels x0…x1: each coordinate is
        /// rounded three times (a product, two sums) from terms at most `mu` (or `mv`) in
        /// size, then squaring and adding round three more times. That comes to about 11
        /// units in the last place of mu² + mv²; 1e-14 is about 90.
        func radius2Error(_ x0: Int, _ x1: Int) -> Double {
            let px = max(abs(Double(x0) + 0.5), abs(Double(x1) + 0.5))
            let mu = abs(a) * px + abs(cpy) + abs(tx)
            let mv = abs(b) * px + abs(dpy) + abs(ty)
            return (mu * mu + mv * mv) * 1e-14
        }
    }

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
    private func axialSteps(_ row: RowMapping, x: Int, count: Int) -> (start: Int64, step: Int64)? {
        let f0 = (row.u(x) - tableOrigin) * tableScale + 0.5, df = transform.a * tableScale
        let fEnd = f0 + df * Double(count)
        guard abs(f0) < 1e6, abs(fEnd) < 1e6 else { return nil }
        let one = 4_294_967_296.0
        return (Int64(f0 * one), Int64(df * one))
    }

    /// The pixels of the span that ``shade`` would all give one entry, when it can tell
    /// cheaply: an axial span within one table step or beyond an end (every row of a
    /// vertical gradient, the transparent far side of a fade), whole; a radial span's
    /// pixels inside the first stop's radius (a run in its middle), or the whole span when
    /// all of it lies beyond the last's.
    @inline(__always)
    func uniformRun(x: Int, y: Int, count: Int) -> UniformRun? {
        guard count > 0 else { return nil }
        let row = RowMapping(transform, y: y)
        switch kind {
        case .axial:
            guard let (start, step) = axialSteps(row, x: x, count: count),
                let index = Self.uniformIndex(start: start, step: step, count: count)
            else { return nil }
            return UniformRun(start: 0, count: count, color: table[index])
        case .radial:
            let line = RadialLine(row, x: x, count: count)
            if let inner = radialInnerRun(row, line, x: x, count: count) {
                return UniformRun(start: inner.lowerBound, count: inner.count, color: table[0])
            }
            if radialBeyondLast(line, count: count) {
                return UniformRun(start: 0, count: count, color: table[Self.tableSize - 1])
            }
            return nil
        case .focal:
            return nil
        }
    }

    /// A radial span's line in gradient space, worked out once for both radial shortcuts:
    /// its first pixel's point, the step per pixel and its squared length, where the line
    /// passes nearest the center (pixels from the first, not clamped to the span), and
    /// ``RowMapping/radius2Error(_:_:)``'s bound over the span.
    private struct RadialLine {
        let u0: Double, v0: Double, du: Double, dv: Double, dd: Double
        let nearest: Double
        let error: Double

        init(_ row: RowMapping, x: Int, count: Int) {
            (u0, v0, du, dv) = (row.u(x), row.v(x), row.a, row.b)
            dd = du * du + dv * dv
            nearest = -(u0 * du + v0 * dv) / dd
            error = row.radius2Error(x, x + count - 1)
        }

        /// The squared radius at `s` pixels along the line.
        func radius2(at s: Double) -> Double {
            let (u, v) = (u0 + du * s, v0 + dv * s)
            return u * u + v * v
        }
    }

    /// The pixels (offsets from `x`) of a radial span whose squared radius ``shade``
    /// computes at most `radialEnds.first`.
    ///
    /// The exact squared radius along the span is a convex function of the pixel, so it
    /// is largest at a run's two ends: a run is taken when both ends' computed values lie
    /// two error bounds (``RowMapping/radius2Error(_:_:)``) inside the first radius. Every
    /// pixel between then lies within it too, exactly and as computed. The run's ends come
    /// from solving |p + s·d|² = r² for the span's line, and are only a guess until checked.
    private func radialInnerRun(
        _ row: RowMapping, _ line: RadialLine, x: Int, count: Int
    ) -> Range<Int>? {
        let first = radialEnds.first
        guard first > 0, line.error.isFinite else { return nil }
        let limit = first - 2 * line.error
        let n = Double(count - 1)
        var lo = 0, hi = count - 1
        if line.dd > 0 {
            let s = line.nearest
            let room = (limit - line.radius2(at: s)) / line.dd
            guard room > 0, room.isFinite, s.isFinite else { return nil }
            let half = room.squareRoot()
            let a = (s - half).rounded(.up), b = (s + half).rounded(.down)
            guard a <= n, b >= 0, a <= b else { return nil }
            lo = Int(max(a, 0)); hi = Int(min(b, n))
        }
        // The guess may sit a pixel out either way (its own arithmetic rounds).
        for _ in 0..<3 where lo <= hi {
            if row.radius2(x + lo) > limit {
                lo += 1
            } else if row.radius2(x + hi) > limit {
                hi -= 1
            } else {
                return lo..<(hi + 1)
            }
        }
        return nil
    }

    /// Whether every pixel of a radial span has a computed squared radius at least
    /// `radialEnds.last`: the exact minimum over the span's line segment, two error
    /// bounds over it. The nearest point computed is off the exact one by rounding only,
    /// which moves the squared radius by far less than one bound (it is flat there).
    private func radialBeyondLast(_ line: RadialLine, count: Int) -> Bool {
        let (first, last) = radialEnds
        guard last.isFinite, line.error.isFinite else { return false }
        let s = line.dd > 0 ? min(max(line.nearest, 0), Double(count - 1)) : 0
        let nearest = line.radius2(at: s) - 2 * line.error
        return nearest >= last && nearest > first
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

    @inline(__always)
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let row = RowMapping(transform, y: y)
        let origin = tableOrigin, scale = tableScale
        let maxIndex = Double(Self.tableSize - 1)
        table.withUnsafeBufferPointer { lut in
            switch kind {
            case .axial:
                // The table index is linear along the span: stepped in 32.32 fixed point
                // when it stays in a safe range, clamped per pixel.
                if let (start, step) = axialSteps(row, x: x, count: count) {
                    let top = Self.tableSize - 1
                    var f = start
                    for i in 0..<count {
                        let index = Int(truncatingIfNeeded: f >> 32)
                        out[i] = lut[min(max(index, 0), top)]
                        f &+= step
                    }
                } else {
                    for i in 0..<count {
                        out[i] =
                            lut[Self.tableIndex((row.u(x + i) - origin) * scale + 0.5, maxIndex)]
                    }
                }
            case .radial:
                let (first, last) = radialEnds
                let (firstColor, lastColor) = (lut[0], lut[Self.tableSize - 1])
                for i in 0..<count {
                    let r2 = row.radius2(x + i)
                    if r2 <= first {
                        out[i] = firstColor
                    } else if r2 >= last {
                        out[i] = lastColor
                    } else {
                        let t = r2.squareRoot()
                        out[i] = lut[Self.tableIndex((t - origin) * scale + 0.5, maxIndex)]
                    }
                }
            case .focal(let fx, let fy):
                for i in 0..<count {
                    let t = Self.focalParameter(row.u(x + i), row.v(x + i), fx, fy)
                    out[i] = lut[Self.tableIndex((t - origin) * scale + 0.5, maxIndex)]
                }
            }
        }
    }
}
