import Testing
import FlipbookTesting
#if canImport(Glibc)
    import Glibc
#endif
import FlipbookGeometry
@testable import FlipbookRaster

/// Analytic checks of fill coverage: every expectation is computed here from geometry,
/// independently of the rasterizer.
struct FillCoverageTests {
    /// An axis-aligned rectangle's coverage of a pixel is exactly the overlap area of the
    /// pixel square and the rectangle, so alpha must be round(255 · overlapX · overlapY).
    @Test func fractionalRectIsExactOverlapArea() throws {
        let r = Rect(3.25, 4.6, 20.3, 11.15)
        let p = fillAlpha(.rect(r), size: 32)
        let err = maxAlphaError(p) { x, y in
            overlap(Double(x), Double(x + 1), r.minX, r.maxX)
                * overlap(Double(y), Double(y + 1), r.minY, r.maxY)
        }
        #expect(err <= 0.5 + 1e-9)
        try expectFrame(p, match: "Goldens", named: "fill-rect-fractional", options: .rasterGolden)
    }

    /// Circles against 64×64 supersampling of the true disk (pixels wholly inside or
    /// outside are 255 / 0 by distance). The path is 8 cubics (radial error 4e-6·r),
    /// flattened to 1/128 px, so the only errors are the sampling grid's (≤ ~1/128 of a
    /// pixel) and rounding: every pixel must be within 2/255.
    @Test(arguments: [(20.3, 19.7, 13.4, 40), (32.0, 31.5, 29.6, 64)])
    func circleMatchesSupersampledDisk(cx: Double, cy: Double, r: Double, size: Int) throws {
        let p = fillAlpha(.ellipse(in: Rect(cx - r, cy - r, 2 * r, 2 * r)), size: size)
        let err = maxAlphaError(p) { x, y in
            let (x0, y0, x1, y1) = (Double(x), Double(y), Double(x + 1), Double(y + 1))
            let far = max(
                hypot(x0 - cx, y0 - cy), hypot(x1 - cx, y0 - cy), hypot(x0 - cx, y1 - cy),
                hypot(x1 - cx, y1 - cy))
            if far <= r { return 1 }
            let near = hypot(min(max(cx, x0), x1) - cx, min(max(cy, y0), y1) - cy)
            if near >= r { return 0 }
            return supersampled(x: x, y: y) { px, py in
                (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r
            }
        }
        #expect(err <= 2)
        try expectFrame(p, match: "Goldens", named: "fill-circle-\(size)", options: .rasterGolden)
    }

    /// Pentagram: even-odd leaves the central pentagon empty (winding 2), non-zero fills
    /// it; both compared with supersampling of the exact winding rule. Pixels holding a
    /// point where two edges cross, or next to one, are excluded: there an accumulating rasterizer only
    /// knows the pixel's average winding, not which part is covered twice (FreeType and
    /// tiny-skia share this), so those few pixels may be off by up to ~1/5.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func starMatchesWindingRule(rule: FillRule) throws {
        let pts = starPoints(cx: 24, cy: 25, r: 20)
        let p = fillAlpha(polygonPath(pts), size: 48, rule: rule)
        let crossings = edgeCrossings(pts)
        let err = maxAlphaError(p) { x, y in
            if crossings.contains(where: {
                abs($0.x - Double(x) - 0.5) < 1.5 && abs($0.y - Double(y) - 0.5) < 1.5
            }) {
                return Double(p.pixel(x: x, y: y).a) / 255
            }
            return supersampled(x: x, y: y) { px, py in
                let w = winding(pts, px, py)
                return rule == .nonZero ? w != 0 : w % 2 != 0
            }
        }
        #expect(err <= 2.5)  // 2/255 plus the 64×64 grid's error on slanted edges
        let center = p.pixel(x: 24, y: 25).a
        #expect(center == (rule == .nonZero ? 255 : 0))
        try expectFrame(p, match: "Goldens", named: "fill-star-\(rule)", options: .rasterGolden)
    }

    /// Two identical overlapping squares: winding 2 inside. Non-zero → full; even-odd → empty.
    @Test func overlappingSquaresFollowRule() {
        var path = Path.rect(Rect(4, 4, 10, 10))
        path.elements += Path.rect(Rect(4.5, 4.5, 10, 10)).elements
        let nz = fillAlpha(path, size: 20, rule: .nonZero)
        let eo = fillAlpha(path, size: 20, rule: .evenOdd)
        #expect(nz.pixel(x: 8, y: 8).a == 255)
        #expect(eo.pixel(x: 8, y: 8).a == 0)
        // Pixel (4, 4): first square covers it fully, the second a quarter (winding 2 on
        // that quarter): even-odd gives 0.75.
        #expect(eo.pixel(x: 4, y: 4).a == 191)
    }

