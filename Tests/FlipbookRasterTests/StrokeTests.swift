import Testing
import FlipbookTesting
import FlipbookGeometry
@testable import FlipbookRaster
#if canImport(Glibc)
    import Glibc
#endif

/// Strokes: caps, joins, miter limit, dots. Expectations are built here from hand
/// geometry (rectangles, squares, triangles, quarter disks, capsules), then the images
/// are kept as goldens.
struct StrokeTests {
    func stroke(_ path: Path, _ style: StrokeStyle, size: (Int, Int)) -> Pixmap {
        var p = Pixmap(width: size.0, height: size.1)
        p.fill(
            Stroker.outline(of: path, style: style), transform: .identity, rule: .nonZero,
            paint: .solid(.black))
        return p
    }

    func line(_ a: Point, _ b: Point) -> Path { Path([.move(a), .line(b)]) }

    /// A 2-px butt stroke of the horizontal line y = 10 from x = 4 to 28 covers exactly
    /// rows 9 and 10 (y ∈ [9, 11]) and columns 4…27: alpha 255 there, 0 elsewhere.
    @Test func buttStrokeOfHorizontalLineCoversExactRows() {
        let p = stroke(line(Point(4, 10), Point(28, 10)), StrokeStyle(width: 2), size: (32, 20))
        let err = maxAlphaError(p) { x, y in (x >= 4 && x < 28 && (y == 9 || y == 10)) ? 1 : 0 }
        #expect(err == 0)
    }

    /// Caps on a 6-px line from (8.3, 16.2) to (38.1, 16.2): butt is the rectangle
    /// x ∈ [8.3, 38.1], y ∈ [13.2, 19.2] (exact overlap areas); square extends it by 3
    /// at both ends; round is the capsule of points within 3 of the segment
    /// (supersampled).
    @Test(arguments: [LineCap.butt, .square, .round])
    func caps(cap: LineCap) throws {
        let (x0, x1, y, hw) = (8.3, 38.1, 16.2, 3.0)
        let p = stroke(
            line(Point(x0, y), Point(x1, y)), StrokeStyle(width: 2 * hw, cap: cap), size: (48, 32))
        let err = maxAlphaError(p) { px, py in
            switch cap {
            case .butt:
                return overlap(Double(px), Double(px + 1), x0, x1)
                    * overlap(Double(py), Double(py + 1), y - hw, y + hw)
            case .square:
                return overlap(Double(px), Double(px + 1), x0 - hw, x1 + hw)
                    * overlap(Double(py), Double(py + 1), y - hw, y + hw)
            case .round:
                return supersampled(x: px, y: py) { sx, sy in
                    let cx = min(max(sx, x0), x1)
                    return (sx - cx) * (sx - cx) + (sy - y) * (sy - y) <= hw * hw
                }
            }
        }
        #expect(err <= (cap == .round ? 2 : 1))
        try expectFrame(p, match: "Goldens", named: "stroke-cap-\(cap)", options: .rasterGolden)
    }

    /// Joins at a right-angle corner: (6, 30) → (30, 30) → (30, 6), width 8. The two
    /// segment rectangles are [6, 30]×[26, 34] and [26, 34]×[6, 30]; the outer corner
    /// is bottom-right, where miter adds the square [30, 34]², bevel the triangle
    /// (30, 30), (34, 30), (30, 34), round the quarter disk of radius 4 around (30, 30).
    /// Miter ratio 1/sin(45°) ≈ 1.41 is under the default limit 10.
    @Test(arguments: [LineJoin.miter, .bevel, .round])
    func joins(join: LineJoin) throws {
        var path = Path()
        path.move(to: Point(6, 30)); path.line(to: Point(30, 30)); path.line(to: Point(30, 6))
        let p = stroke(path, StrokeStyle(width: 8, join: join), size: (40, 40))
        let err = maxAlphaError(p) { px, py in
            supersampled(x: px, y: py) { x, y in
                if x >= 6 && x <= 30 && y >= 26 && y <= 34 { return true }
                if x >= 26 && x <= 34 && y >= 6 && y <= 30 { return true }
                guard x >= 30, y >= 30 else { return false }
                switch join {
                case .miter: return x <= 34 && y <= 34
                case .bevel: return (x - 30) + (y - 30) <= 4
                case .round: return (x - 30) * (x - 30) + (y - 30) * (y - 30) <= 16
                }
            }
        }
        #expect(err <= 2)
        try expectFrame(p, match: "Goldens", named: "stroke-join-\(join)", options: .rasterGolden)
    }

