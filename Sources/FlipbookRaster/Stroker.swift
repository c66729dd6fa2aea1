import FlipbookGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a stroked path into the outline to fill (with the non-zero rule), with
/// CoreGraphics' caps, joins, miter limit and dashes.
///
/// Algorithm: the outline is a union of simple pieces, every one wound the same way
/// (positive shoelace area), so the non-zero fill of the result is exactly their union
/// with no cancellation anywhere:
/// - the path (dashed first, if a pattern is set) is flattened to polylines within
///   `tolerance` in path units, and each polyline segment becomes a rectangle of the
///   stroke width;
/// - at every vertex a join piece fills the outer wedge between the two rectangles:
///   bevel = triangle, miter = quadrilateral to the miter tip, round = circular sector.
///   Vertices inside a flattened curve turn by tiny angles; there a bevel is within
///   `tolerance` of any join, so they get one (the curve's true offset is smooth);
/// - open ends get caps (butt: nothing, square: half-square rectangle, round: half disk);
///   closed subpaths have no caps and a join at the closing point;
/// - a subpath of zero length draws a dot with round caps (a disk) or square caps (an
///   axis-aligned square), nothing with butt caps, as CoreGraphics does.
/// Rules (CoreGraphics): a miter is drawn when miter length / width = 1 / sin(φ/2)
/// ≤ miterLimit (φ the angle between the segments), otherwise a bevel.
public enum Stroker {
    /// The outline of `path` stroked with `style`. `tolerance` is the flattening
    /// accuracy in path units: pass about 1/(128·scale) when the path is later scaled up
    /// by `scale` to keep the outline as accurate as the rasterizer.
    public static func outline(of path: Path, style: StrokeStyle, tolerance: Double = 1.0 / 256) -> Path {
        let halfWidth = style.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return Path() }
        let source = style.dashes.isEmpty ? path
            : Dasher.dash(path, pattern: style.dashes, phase: style.dashPhase)
        var collector = PolylineCollector()
        PathFlattener.flatten(source, transform: .identity, tolerance: max(tolerance, 1e-6), into: &collector)
        var builder = OutlineBuilder(halfWidth: halfWidth, style: style, tolerance: max(tolerance, 1e-6))
        for contour in collector.contours where contour.hasSegments {
            builder.stroke(contour.points, closed: contour.closed)
        }
        return builder.path
    }
}

/// Emits the pieces of a stroke outline, each with positive shoelace area.
struct OutlineBuilder {
    let halfWidth: Double
    let style: StrokeStyle
    let tolerance: Double
    var path = Path()

    init(halfWidth: Double, style: StrokeStyle, tolerance: Double) {
        self.halfWidth = halfWidth
        self.style = style
        self.tolerance = tolerance
    }

    mutating func stroke(_ raw: [Point], closed: Bool) {
        // Drop repeated points: zero-length segments have no direction.
        var pts: [Point] = []
        pts.reserveCapacity(raw.count)
        for p in raw where pts.last.map({ ($0 - p).length > 1e-12 }) ?? true { pts.append(p) }
        if closed, pts.count > 1, (pts[0] - pts[pts.count - 1]).length <= 1e-12 { pts.removeLast() }
        guard pts.count > 1 else {
            if let p = pts.first { dot(p) }
            return
        }
        let n = pts.count
        let segmentCount = closed ? n : n - 1
        var dirs: [Point] = []
        dirs.reserveCapacity(segmentCount)
        for i in 0..<segmentCount {
            let d = pts[(i + 1) % n] - pts[i]
            dirs.append(d * (1 / d.length))
        }
        for i in 0..<segmentCount {
            let (a, b) = (pts[i], pts[(i + 1) % n])
            let off = normal(dirs[i]) * halfWidth
            polygon([a + off, b + off, b - off, a - off])
        }
        if closed {
            for i in 0..<n { join(at: pts[i], incoming: dirs[(i + segmentCount - 1) % segmentCount], outgoing: dirs[i]) }
        } else {
            for i in 1..<(n - 1) { join(at: pts[i], incoming: dirs[i - 1], outgoing: dirs[i]) }
            cap(at: pts[0], outward: dirs[0] * -1)
            cap(at: pts[n - 1], outward: dirs[segmentCount - 1])
        }
    }

