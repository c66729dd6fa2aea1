import FlipbookGeometry
@testable import FlipbookRaster

/// Shared helpers for the raster tests: independent reference computations (exact
/// overlaps, supersampled analytic shapes) and pixel access.

/// Alpha of every pixel, row-major.
func alphas(_ p: Pixmap) -> [UInt8] {
    (0..<(p.width * p.height)).map { p.data[4 * $0 + 3] }
}

/// Alpha-only render of a black fill.
func fillAlpha(
    _ path: Path, size: Int, rule: FillRule = .nonZero,
    transform: AffineTransform = .identity
) -> Pixmap {
    var p = Pixmap(width: size, height: size)
    p.fill(path, transform: transform, rule: rule, paint: .solid(.black))
    return p
}

/// Length of the overlap of [a0, a1) and [b0, b1).
func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
    max(0, min(a1, b1) - max(a0, b0))
}

/// Coverage (0…1) of pixel (x, y) by an inside-test, sampled on an n×n grid of
/// sub-pixel centers (error ≤ 1/(2n) per unit of edge length crossing the pixel). A
/// pixel whose 9×9 probes (a grid including its edges and corners) all agree is taken
/// as wholly inside or outside (no shape tested here has features thinner than 1/8 px).
func supersampled(x: Int, y: Int, n: Int = 64, inside: (Double, Double) -> Bool) -> Double {
    var probes = 0
    for j in 0...8 {
        for i in 0...8 where inside(Double(x) + Double(i) / 8, Double(y) + Double(j) / 8) {
            probes += 1
        }
    }
    if probes == 0 || probes == 81 { return probes == 0 ? 0 : 1 }
    var hits = 0
    for j in 0..<n {
        for i in 0..<n
        where inside(
            Double(x) + (Double(i) + 0.5) / Double(n), Double(y) + (Double(j) + 0.5) / Double(n))
        {
            hits += 1
        }
    }
    return Double(hits) / Double(n * n)
}

/// Inside-test for a union of convex polygons (any winding direction).
func insideAny(_ polygons: [[Point]], _ x: Double, _ y: Double) -> Bool {
    polygons.contains { winding($0, x, y) != 0 }
}

/// Largest |rendered alpha − 255·expected| over the canvas.
func maxAlphaError(_ p: Pixmap, expected: (Int, Int) -> Double) -> Double {
    var worst = 0.0
    for y in 0..<p.height {
        for x in 0..<p.width {
            worst = max(worst, abs(Double(p.pixel(x: x, y: y).a) - expected(x, y) * 255))
        }
    }
    return worst
}

/// Point-in-polygon by the given rule (crossing count with signs).
func winding(_ poly: [Point], _ x: Double, _ y: Double) -> Int {
    var w = 0
    for i in 0..<poly.count {
        let a = poly[i], b = poly[(i + 1) % poly.count]
        if (a.y <= y) != (b.y <= y) {
            let t = (y - a.y) / (b.y - a.y)
            if a.x + t * (b.x - a.x) > x { w += a.y < b.y ? 1 : -1 }
        }
    }
    return w
}

/// Distance from p to the segment ab.
func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a, ap = p - a
    let l2 = ab.x * ab.x + ab.y * ab.y
    let t = l2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / l2, 0), 1) : 0
    return (p - (a + ab * t)).length
}

/// Points where two non-adjacent edges of a closed polygon cross.
func edgeCrossings(_ poly: [Point]) -> [Point] {
    var out: [Point] = []
    let n = poly.count
    for i in 0..<n {
        for j in (i + 2)..<(i + n - 1) where j < n {
            let (a, b) = (poly[i], poly[(i + 1) % n])
            let (c, d) = (poly[j], poly[(j + 1) % n])
            let den = (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x)
            if den == 0 { continue }
            let t = ((c.x - a.x) * (d.y - c.y) - (c.y - a.y) * (d.x - c.x)) / den
            let u = ((c.x - a.x) * (b.y - a.y) - (c.y - a.y) * (b.x - a.x)) / den
            if t > 0, t < 1, u > 0, u < 1 {
                out.append(Point(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)))
            }
        }
    }
    return out
}

func polygonPath(_ pts: [Point]) -> Path {
    var p = Path()
    p.move(to: pts[0])
    for q in pts.dropFirst() { p.line(to: q) }
    p.close()
    return p
}

/// The five points of a pentagram around (cx, cy), in drawing order (self-overlapping).
func starPoints(cx: Double, cy: Double, r: Double) -> [Point] {
    (0..<5).map { k -> Point in
        let a = (-90 + Double(k) * 144) * Double.pi / 180
        return Point(cx + r * cos(a), cy + r * sin(a))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
