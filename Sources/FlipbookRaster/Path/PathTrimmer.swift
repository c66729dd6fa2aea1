import FlipbookGeometry

/// CAShapeLayer's strokeStart / strokeEnd: the part of a path between two fractions of
/// its total arc length.
///
/// Rules:
/// - Fractions are of the summed length of all subpaths, in path order; a closed
///   subpath's length includes its closing line.
/// - Both fractions are clamped to 0…1; start ≥ end gives an empty path; 0…1 gives the
///   path unchanged (closed subpaths stay closed, so they join at their start).
/// - A subpath wholly inside the range is copied unchanged (closed stays closed); a cut
///   subpath becomes an open piece, with curves cut exactly at the right parameters.
package enum PathTrimmer {
    package static func trim(_ path: Path, from start: Double, to end: Double) -> Path {
        let s = start.isNaN ? 0 : min(max(start, 0), 1)
        let e = end.isNaN ? 0 : min(max(end, 0), 1)
        guard s < e else { return Path() }
        if s == 0 && e == 1 { return path }
        let measure = PathMeasure(path)
        let total = measure.totalLength
        guard total > 0 else { return Path() }
        let (d0, d1) = (s * total, e * total)
        var out = Path()
        var offset = 0.0
        for (i, c) in measure.contours.enumerated() {
            let (a, b) = (offset, offset + c.length)
            offset = b
            guard c.hasSegments, b >= d0, a <= d1, c.length > 0 || (a > d0 && a < d1) else {
                continue
            }
            if a >= d0 && b <= d1 {
                out.elements += c.elements
            } else {
                measure.appendPiece(
                    of: i, from: max(d0 - a, 0), to: min(d1 - a, c.length), into: &out)
            }
        }
        return out
    }

    /// The summed arc length of every subpath (closing lines included).
    package static func length(of path: Path) -> Double {
        PathMeasure(path).totalLength
    }
}