    /// The left normal (−dy, dx) of a unit direction.
    @inline(__always) func normal(_ d: Point) -> Point { Point(-d.y, d.x) }

    @inline(__always) func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - a.y * b.x }

    @inline(__always) func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    mutating func join(at p: Point, incoming d0: Point, outgoing d1: Point) {
        let turn = cross(d0, d1)
        let cosine = max(-1, min(1, dot(d0, d1)))
        if abs(turn) < 1e-12 && cosine > 0 { return }            // straight on
        // The outer side is opposite the turn (for a reversal, pick one side).
        let side: Double = turn >= 0 ? -1 : 1
        let a = p + normal(d0) * (halfWidth * side)
        let b = p + normal(d1) * (halfWidth * side)
        let cosHalf = ((1 + cosine) / 2).squareRoot()             // cos(α/2), α = turn angle
        if halfWidth * (1 - cosHalf) <= tolerance {
            polygon([p, a, b])                                     // imperceptible turn
            return
        }
        switch style.join {
        case .bevel:
            polygon([p, a, b])
        case .miter:
            if cosHalf > 0, 1 / cosHalf <= style.miterLimit {
                let bisector = (a - p) + (b - p)
                let tip = p + bisector * (halfWidth / cosHalf / bisector.length)
                polygon([p, a, tip, b])
            } else {
                polygon([p, a, b])
            }
        case .round:
            let start = atan2(a.y - p.y, a.x - p.x) * 180 / .pi
            let sweep = acos(cosine) * 180 / .pi
            // Turning with positive cross product, the outer offset turns the same way.
            sector(center: p, startDegrees: side < 0 ? start : start - sweep, sweepDegrees: sweep)
        }
    }

    mutating func cap(at p: Point, outward d: Point) {
        let off = normal(d) * halfWidth
        switch style.cap {
        case .butt:
            break
        case .square:
            let ext = d * halfWidth
            polygon([p + off, p + off + ext, p - off + ext, p - off])
        case .round:
            let start = atan2(off.y, off.x) * 180 / .pi
            // From +normal through the outward direction to −normal: the half disk.
            let viaOutward = cross(off, d) > 0
            sector(center: p, startDegrees: viaOutward ? start : start - 180, sweepDegrees: 180)
        }
    }

    mutating func dot(_ p: Point) {
        switch style.cap {
        case .butt:
            break
        case .square:
            let h = halfWidth
            polygon([Point(p.x - h, p.y - h), Point(p.x + h, p.y - h), Point(p.x + h, p.y + h), Point(p.x - h, p.y + h)])
        case .round:
            var disk = Path()
            disk.addArc(center: p, radius: halfWidth, startDegrees: 0, endDegrees: 360, clockwise: true)
            disk.close()
            path.elements += disk.elements
        }
    }

    /// A circular sector (center, arc of positive sweep, back to center): positive area.
    mutating func sector(center: Point, startDegrees: Double, sweepDegrees: Double) {
        path.move(to: center)
        path.addArc(center: center, radius: halfWidth, startDegrees: startDegrees,
                    endDegrees: startDegrees + sweepDegrees, clockwise: true)
        path.close()
    }

    /// Appends a closed polygon, reversed if needed so that its shoelace area is positive.
    mutating func polygon(_ pts: [Point]) {
        var area = 0.0
        for i in 0..<pts.count {
            let (u, v) = (pts[i], pts[(i + 1) % pts.count])
            area += u.x * v.y - v.x * u.y
        }
        if area == 0 { return }
        let ordered = area > 0 ? pts : pts.reversed()
        path.move(to: ordered[0])
        for q in ordered.dropFirst() { path.line(to: q) }
        path.close()
    }
}