    /// A shape mostly off-canvas to the left: the clamping onto the left edge must keep
    /// the winding, so the visible part is exactly the overlap.
    @Test func offCanvasEdgesKeepWinding() {
        let r = Rect(-50.5, -3.25, 60.75, 40)
        let p = fillAlpha(.rect(r), size: 16)
        let err = maxAlphaError(p) { x, y in
            overlap(Double(x), Double(x + 1), r.minX, r.maxX)
                * overlap(Double(y), Double(y + 1), r.minY, r.maxY)
        }
        #expect(err <= 0.5 + 1e-9)
    }

    /// Quadratic and cubic arches over the base line y = 28 from x = 4 to 28, closed
    /// along the base. Control points evenly spaced in x make x(t) = 4 + 24t exactly, so
    /// the curve is a graph y(x) solved per sample:
    /// - quad, control (16, −4): y(t) = 28 − 64·t(1 − t);
    /// - cubic, controls (12, −2), (20, −2): y(t) = 28(1 − 3t + 3t²) − 6t(1 − t)
    ///   = 28 − 90·t(1 − t).
    /// Flattening to 1/128 px and 64×64 supersampling keep every pixel within 2/255.
    @Test(arguments: [("quad", 64.0), ("cubic", 90.0)])
    func curvesMatchSupersampledArea(kind: String, depth: Double) throws {
        var path = Path()
        path.move(to: Point(4, 28))
        if kind == "quad" {
            path.quad(to: Point(28, 28), control: Point(16, -4))
        } else {
            path.cubic(to: Point(28, 28), control1: Point(12, -2), control2: Point(20, -2))
        }
        path.close()
        let p = fillAlpha(path, size: 32)
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                guard px >= 4, px <= 28, py <= 28 else { return false }
                let t = (px - 4) / 24
                return py >= 28 - depth * t * (1 - t)
            }
        }
        #expect(err <= 2)
        try expectFrame(p, match: "Goldens", named: "fill-\(kind)", options: .rasterGolden)
    }

    /// A rotated square (45°, side 16 around (16, 16)) filled through a transform,
    /// against supersampling of the rotated square: |u|, |v| ≤ 8 in the rotated frame.
    @Test func transformedFillMatchesGeometry() {
        let t = AffineTransform.translation(-8, -8).concatenating(.rotation(degrees: 45))
            .concatenating(.translation(16.3, 15.8))
        let p = fillAlpha(.rect(Rect(0, 0, 16, 16)), size: 32, transform: t)
        let s = 0.5.squareRoot()
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                let (dx, dy) = (px - 16.3, py - 15.8)
                return abs((dx + dy) * s) <= 8 && abs((dy - dx) * s) <= 8
            }
        }
        #expect(err <= 2)
    }

    /// Work is bounded: a clip mask's region limits the fill, and coverage multiplies.
    @Test func clipMaskMultipliesCoverage() {
        let clip = Mask.path(
            .rect(Rect(0, 0, 8, 16)), transform: .identity, rule: .nonZero, width: 16, height: 16)
        var p = Pixmap(width: 16, height: 16)
        p.fill(
            .rect(Rect(4, 4, 8, 8)), transform: .identity, rule: .nonZero,
            paint: .solid(.black), opacity: 0.5, clip: clip)
        #expect(p.pixel(x: 5, y: 5).a == 128)
        #expect(p.pixel(x: 9, y: 5).a == 0)
        #expect(clip.bounds == PixelBounds(x0: 0, y0: 0, x1: 8, y1: 16))
    }

    /// Clipped fill, pixel by pixel: a fractional rect clipped by a circle mask must give
    /// round(rectCoverage · mask / 255) at opacity 1 (exact overlap areas for the rect,
    /// the mask's own stored coverage), including long fully-open runs inside the circle.
    @Test func clippedFillIsProductOfCoverages() {
        let mask = Mask.path(
            .ellipse(in: Rect(2, 3, 56, 50)), transform: .identity, rule: .nonZero, width: 64,
            height: 64)
        let r = Rect(0.5, 10.25, 62.75, 30.5)
        var p = Pixmap(width: 64, height: 64)
        p.fill(.rect(r), transform: .identity, rule: .nonZero, paint: .solid(.black), clip: mask)
        var worst = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let rect =
                    (overlap(Double(x), Double(x + 1), r.minX, r.maxX)
                    * overlap(Double(y), Double(y + 1), r.minY, r.maxY) * 255).rounded()
                let want = Int((rect * Double(mask.coverage(x: x, y: y)) / 255).rounded())
                worst = max(worst, abs(Int(p.pixel(x: x, y: y).a) - want))
            }
        }
        #expect(worst == 0)
    }
}

extension GoldenOptions {
    /// The rasterizer's goldens (Tests/FlipbookRasterTests/Goldens/<name>.png) are regression
    /// guards only: every golden test first checks its image against an independent
    /// expectation computed in the test. The frame is compared as its PNG would store it, and
    /// every premultiplied channel must be within 2 levels of the golden, with no pixel beyond.
    /// `FLIPBOOK_RECORD=1 swift test` rewrites them.
    static let rasterGolden = GoldenOptions(comparison: .channels(tolerance: 2))
}
