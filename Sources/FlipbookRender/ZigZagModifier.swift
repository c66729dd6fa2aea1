import FlipbookGeometry

/// After Effects' Zig Zag, as lottie-web's ZigZagModifier builds it:
///
/// - every vertex (a "corner") is kept and pushed `size` along its normal, the normal of
///   the chord from the previous to the next vertex (indices wrap, even on open paths, as
///   in lottie-web and ThorVG);
/// - each segment gets `ridges` new points at t = k/(ridges + 1) of its Bézier parameter,
///   each pushed `size` along the curve's normal there;
/// - the side alternates from point to point: the first corner goes to the right of the
///   direction of travel (screen coordinates), the first ridge to the left;
/// - corner points (`pt` 1) join by straight lines; smooth points (`pt` 2) get handles
///   along the tangent of length chord/((ridges + 1)·2), the chord being the segment's
///   (for ridges) or the distance to the neighbouring vertex (for corners);
/// - a closed path ends with one more corner on its first vertex (lottie-web appends it),
///   so an odd count of points per segment leaves a step at the start.
///
/// One deliberate difference: where the chord is empty (the ends of a two-vertex open
/// path), lottie-web takes the angle of a zero vector and pushes the end sideways along x;
/// the point stays where it is here, as in ThorVG and After Effects.
extension BezierContours {
    func zigZagged(size: Double, ridges: Int, smooth: Bool) -> BezierContours {
        var copy = self
        copy.contours = contours.compactMap {
            $0.zigZagged(size: size, ridges: max(0, ridges), smooth: smooth)
        }
        return copy
    }
}

extension BezierContours.Contour {
    fileprivate func zigZagged(size: Double, ridges: Int, smooth: Bool) -> BezierContours.Contour? {
        let n = vertices.count
        let segments = closed ? n : n - 1
        guard segments > 0 else { return nil }
        // At most a million points per path, whatever a hostile file asks for.
        let ridges = min(ridges, max(0, 1_000_000 / segments - 1))
        let spacing = 1 / Double((ridges + 1) * 2)
        var out: [BezierContours.Vertex] = []
        out.reserveCapacity((segments + 1) * (ridges + 1))

        /// `at` pushed `direction`·size to the left of `tangent` (y down), handles along it.
        func point(
            _ at: Point, tangent: Point, direction: Double, inLength: Double, outLength: Double
        ) {
            let length = (tangent.x * tangent.x + tangent.y * tangent.y).squareRoot()
            guard length > 1e-12 else {
                out.append(BezierContours.Vertex(point: at, inHandle: at, outHandle: at))
                return
            }
            let unit = tangent * (1 / length)
            let p = at + Point(unit.y, -unit.x) * (direction * size)
            out.append(
                BezierContours.Vertex(
                    point: p, inHandle: p - unit * inLength, outHandle: p + unit * outLength))
        }
        func distance(_ a: Point, _ b: Point) -> Double {
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        func corner(_ index: Int, direction: Double) {
            let i = index % n
            let previous = vertices[i == 0 ? n - 1 : i - 1].point,
                next = vertices[(i + 1) % n].point
            let here = vertices[i].point
            point(
                here, tangent: next - previous, direction: direction,
                inLength: smooth ? distance(here, previous) * spacing : 0,
                outLength: smooth ? distance(here, next) * spacing : 0)
        }

        var direction = -1.0
        corner(0, direction: direction)
        for i in 0..<segments {
            let a = vertices[i], b = vertices[(i + 1) % n]
            let curve = CubicSegment(a.point, a.outHandle, b.inHandle, b.point, linearize: true)
            let handle = smooth ? distance(a.point, b.point) * spacing : 0
            direction = -direction
            for k in 0..<ridges {
                let t = Double(k + 1) / Double(ridges + 1)
                point(
                    curve.point(t), tangent: curve.derivative(t), direction: direction,
                    inLength: handle,
                    outLength: handle)
                direction = -direction
            }
            corner(i + 1, direction: direction)
        }
        return BezierContours.Contour(vertices: out, closed: closed)
    }
}
