/// Path constructors for the shapes scenes name: rectangles, rounded rectangles,
/// ellipses and circular arcs, all in UIKit's y-down space.
///
/// Rules:
/// - Every closed shape runs clockwise on screen (the direction UIBezierPath uses), so
///   `strokeStart`/`strokeEnd` trims walk the outline the way they do on a device.
/// - Circular pieces are cubic Béziers of at most 45° each (so at most 90°, as asked),
///   with control distance k = 4/3·tan(θ/4)·r. The radial error of a 45° piece is
///   4·10⁻⁶·r (a 90° piece's would be 2.7·10⁻⁴·r, 0.04 px on a 150-px radius, enough
///   to show as a 10/255 error in edge pixels).
/// - Angles are in degrees, measured from +x toward +y (clockwise on screen).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Path {
    /// The rectangle as four lines, clockwise on screen from its top-left corner.
    public static func rect(_ r: Rect) -> Path {
        let s = r.standardized
        return Path([
            .move(Point(s.minX, s.minY)), .line(Point(s.maxX, s.minY)),
            .line(Point(s.maxX, s.maxY)), .line(Point(s.minX, s.maxY)), .close,
        ])
    }

    /// A rectangle with circular corners of `cornerRadius`, clamped to 0…half the shorter
    /// side. Clockwise on screen, starting on the top edge just after the top-left corner.
    public static func roundedRect(_ r: Rect, cornerRadius: Double) -> Path {
        let s = r.standardized
        let radius = min(max(cornerRadius.isNaN ? 0 : cornerRadius, 0), min(s.width, s.height) / 2)
        guard radius > 0 else { return rect(s) }
        let (x0, y0, x1, y1) = (s.minX, s.minY, s.maxX, s.maxY)
        var p = Path()
        p.move(to: Point(x0 + radius, y0))
        // Each corner: a straight edge (skipped when the radius eats it), then the
        // quarter circle around that corner's center.
        let corners: [(edgeEnd: Point, center: Point, startDegrees: Double)] = [
            (Point(x1 - radius, y0), Point(x1 - radius, y0 + radius), -90),
            (Point(x1, y1 - radius), Point(x1 - radius, y1 - radius), 0),
            (Point(x0 + radius, y1), Point(x0 + radius, y1 - radius), 90),
            (Point(x0, y0 + radius), Point(x0 + radius, y0 + radius), 180),
        ]
        var current = Point(x0 + radius, y0)
        for corner in corners {
            if corner.edgeEnd != current { p.line(to: corner.edgeEnd) }
            current = p.appendArcSegments(
                center: corner.center, radius: radius,
                startDegrees: corner.startDegrees, sweepDegrees: 90)
        }
        p.close()
        return p
    }

    /// The ellipse inscribed in `r`: eight cubics, starting at the rightmost point
    /// (3 o'clock) and running clockwise on screen, as UIBezierPath(ovalIn:) does.
    public static func ellipse(in r: Rect) -> Path {
        let s = r.standardized
        var unit = Path()
        unit.move(to: Point(1, 0))
        unit.appendArcSegments(center: .zero, radius: 1, startDegrees: 0, sweepDegrees: 360)
        unit.close()
        return unit.applying(
            AffineTransform(
                a: s.width / 2, b: 0, c: 0, d: s.height / 2,
                tx: s.midX, ty: s.midY))
    }

    /// A circular arc with UIBezierPath's semantics in y-down space: `clockwise == true`
    /// turns clockwise on screen (angles increasing). Starts with a move to the start point.
    public static func arc(
        center: Point, radius: Double, startDegrees: Double,
        endDegrees: Double, clockwise: Bool
    ) -> Path {
        var p = Path()
        p.addArc(
            center: center, radius: radius, startDegrees: startDegrees,
            endDegrees: endDegrees, clockwise: clockwise)
        return p
    }

    /// Appends an arc (see ``arc(center:radius:startDegrees:endDegrees:clockwise:)``),
    /// joined with a line from the current point when the path already has one.
    public mutating func addArc(
        center: Point, radius: Double, startDegrees: Double,
        endDegrees: Double, clockwise: Bool
    ) {
        let start = Self.arcPoint(center, radius, startDegrees)
        if elements.isEmpty { move(to: start) } else { line(to: start) }
        let sweep = Self.arcSweep(
            startDegrees: startDegrees, endDegrees: endDegrees,
            clockwise: clockwise)
        guard sweep != 0, radius > 0 else { return }
        _ = appendArcSegments(
            center: center, radius: radius, startDegrees: startDegrees,
            sweepDegrees: sweep)
    }

    /// CoreGraphics' sweep rule: the signed angle from start to end in the asked
    /// direction, in (−360, 360]; a difference of a whole turn or more draws one full circle.
    static func arcSweep(startDegrees: Double, endDegrees: Double, clockwise: Bool) -> Double {
        let delta = clockwise ? endDegrees - startDegrees : startDegrees - endDegrees
        var sweep: Double
        if delta >= 360 {
            sweep = 360
        } else if delta < 0 {
            sweep = fmod(delta, 360) + 360
        } else {
            sweep = delta
        }
        if !sweep.isFinite { sweep = 0 }
        return clockwise ? sweep : -sweep
    }

    /// cos/sin of multiples of 45° carry 1e-16 noise; snap it so closed shapes close exactly.
    private func snapUnitCircleNoise(_ p: inout Point, _ c: Point) {
        if abs(p.x - c.x) < 1e-12 { p.x = c.x }
        if abs(p.y - c.y) < 1e-12 { p.y = c.y }
    }

    static func arcPoint(_ c: Point, _ r: Double, _ degrees: Double) -> Point {
        let a = degrees * .pi / 180
        return Point(c.x + r * cos(a), c.y + r * sin(a))
    }

    /// Appends cubics for an arc that starts at the current point (assumed to be on the
    /// circle at `startDegrees`); returns the end point.
    @discardableResult
    mutating func appendArcSegments(
        center: Point, radius: Double, startDegrees: Double,
        sweepDegrees: Double
    ) -> Point {
        let count = max(1, Int((abs(sweepDegrees) / 45 - 1e-9).rounded(.up)))
        let step = sweepDegrees / Double(count) * .pi / 180
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        var a0 = startDegrees * .pi / 180
        var end = Self.arcPoint(center, radius, startDegrees)
        for _ in 0..<count {
            let a1 = a0 + step
            let (c0, s0, c1, s1) = (cos(a0), sin(a0), cos(a1), sin(a1))
            let p0 = Point(center.x + radius * c0, center.y + radius * s0)
            end = Point(center.x + radius * c1, center.y + radius * s1)
            snapUnitCircleNoise(&end, center)
            // Tangent at angle a is (−sin a, cos a) for increasing angles.
            cubic(
                to: end,
                control1: Point(p0.x - k * s0, p0.y + k * c0),
                control2: Point(end.x + k * s1, end.y - k * c1))
            a0 = a1
        }
        return end
    }
}
