import FlipbookGeometry
import FlipbookScene

/// Evaluating keyframed values, by After Effects' rules (which Lottie players share):
///
/// - Before the first keyframe the first value holds, after the last the last.
/// - Inside a segment, progress u = (t − t0) / (t1 − t0) is eased per dimension by the
///   segment's cubic Bézier (x solved for u, y may overshoot) and each dimension is
///   interpolated from the start to the end value. A hold segment keeps its start value.
/// - A 2-D segment with spatial tangents moves along the Bézier start → start + out →
///   end + in → end, the eased progress taken as a fraction of the curve's arc length
///   (measured on 64 chords), so a motion path runs at the speed the easing says; or,
///   when the keyframe says `spatialByParameter`, as the curve's parameter.
/// - Vectors of different lengths (paths gaining vertices) interpolate over the shorter
///   length and keep the start's extra entries.
extension AnimatedValue {
    public func value(at seconds: Double) -> [Double] {
        switch self {
        case .constant(let v): return v
        case .keyframes(let list): return Self.sample(list, at: seconds, heading: false).value
        }
    }

    /// The first component at `seconds` (0 for an empty vector).
    public func scalar(at seconds: Double) -> Double {
        switch self {
        case .constant(let v): return v.first ?? 0
        case .keyframes(let list): return Self.sampleFirst(list, at: seconds)
        }
    }

    /// The first two components at `seconds` (nil where the value is shorter), as
    /// ``value(at:)`` gives them.
    func firstTwo(at seconds: Double) -> (Double?, Double?) {
        switch self {
        case .constant(let v): return (v.first, v.count > 1 ? v[1] : nil)
        case .keyframes(let list): return Self.samplePair(list, at: seconds)
        }
    }

    /// The value and, for a 2-D value, the direction of travel in degrees (for
    /// auto-orient: the tangent of the motion path, or of the straight segment).
    public func valueAndHeading(at seconds: Double) -> (value: [Double], heading: Double?) {
        switch self {
        case .constant(let v): return (v, nil)
        case .keyframes(let list): return Self.sample(list, at: seconds)
        }
    }

    /// Where `t` falls in a keyframe list (times that do not decrease).
    private enum Place {
        /// At or before the first keyframe, or the list has one.
        case first
        /// At or after the last keyframe, at index `last`.
        case last(Int)
        /// Inside the segment starting at `index`, at progress `u` (0…1).
        case segment(Int, u: Double)
    }

    /// The place of `t` in `keys` (not empty).
    @inline(__always)
    private static func place(_ keys: UnsafeBufferPointer<Keyframe>, _ t: Double) -> Place {
        if keys.count == 1 || t <= keys[0].time { return .first }
        // The segment holding t: before the first keyframe later than t.
        let index = keys.partitionPoint(in: 1..<keys.count) { t < $0.time } - 1
        if index == keys.count - 1 { return .last(index) }
        let span = keys[index + 1].time - keys[index].time
        return .segment(index, u: span > 0 ? (t - keys[index].time) / span : 1)
    }

    // The samplers read the keyframes in place, through the list's buffer: a keyframe
    // copied out of the array retains (and then releases) its four arrays, and a frame
    // samples hundreds of values.

    /// The value at `t`, and its heading when `wanted` (before and after the keyframes the
    /// heading measures a whole curve's arc length: not worked out for a value alone).
    private static func sample(_ list: [Keyframe], at t: Double, heading wanted: Bool = true)
        -> (value: [Double], heading: Double?)
    {
        list.withUnsafeBufferPointer { keys in
            guard !keys.isEmpty else { return ([], nil) }
            switch place(keys, t) {
            case .first:
                return (keys[0].value, wanted ? heading(keys, segment: 0, progress: 0) : nil)
            case .last(let index):
                return (
                    keys[index].value,
                    wanted ? heading(keys, segment: keys.count - 2, progress: 1) : nil
                )
            case .segment(let index, let u):
                if keys[index].hold { return (keys[index].value, nil) }
                let value = segmentValue(keys.baseAddress! + index, u: u, heading: wanted)
                if value.heading != nil || !wanted { return value }
                return (value.value, heading(keys, segment: index, progress: u))
            }
        }
    }

