import FlipbookGeometry

/// A value given as keyframes on the layer's own clock, in After Effects' (and so
/// Lottie's) model: each segment eases by its own cubic Bézier per dimension, may hold
/// its start value, and a 2-D value may travel along a spatial Bézier between keyframes
/// (CAKeyframeAnimation's `path`).
///
/// Values are flat vectors; what they mean depends on where the value is used (a point
/// is [x, y], a color [r, g, b, a], a path a ``VectorPathValue`` encoding).
public enum AnimatedValue: Sendable, Hashable {
    case constant([Double])
    /// Sorted by time; at least one keyframe.
    case keyframes([Keyframe])

    /// The value at the first keyframe (or the constant).
    public var initial: [Double] {
        switch self {
        case .constant(let v): v
        case .keyframes(let k): k.first?.value ?? []
        }
    }

    public var isAnimated: Bool {
        if case .keyframes(let k) = self { return k.count > 1 }
        return false
    }

    /// The same value with every vector mapped by `transform` (unit conversions at load:
    /// Lottie's 0…100 opacity to 0…1, say); spatial tangents scale with the values.
    public func mapped(_ transform: ([Double]) -> [Double]) -> AnimatedValue {
        switch self {
        case .constant(let v): return .constant(transform(v))
        case .keyframes(let list):
            return .keyframes(
                list.map { k in
                    var copy = k
                    copy.value = transform(k.value)
                    return copy
                })
        }
    }
}

/// One keyframe of an ``AnimatedValue``.
public struct Keyframe: Sendable, Hashable {
    /// Seconds on the owning layer's clock.
    public var time: Double
    public var value: [Double]
    /// Easing of the segment that starts here, one curve per dimension (a single curve
    /// applies to every dimension). The curve's y may leave 0…1 (overshoot).
    public var easing: [TimingCurve]
    /// The segment that starts here keeps this value until the next keyframe.
    public var hold: Bool
    /// Spatial tangents of the segment that starts here, relative to its two ends
    /// (Lottie's `to` of this keyframe and `ti`): the value then moves along the cubic
    /// Bézier value → value + outTangent → next + inTangent → next, at a speed given by
    /// the easing over arc length.
    public var outTangent: [Double]?
    public var inTangent: [Double]?
    /// The eased progress along the spatial Bézier is the curve's parameter rather than a
    /// fraction of its arc length: how a CAKeyframeAnimation with a `path` in linear mode
    /// moves (lottie-ios's Core Animation engine), so the speed varies with the control points.
    public var spatialByParameter: Bool

    public init(
        time: Double, value: [Double], easing: [TimingCurve] = [.linear], hold: Bool = false,
        outTangent: [Double]? = nil, inTangent: [Double]? = nil, spatialByParameter: Bool = false
    ) {
        self.time = time
        self.value = value
        self.easing = easing
        self.hold = hold
        self.outTangent = outTangent
        self.inTangent = inTangent
        self.spatialByParameter = spatialByParameter
    }
}