    /// Miter limit at a sharp corner: (4, 36) → P = (36, 20) → (4, 4), width 6 (h = 3).
    /// The angle between the segments is φ = 2·atan(16/32), sin(φ/2) = 1/√5, so miter
    /// length / width = √5 ≈ 2.236: limit 3 keeps the miter, limit 2 falls back to bevel.
    /// By hand: segment directions (±2, −1)/√5 have outer normals (1, ±2)/√5, so the outer
    /// offset corners at P are a, b = (36 + 3/√5, 20 ± 6/√5); the miter tip lies on
    /// y = 20 at x = 36 + 3·√5 ≈ 42.71; the bevel cuts straight from a to b at x ≈ 37.34.
    /// The expected images are the union of the two segment rectangles with the miter
    /// quadrilateral (P, a, tip, b) or the bevel triangle (P, a, b), supersampled.
    @Test func miterLimitSwitchesToBevel() throws {
        var path = Path()
        path.move(to: Point(4, 36)); path.line(to: Point(36, 20)); path.line(to: Point(4, 4))
        let mitered = stroke(
            path, StrokeStyle(width: 6, join: .miter, miterLimit: 3), size: (48, 40))
        let beveled = stroke(
            path, StrokeStyle(width: 6, join: .miter, miterLimit: 2), size: (48, 40))
        let r5 = 5.0.squareRoot()
        let P = Point(36, 20)
        let a = Point(36 + 3 / r5, 20 + 6 / r5), b = Point(36 + 3 / r5, 20 - 6 / r5)
        let tip = Point(36 + 3 * r5, 20)
        // Segment rectangles: offsets ±3·n with n = (1, 2)/√5 and (1, −2)/√5.
        let n1 = Point(1 / r5, 2 / r5) * 3, n2 = Point(1 / r5, -2 / r5) * 3
        let rect1 = [Point(4, 36) + n1, P + n1, P - n1, Point(4, 36) - n1]
        let rect2 = [P + n2, Point(4, 4) + n2, Point(4, 4) - n2, P - n2]
        let miterShape = [rect1, rect2, [P, a, tip, b]]
        let bevelShape = [rect1, rect2, [P, a, b]]
        #expect(
            maxAlphaError(mitered) { x, y in
                supersampled(x: x, y: y) { insideAny(miterShape, $0, $1) }
            } <= 2)
        #expect(
            maxAlphaError(beveled) { x, y in
                supersampled(x: x, y: y) { insideAny(bevelShape, $0, $1) }
            } <= 2)
        // The tip reaches into column 42 but not 43; the bevel stops before column 38.
        #expect(mitered.pixel(x: 42, y: 19).a > 0 || mitered.pixel(x: 42, y: 20).a > 0)
        #expect((0..<40).allSatisfy { mitered.pixel(x: 43, y: $0).a == 0 })
        #expect((0..<40).allSatisfy { beveled.pixel(x: 38, y: $0).a == 0 })
        try expectFrame(
            mitered, match: "Goldens", named: "stroke-miter-limit-3", options: .rasterGolden)
        try expectFrame(
            beveled, match: "Goldens", named: "stroke-miter-limit-2", options: .rasterGolden)
    }

    /// A closed square has no caps and a miter at its closing corner too: the outline of
    /// rect [8, 24]² at width 4 is the ring [6, 26]² minus [10, 22]², exactly.
    @Test func closedSubpathJoinsAtStart() {
        let p = stroke(.rect(Rect(8, 8, 16, 16)), StrokeStyle(width: 4), size: (32, 32))
        let err = maxAlphaError(p) { x, y in
            let outer = x >= 6 && x < 26 && y >= 6 && y < 26
            let inner = x >= 10 && x < 22 && y >= 10 && y < 22
            return outer && !inner ? 1 : 0
        }
        #expect(err == 0)
    }

    /// A closed two-point subpath (there and back) has 180° joins at its ends, not caps:
    /// with square caps and miter joins the ends are flat (the miter ratio is infinite),
    /// so the stroke of (8, 10) → (24, 10) → close at width 4 is exactly [8, 24] × [8, 12];
    /// with round joins the ends are half disks.
    @Test func closedTwoPointSubpathUsesJoinsAtItsEnds() {
        let there = Path([.move(Point(8, 10)), .line(Point(24, 10)), .close])
        let flat = stroke(there, StrokeStyle(width: 4, cap: .square, join: .miter), size: (32, 20))
        #expect(maxAlphaError(flat) { x, y in (x >= 8 && x < 24 && y >= 8 && y < 12) ? 1 : 0 } == 0)
        let round = stroke(there, StrokeStyle(width: 4, cap: .butt, join: .round), size: (32, 20))
        let err = maxAlphaError(round) { x, y in
            supersampled(x: x, y: y) { px, py in
                segmentDistance(Point(px, py), Point(8, 10), Point(24, 10)) <= 2
            }
        }
        #expect(err <= 2)
    }

    /// Zero-length subpaths draw dots with round caps (a disk of the half width), squares
    /// with square caps, nothing with butt caps.
    @Test func zeroLengthSubpathDrawsDot() {
        let dotPath = Path([.move(Point(10, 10)), .line(Point(10, 10))])
        let round = stroke(dotPath, StrokeStyle(width: 6, cap: .round), size: (20, 20))
        let err = maxAlphaError(round) { x, y in
            supersampled(x: x, y: y) { px, py in (px - 10) * (px - 10) + (py - 10) * (py - 10) <= 9
            }
        }
        #expect(err <= 2)
        let square = stroke(dotPath, StrokeStyle(width: 6, cap: .square), size: (20, 20))
        #expect(
            maxAlphaError(square) { x, y in (x >= 7 && x < 13 && y >= 7 && y < 13) ? 1 : 0 } == 0)
        let butt = stroke(dotPath, StrokeStyle(width: 6, cap: .butt), size: (20, 20))
        #expect(alphas(butt).allSatisfy { $0 == 0 })
    }

    /// A stroked circle is the annulus r − w/2 ≤ d ≤ r + w/2 (the curve's interior
    /// joins must not show). With w/2 > r the inner offset folds over (the stroker's
    /// vertex fallback): the result must be the whole disk of radius r + w/2.
    @Test(arguments: [(12.0, 2.5), (9.0, 6.0), (4.0, 7.0)])
    func strokedCircleIsAnnulus(r: Double, hw: Double) {
        let c = 20.0
        let p = stroke(
            .ellipse(in: Rect(c - r, c - r, 2 * r, 2 * r)),
            StrokeStyle(width: 2 * hw, join: .miter), size: (40, 40))
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                let d = ((px - c) * (px - c) + (py - c) * (py - c)).squareRoot()
                return abs(d - r) <= hw
            }
        }
        #expect(err <= 2)
    }

    /// `maximumStretch`, which sets that tolerance, is the longest image of a unit vector:
    /// checked against 3,600 directions (a scale, an uneven scale turned 30°, a shear, a
    /// collapse onto a line).
    @Test(arguments: [
        AffineTransform.scale(0.25, 0.25),
        AffineTransform.scale(2, 0.5).concatenating(
            AffineTransform(
                a: cos(0.5236), b: sin(0.5236), c: -sin(0.5236), d: cos(0.5236), tx: 7, ty: 0)),
        AffineTransform(a: 1, b: 0, c: 1.5, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0),
    ])
    func maximumStretchIsTheLongestImageOfAUnitVector(_ t: AffineTransform) {
        let longest = (0..<3600).map { i -> Double in
            let angle = Double(i) * .pi / 1800
            let v = t.apply(Point(cos(angle), sin(angle))) - t.apply(.zero)
            return v.length
        }.max()!
        #expect(abs(t.maximumStretch - longest) <= 1e-6 * longest)
    }

    /// An outline made for a transform (``Stroker/outline(of:style:drawnThrough:)``) is as
    /// accurate in device pixels at any scale: the stroked circle of
    /// ``strokedCircleIsAnnulus(r:hw:)`` drawn shrunk 4 times, enlarged 3 times, and
    /// stretched unevenly and turned, is within 2/255 of the transformed annulus
    /// (each sample mapped back into path units and tested there). Shrunk, the outline
    /// needs fewer points than the 1/256 path units that were used for every scale, and
    /// enlarged more: that tolerance was coarser than the rasterizer at 3×.
    @Test(arguments: [
        (48.0, 10.0, AffineTransform.scale(0.25, 0.25), 0.5),
        (4.0, 2.5 / 3, .scale(3, 3), 1.15),
        (10.0, 2.0, AffineTransform(a: 1.2, b: 0.6, c: -0.3, d: 0.9, tx: 0, ty: 0), 0.95),
    ])
    func outlineForATransformKeepsDeviceAccuracy(
        r: Double, hw: Double, transform: AffineTransform, points: Double
    ) throws {
        let toDevice = transform.concatenating(.translation(20, 20))
        let back = try #require(toDevice.inverted)
        let circle = Path.ellipse(in: Rect(-r, -r, 2 * r, 2 * r))
        let style = StrokeStyle(width: 2 * hw)
        let outline = Stroker.outline(of: circle, style: style, drawnThrough: toDevice)
        var p = Pixmap(width: 40, height: 40)
        p.fill(outline, transform: toDevice, rule: .nonZero, paint: .solid(.black))
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                let q = back.apply(Point(px, py))
                return abs((q.x * q.x + q.y * q.y).squareRoot() - r) <= hw
            }
        }
        #expect(err <= 2)
        let fixed = Stroker.outline(of: circle, style: style, tolerance: 1.0 / 256)
        let ratio = Double(outline.elements.count) / Double(fixed.elements.count)
        #expect(points < 1 ? ratio <= points : ratio >= points)
    }

    /// Property test over 40 random polylines (2–7 points, open or closed, half widths
    /// 0.3–6.3) with round caps and joins, whose stroke is exactly the set of points within
    /// the half width of the polyline. Nothing may be lost (no pixel more than 8/255
    /// below the truth, supersampled 16×16 to keep the test fast: its own error is up to
    /// ~8/255; cracks, holes or cancelled windings would be far larger) and nothing may
    /// spill (pixels the truth leaves empty stay ≤ 3). Pixels where the outline
    /// overlaps itself (near U-turns, self-crossings) may be darker than the truth: an
    /// area-accumulating rasterizer adds the partial coverages of overlapping parts there
    /// (the known conflation of FreeType-style rasterizers), so no upper bound is asserted
    /// on covered pixels.
    @Test func randomRoundStrokesLoseNothingAndSpillNothing() {
        var seed: UInt64 = 12345
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var worstLoss = 0.0, worstSpill = 0.0
        for _ in 0..<40 {
            let n = 2 + Int(random() * 6)
            let pts = (0..<n).map { _ in Point(8 + random() * 32, 8 + random() * 32) }
            let hw = 0.3 + random() * 6
            let closed = n > 2 && random() < 0.3
            var path = Path()
            path.move(to: pts[0])
            for q in pts.dropFirst() { path.line(to: q) }
            if closed { path.close() }
            let p = stroke(
                path, StrokeStyle(width: 2 * hw, cap: .round, join: .round), size: (48, 48))
            let vertices = closed ? pts + [pts[0]] : pts
            for y in 0..<48 {
                for x in 0..<48 {
                    func distance(_ px: Double, _ py: Double) -> Double {
                        (0..<(vertices.count - 1)).map {
                            segmentDistance(Point(px, py), vertices[$0], vertices[$0 + 1])
                        }.min()!
                    }
                    // A pixel's points are within 0.71 of its center.
                    let d = distance(Double(x) + 0.5, Double(y) + 0.5)
                    let truth =
                        d > hw + 0.71
                        ? 0
                        : d < hw - 0.71
                            ? 255
                            : 255 * supersampled(x: x, y: y, n: 16) { distance($0, $1) <= hw }
                    let got = Double(p.pixel(x: x, y: y).a)
                    worstLoss = max(worstLoss, truth - got)
                    if truth == 0 { worstSpill = max(worstSpill, got) }
                }
            }
        }
        #expect(worstLoss <= 8)
        #expect(worstSpill <= 3)
    }
}