    /// The value inside the segment from `start` to the keyframe after it, at progress `u`,
    /// and on a spatial curve when `wanted` its heading (a straight segment's is left to
    /// ``heading``). Keyframes are passed by address: see the samplers' comment.
    private static func segmentValue(
        _ start: UnsafePointer<Keyframe>, u: Double, heading wanted: Bool
    ) -> (value: [Double], heading: Double?) {
        let (k0, k1) = (start, start + 1)
        if let bezier = spatial(k0, k1) {
            let p = easing(k0, dimension: 0).progress(at: u)
            let (point, tangent) =
                k0.pointee.spatialByParameter
                ? bezier.pointAtParameter(p) : bezier.pointAtLength(fraction: p)
            var v = k0.pointee.value
            v[0] = point.x
            v[1] = point.y
            if v.count > 2, k1.pointee.value.count > 2 {
                v[2] = k0.pointee.value[2] + (k1.pointee.value[2] - k0.pointee.value[2]) * p
            }
            return (v, wanted ? atan2(tangent.y, tangent.x) * 180 / .pi : nil)
        }
        var v = k0.pointee.value
        // Every dimension past the keyframe's own curves eases by one curve (the first, or
        // linear): solved once, not once per dimension (a path's hundreds of coordinates).
        var beyond: Double?
        for d in 0..<min(k0.pointee.value.count, k1.pointee.value.count) {
            let p: Double
            if d < k0.pointee.easing.count {
                p = k0.pointee.easing[d].progress(at: u)
            } else if let solved = beyond {
                p = solved
            } else {
                p = easing(k0, dimension: d).progress(at: u)
                beyond = p
            }
            v[d] = k0.pointee.value[d] + (k1.pointee.value[d] - k0.pointee.value[d]) * p
        }
        return (v, nil)
    }

    /// The first two components of `sample(list, at: t).value` (nil past its end), worked
    /// out without building the vector: a moving layer's position every frame.
    private static func samplePair(_ list: [Keyframe], at t: Double) -> (Double?, Double?) {
        func pair(_ v: [Double]) -> (Double?, Double?) { (v.first, v.count > 1 ? v[1] : nil) }
        return list.withUnsafeBufferPointer { keys in
            guard !keys.isEmpty else { return (nil, nil) }
            switch place(keys, t) {
            case .first: return pair(keys[0].value)
            case .last(let index): return pair(keys[index].value)
            case .segment(let index, let u):
                if keys[index].hold { return pair(keys[index].value) }
                return segmentPair(keys.baseAddress! + index, u: u)
            }
        }
    }

    private static func segmentPair(_ start: UnsafePointer<Keyframe>, u: Double) -> (
        Double?, Double?
    ) {
        let (k0, k1) = (start, start + 1)
        if let bezier = spatial(k0, k1) {
            let p = easing(k0, dimension: 0).progress(at: u)
            let point =
                k0.pointee.spatialByParameter
                ? bezier.point(p) : bezier.pointAtLength(fraction: p).point
            return (point.x, point.y)
        }
        let shared = min(k0.pointee.value.count, k1.pointee.value.count)
        func component(_ d: Int) -> Double? {
            guard d < k0.pointee.value.count else { return nil }
            guard d < shared else { return k0.pointee.value[d] }
            let p = easing(k0, dimension: d).progress(at: u)
            return k0.pointee.value[d] + (k1.pointee.value[d] - k0.pointee.value[d]) * p
        }
        return (component(0), component(1))
    }

    /// `sample(list, at: t).value.first ?? 0`, worked out for the first component alone:
    /// scalars (rotation, opacity, split positions) are most of a frame's values, and the
    /// whole vector cost an array each.
    private static func sampleFirst(_ list: [Keyframe], at t: Double) -> Double {
        list.withUnsafeBufferPointer { keys in
            guard !keys.isEmpty else { return 0 }
            switch place(keys, t) {
            case .first: return keys[0].value.first ?? 0
            case .last(let index): return keys[index].value.first ?? 0
            case .segment(let index, let u):
                if keys[index].hold { return keys[index].value.first ?? 0 }
                return segmentFirst(keys.baseAddress! + index, u: u)
            }
        }
    }

