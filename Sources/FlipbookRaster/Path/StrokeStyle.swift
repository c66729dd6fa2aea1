import FlipbookGeometry

/// Stroke parameters, with CAShapeLayer's names and defaults (width 1, butt caps,
/// miter joins, miter limit 10, no dashes).
///
/// Rules: see ``Stroker`` for how caps, joins and the miter limit shape the outline and
/// ``Dasher`` for how the pattern and phase cut it.

/// The shape at the two open ends of a stroked subpath.
public enum LineCap: Sendable, Hashable {
    /// Ends exactly at the end point.
    case butt
    /// A half-disk of the stroke's half width around the end point.
    case round
    /// A half square extending half the width past the end point.
    case square
}

/// The shape where two segments of a stroke meet.
public enum LineJoin: Sendable, Hashable {
    /// Sharp corner, falling back to bevel when miter length / width exceeds the limit.
    case miter
    /// A circular wedge around the corner.
    case round
    /// The triangle between the two outer offset corners.
    case bevel
}

/// Everything that shapes a stroke (CAShapeLayer's lineWidth, lineCap, lineJoin,
/// miterLimit, lineDashPattern, lineDashPhase).
public struct StrokeStyle: Sendable, Hashable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    /// Alternating on/off lengths; empty or all zero means a solid stroke.
    public var dashes: [Double]
    /// How far into the dash pattern each subpath starts.
    public var dashPhase: Double

    public init(
        width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter,
        miterLimit: Double = 10, dashes: [Double] = [], dashPhase: Double = 0
    ) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.dashPhase = dashPhase
    }
}
