import FlipbookGeometry

/// Cuts a path into dashes (CAShapeLayer lineDashPattern / lineDashPhase, CoreGraphics
/// rules).
///
/// Rules:
/// - The pattern alternates on, off, on, … lengths; negative lengths count as 0; an
///   odd-length pattern is used twice over (so [5] means 5 on, 5 off); an empty or
///   all-zero pattern means no dashing.
/// - The phase is an offset into the pattern (taken modulo the pattern's length), and
///   the pattern restarts at the phase for every subpath.
/// - Each "on" interval becomes an open subpath with curves kept as curves; an "on"
///   interval of length 0 becomes a zero-length subpath, which round and square caps
///   draw as a dot. Closed subpaths are dashed from their start around to it; a dash
///   that runs through the start point is one dash (the end's piece continues into the
///   start's, so the corner there gets its join), and a dash covering the whole closed
///   subpath keeps it closed.
enum Dasher {
    /// Upper bound on dashes per call, so absurd patterns cannot run away: a pattern of
    /// [1e-9, 1e-9] would otherwise cut a 50-point line into 2.5e10 dashes (a million
    /// took 17 s a frame to stroke in a debug build; a hundred thousand look the same).
    static let maxDashes = 100_000

    static func normalizedPattern(_ dashes: [Double]) -> [Double]? {
        let pattern = dashes.map { $0.isFinite ? max($0, 0) : 0 }
        guard pattern.reduce(0, +) > 0 else { return nil }
        return pattern.count % 2 == 1 ? pattern + pattern : pattern
    }

    static func dash(_ path: Path, pattern rawPattern: [Double], phase: Double) -> Path {
        guard let pattern = normalizedPattern(rawPattern) else { return path }
        let cycle = pattern.reduce(0, +)
        var startPhase = (phase.isFinite ? phase : 0).truncatingRemainder(dividingBy: cycle)
        if startPhase < 0 { startPhase += cycle }
        // Position in the pattern where every subpath starts: interval `startIndex`,
        // `startPhase` into it (a zero-length interval at the position is kept).
        var startIndex = 0
        while startPhase > pattern[startIndex]
            || (startPhase == pattern[startIndex] && startPhase > 0)
        {
            startPhase -= pattern[startIndex]
            startIndex = (startIndex + 1) % pattern.count
        }
        let measure = PathMeasure(path)
        var out = Path()
        var emitted = 0
        for (ci, contour) in measure.contours.enumerated() where contour.hasSegments {
            var index = startIndex
            var remaining = pattern[index] - startPhase
            if contour.length == 0 {
                if index % 2 == 0 { measure.appendPiece(of: ci, from: 0, to: 0, into: &out) }
                continue
            }
            var d = 0.0
            // On a closed contour a dash running through the start point is one dash: the
            // piece at the start waits and is appended to the piece that reaches the end.
            var pendingStart: Double? = nil
            var endsOn = false
            while d < contour.length {
                let step = min(remaining, contour.length - d)
                if index % 2 == 0 {
                    if contour.closed && d == 0 && step > 0 {
                        pendingStart = step
                    } else {
                        measure.appendPiece(of: ci, from: d, to: d + step, into: &out)
                        endsOn = d + step >= contour.length && step > 0
                    }
                    emitted += 1
                    if emitted >= maxDashes { return out }
                }
                d += step
                remaining -= step
                if remaining <= 0 {
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                }
            }
            if let first = pendingStart {
                if first >= contour.length {
                    out.elements += contour.elements  // one dash all the way round
                } else {
                    measure.appendPiece(of: ci, from: 0, to: first, into: &out, continuing: endsOn)
                }
            }
        }
        return out
    }
}
