import FlipbookGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a stroked path into the outline to fill (with the non-zero rule), with
/// CoreGraphics' caps, joins, miter limit and dashes.
///
/// Algorithm: the path (dashed first, if a pattern is set) is flattened to polylines
/// within `tolerance` in path units; every polyline becomes offset contours at ± half
/// the width:
/// - open polyline: one contour: the left offsets forward, the end cap, the right
///   offsets backward, the start cap;
/// - closed polyline: two contours, left offsets forward and right offsets backward
///   (opposite orientations, so the non-zero fill is the ring between them), no caps,
///   a join at every vertex including the closing one.
/// At a vertex, the side the path turns away from (outer) gets the join: bevel = straight
/// across, miter = through the miter tip, round = circular arc. The inner side goes
/// through the intersection of the two offset lines when it lies within both segments
/// (no overlap, so edge pixels stay exact); otherwise it goes through the vertex itself,
/// which leaves a small same-signed loop that the non-zero rule absorbs. Vertices inside
/// a flattened curve turn by tiny angles; when a bevel is within `tolerance` of any join
/// they get a bevel (the curve's true offset is smooth).
/// A subpath of zero length draws a dot with round caps (a disk) or square caps (an
/// axis-aligned square) and nothing with butt caps, as CoreGraphics does.
/// Rules (CoreGraphics): a miter is drawn when miter length / width = 1 / sin(φ/2)
/// ≤ miterLimit (φ the angle between the segments), otherwise a bevel.
package enum Stroker {
    /// The flattening accuracy in path units when nothing says how the outline is drawn
    /// (half the rasterizer's pixel tolerance, for paths drawn at up to 2×).
    package static let defaultTolerance = 1.0 / 256

    /// The outline of `path` stroked with `style`. `tolerance` is the flattening
    /// accuracy in path units: pass about 1/(128·scale) when the path is later scaled up
    /// by `scale` to keep the outline as accurate as the rasterizer.
    package static func outline(
        of path: Path, style: StrokeStyle, tolerance: Double = defaultTolerance
    ) -> Path {
        guard style.width > 0, style.width.isFinite else { return Path() }
        guard GeometryCaches.isEnabled else {
            return build(path, style: style, tolerance: tolerance)
        }
        return OutlineCache.current.outline(of: path, style: style, tolerance: tolerance) {
            build(path, style: style, tolerance: tolerance)
        }
    }

    /// The outline of `path` stroked with `style`, to be filled through `transform`: as
    /// accurate in device pixels as the rasterizer's own flattening (``tolerance(drawnThrough:)``).
    package static func outline(
        of path: Path, style: StrokeStyle, drawnThrough transform: AffineTransform
    ) -> Path {
        outline(of: path, style: style, tolerance: tolerance(drawnThrough: transform))
    }

    /// The flattening tolerance in path units for an outline filled through `transform`:
    /// the rasterizer's, in device pixels, divided by the most `transform` lengthens.
    ///
    /// Why: one tolerance in path units (1/256) was 8 times finer than needed on a Lottie
    /// file fitted into 256 px, whose strokes then had 3 times the chords to outline,
    /// flatten and sweep, and coarser than the rasterizer at 3×.
    static func tolerance(drawnThrough transform: AffineTransform) -> Double {
        let stretch = transform.maximumStretch
        guard stretch.isFinite, stretch > 0 else { return defaultTolerance }
        return min(max(Rasterizer.tolerance / stretch, 1e-6), 1e6)
    }

    private static func build(_ path: Path, style: StrokeStyle, tolerance: Double) -> Path {
        let halfWidth = style.width / 2
        let source =
            style.dashes.isEmpty
            ? path
            : Dasher.dash(path, pattern: style.dashes, phase: style.dashPhase)
        var collector = PolylineCollector()
        PathFlattener.flatten(
            source, transform: .identity, tolerance: max(tolerance, 1e-6), into: &collector)
        var builder = OutlineBuilder(
            halfWidth: halfWidth, style: style, tolerance: max(tolerance, 1e-6))
        for contour in collector.contours where contour.hasSegments {
            builder.stroke(contour.points, closed: contour.closed)
        }
        return builder.path
    }
}