    private static func segmentFirst(_ start: UnsafePointer<Keyframe>, u: Double) -> Double {
        let (k0, k1) = (start, start + 1)
        if let bezier = spatial(k0, k1) {
            let p = easing(k0, dimension: 0).progress(at: u)
            return k0.pointee.spatialByParameter
                ? bezier.point(p).x : bezier.pointAtLength(fraction: p).point.x
        }
        guard !k0.pointee.value.isEmpty, !k1.pointee.value.isEmpty else {
            return k0.pointee.value.first ?? 0
        }
        let p = easing(k0, dimension: 0).progress(at: u)
        return k0.pointee.value[0] + (k1.pointee.value[0] - k0.pointee.value[0]) * p
    }

    private static func easing(_ k: UnsafePointer<Keyframe>, dimension: Int) -> TimingCurve {
        if dimension < k.pointee.easing.count { return k.pointee.easing[dimension] }
        return k.pointee.easing.first ?? .linear
    }

    /// The direction of a straight or curved 2-D segment at a progress.
    private static func heading(
        _ keys: UnsafeBufferPointer<Keyframe>, segment: Int, progress: Double
    ) -> Double? {
        guard segment >= 0, segment + 1 < keys.count else { return nil }
        return heading(keys.baseAddress! + segment, progress: progress)
    }

    private static func heading(_ start: UnsafePointer<Keyframe>, progress: Double) -> Double? {
        let (k0, k1) = (start, start + 1)
        guard k0.pointee.value.count >= 2, k1.pointee.value.count >= 2 else { return nil }
        if let bezier = spatial(k0, k1) {
            let tangent =
                k0.pointee.spatialByParameter
                ? bezier.derivative(progress)
                : bezier.pointAtLength(fraction: progress).tangent
            return atan2(tangent.y, tangent.x) * 180 / .pi
        }
        let dx = k1.pointee.value[0] - k0.pointee.value[0],
            dy = k1.pointee.value[1] - k0.pointee.value[1]
        guard dx != 0 || dy != 0 else { return nil }
        return atan2(dy, dx) * 180 / .pi
    }

    private static func spatial(_ k0: UnsafePointer<Keyframe>, _ k1: UnsafePointer<Keyframe>)
        -> SpatialBezier?
    {
        guard let to = k0.pointee.outTangent, let ti = k0.pointee.inTangent, to.count >= 2,
            ti.count >= 2, k0.pointee.value.count >= 2, k1.pointee.value.count >= 2,
            to[0] != 0 || to[1] != 0 || ti[0] != 0 || ti[1] != 0
        else { return nil }
        let p0 = Point(k0.pointee.value[0], k0.pointee.value[1])
        let p3 = Point(k1.pointee.value[0], k1.pointee.value[1])
        return SpatialBezier(
            p0: p0, p1: p0 + Point(to[0], to[1]), p2: p3 + Point(ti[0], ti[1]), p3: p3)
    }
}

/// A cubic Bézier walked by arc length.
struct SpatialBezier {
    var p0, p1, p2, p3: Point
    static let chords = 64

    func point(_ s: Double) -> Point { point(weights: Self.weights(s)) }

    /// The Bernstein weights of the four control points at parameter `s`.
    @inline(__always)
    static func weights(_ s: Double) -> (Double, Double, Double, Double) {
        let m = 1 - s
        return (m * m * m, 3 * m * m * s, 3 * m * s * s, s * s * s)
    }

    /// The weights at the chord ends i / chords, worked out once: they are the same for
    /// every curve, and the arc-length table needs all of them for every moving layer.
    static let chordWeights: [(Double, Double, Double, Double)] = (0...chords).map {
        weights(Double($0) / Double(chords))
    }

    @inline(__always)
    func point(weights w: (Double, Double, Double, Double)) -> Point {
        let (a, b, c, d) = w
        return Point(
            a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    func derivative(_ s: Double) -> Point {
        let m = 1 - s
        let d1 = (p1 - p0) * (3 * m * m), d2 = (p2 - p1) * (6 * m * s), d3 = (p3 - p2) * (3 * s * s)
        let d = d1 + d2 + d3
        if d.x == 0 && d.y == 0 { return p3 - p0 }
        return d
    }

    /// The point and tangent at curve parameter `s` (the cubic continued beyond 0…1).
    func pointAtParameter(_ s: Double) -> (point: Point, tangent: Point) {
        (point(s), derivative(s))
    }

    /// The point at `fraction` of the arc length (clamped to the curve beyond 0…1, where
    /// an overshooting easing continues along the end tangents).
    func pointAtLength(fraction: Double) -> (point: Point, tangent: Point) {
        // The chord lengths live on the stack: this runs for every moving layer every frame.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.chords + 1) { lengths in
            lengths[0] = 0
            var previous = p0
            for i in 1...Self.chords {
                let q = point(weights: Self.chordWeights[i])
                let d = q - previous
                lengths[i] = lengths[i - 1] + (d.x * d.x + d.y * d.y).squareRoot()
                previous = q
            }
            return locate(fraction: fraction, lengths: UnsafeBufferPointer(lengths))
        }
    }

    /// The point and tangent at `fraction` of the arc length, from the cumulative lengths
    /// of the chords (`lengths[i]` up to chord end i).
    private func locate(fraction: Double, lengths: UnsafeBufferPointer<Double>) -> (
        point: Point, tangent: Point
    ) {
        let total = lengths[Self.chords]
        guard total > 0 else { return (p0, p3 - p0) }
        if fraction <= 0 {
            let t = derivative(0)
            let n = t * (1 / max((t.x * t.x + t.y * t.y).squareRoot(), 1e-12))
            return (p0 + n * (fraction * total), t)
        }
        if fraction >= 1 {
            let t = derivative(1)
            let n = t * (1 / max((t.x * t.x + t.y * t.y).squareRoot(), 1e-12))
            return (p3 + n * ((fraction - 1) * total), t)
        }
        let target = fraction * total
        var i = 1
        while i < Self.chords && lengths[i] < target { i += 1 }
        let l0 = lengths[i - 1], l1 = lengths[i]
        let local = l1 > l0 ? (target - l0) / (l1 - l0) : 0
        let s = (Double(i - 1) + local) / Double(Self.chords)
        return (point(s), derivative(s))
    }
}

extension KeyframedTransform {
    /// The matrix at `seconds`: anchor, scale, skew, rotation (plus the heading when
    /// auto-oriented), position, in that order.
    public func matrix(at seconds: Double) -> AffineTransform {
        let px: Double, py: Double
        var heading: Double?
        if let positionX, let positionY {
            px = positionX.scalar(at: seconds)
            py = positionY.scalar(at: seconds)
        } else {
            // The heading only for auto-orient: it costs an arc length outside a segment.
            if autoOrient {
                let p: [Double]
                (p, heading) = position.valueAndHeading(at: seconds)
                (px, py) = (p.first ?? 0, p.count > 1 ? p[1] : 0)
            } else {
                let (x, y) = position.firstTwo(at: seconds)
                (px, py) = (x ?? 0, y ?? 0)
            }
        }
        let (s0, s1) = scale.firstTwo(at: seconds)
        var degrees = rotation.scalar(at: seconds)
        if autoOrient, let heading { degrees += heading }
        let skewDegrees = skew.scalar(at: seconds)
        let (a0, a1) = anchor.firstTwo(at: seconds)
        var m = AffineTransform.translation(-(a0 ?? 0), -(a1 ?? 0))
            .concatenating(.scale(s0 ?? 1, s1 ?? (s0 ?? 1)))
        if skewDegrees != 0 {
            let axis = skewAxis.scalar(at: seconds)
            let shear = AffineTransform(
                a: 1, b: 0, c: -tan(skewDegrees * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(.rotation(degrees: axis)).concatenating(shear)
                .concatenating(.rotation(degrees: -axis))
        }
        if degrees != 0 { m = m.concatenating(.rotation(degrees: degrees)) }
        return m.concatenating(.translation(px, py))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