/// Builds the offset contours of a stroke outline, polyline by polyline.
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
        // About one offset point per vertex and side (joins of curves are bevels): grown
        // once, not doubling through fresh pages.
        let needed = path.elements.count + 2 * pts.count + 16
        if needed > path.elements.capacity {
            path.elements.reserveCapacity(max(needed, 2 * path.elements.capacity))
        }
        guard pts.count > 1 else {
            if let p = pts.first { dot(p) }
            return
        }
        let reversed = Array(pts.reversed())
        if closed && pts.count > 2 {
            side(of: pts, closed: true, forward: true, startsContour: true)
            path.close()
            side(of: reversed, closed: true, forward: false, startsContour: true)
            path.close()
        } else {
            // A closed subpath of two points goes there and back: its ends are 180° joins,
            // which are round for round joins and flat otherwise (a miter's ratio is
            // infinite there), so they are drawn as round or butt caps.
            let endCap: LineCap = closed ? (style.join == .round ? .round : .butt) : style.cap
            let last = pts.count - 1
            side(of: pts, closed: false, forward: true, startsContour: true)
            cap(at: pts[last], outward: unit(pts[last] - pts[last - 1]), style: endCap)
            side(of: reversed, closed: false, forward: false, startsContour: false)
            cap(at: pts[0], outward: unit(pts[0] - pts[1]), style: endCap)
            path.close()
        }
    }

    @inline(__always) func unit(_ v: Point) -> Point { v * (1 / v.length) }

    /// The left normal (−dy, dx) of a unit direction.
    @inline(__always) func normal(_ d: Point) -> Point { Point(-d.y, d.x) }

    @inline(__always) func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - a.y * b.x }

    @inline(__always) func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    /// Appends the left offset of the polyline (starting with a move when
    /// `startsContour`, else continuing the contour with lines). Open polylines run from
    /// the first point's offset to the last's; closed ones visit a join at every vertex.
    /// `forward` is false on the pass along the reversed polyline.
    mutating func side(of pts: [Point], closed: Bool, forward: Bool, startsContour: Bool) {
        let n = pts.count
        var started = !startsContour
        func to(_ p: Point, _ builder: inout OutlineBuilder) {
            if started {
                builder.path.line(to: p)
            } else {
                builder.path.move(to: p); started = true
            }
        }
        // Each segment's direction and length are computed once: a vertex's outgoing
        // segment is the next vertex's incoming one (the same numbers `unit` and `length`
        // gave when each vertex worked out both).
        func segment(_ from: Point, _ to: Point) -> (direction: Point, length: Double) {
            let v = to - from
            let length = v.length
            return (v * (1 / length), length)
        }
        var incoming = closed ? segment(pts[n - 1], pts[0]) : segment(pts[0], pts[1])
        if !closed { to(pts[0] + normal(incoming.direction) * halfWidth, &self) }
        let (first, end) = closed ? (0, n) : (1, n - 1)
        var i = first
        while i < end {
            let p = pts[i]
            let outgoing = segment(p, pts[i + 1 == n ? 0 : i + 1])
            join(
                at: p, incoming: incoming.direction, outgoing: outgoing.direction,
                room: min(incoming.length, outgoing.length) / 2, forward: forward
            ) { q, b in to(q, &b) }
            incoming = outgoing
            i += 1
        }
        // Open: `incoming` is now the last segment, pts[n − 2] → pts[n − 1].
        if !closed { to(pts[n - 1] + normal(incoming.direction) * halfWidth, &self) }
    }

    /// The left offset's path around vertex `p`. `room` is how far the inner corner may
    /// retreat along either segment.
    mutating func join(
        at p: Point, incoming d0: Point, outgoing d1: Point, room: Double, forward: Bool,
        to: (Point, inout OutlineBuilder) -> Void
    ) {
        let turn = cross(d0, d1)
        let cosine = max(-1, min(1, dot(d0, d1)))
        let a = p + normal(d0) * halfWidth
        let b = p + normal(d1) * halfWidth
        if abs(turn) < 1e-12 && cosine > 0 { to(a, &self); return }  // straight on
        let cosHalf = ((1 + cosine) / 2).squareRoot()  // cos(α/2), α = turn angle
        // The left side is outer when the path turns right (negative cross product); a
        // full reversal counts as outer on the forward pass only.
        let outer = turn < 0 || (turn == 0 && forward)
        if !outer {
            let retreat =
                cosHalf > 1e-9
                ? halfWidth * ((1 - cosHalf * cosHalf).squareRoot() / cosHalf) : .infinity
            if retreat <= room {
                let bisector = normal(d0) + normal(d1)
                to(p + bisector * (halfWidth / cosHalf / bisector.length), &self)
            } else {
                to(a, &self); to(p, &self); to(b, &self)
            }
            return
        }
        to(a, &self)
        if halfWidth * (1 - cosHalf) <= tolerance { to(b, &self); return }  // imperceptible turn
        switch style.join {
        case .bevel:
            break
        case .miter:
            if cosHalf > 1e-9, 1 / cosHalf <= style.miterLimit {
                let bisector = normal(d0) + normal(d1)
                to(p + bisector * (halfWidth / cosHalf / bisector.length), &self)
            }
        case .round:
            let start = atan2(a.y - p.y, a.x - p.x) * 180 / .pi
            let sweep = acos(cosine) * 180 / .pi
            path.addArc(
                center: p, radius: halfWidth, startDegrees: start, endDegrees: start - sweep,
                clockwise: false)
        }
        to(b, &self)
    }

    /// Continues the contour from the left offset of the end at `p` (moving along
    /// `outward`) around to its right offset.
    mutating func cap(at p: Point, outward d: Point, style capStyle: LineCap) {
        let off = normal(d) * halfWidth
        switch capStyle {
        case .butt:
            break
        case .square:
            let ext = d * halfWidth
            path.line(to: p + off + ext)
            path.line(to: p - off + ext)
        case .round:
            let start = atan2(off.y, off.x) * 180 / .pi
            // Rotating the left normal by −90° gives the outward direction.
            path.addArc(
                center: p, radius: halfWidth, startDegrees: start, endDegrees: start - 180,
                clockwise: false)
        }
    }

    mutating func dot(_ p: Point) {
        let h = halfWidth
        switch style.cap {
        case .butt:
            break
        case .square:
            path.elements += [
                .move(Point(p.x - h, p.y - h)), .line(Point(p.x + h, p.y - h)),
                .line(Point(p.x + h, p.y + h)), .line(Point(p.x - h, p.y + h)), .close,
            ]
        case .round:
            path.move(to: Point(p.x + h, p.y))
            path.addArc(center: p, radius: h, startDegrees: 0, endDegrees: 360, clockwise: true)
            path.close()
        }
    }
}
