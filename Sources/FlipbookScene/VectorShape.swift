import FlipbookGeometry

/// Vector artwork in After Effects' shape-layer model (what Lottie's shape layers hold):
/// a list of items where paths collect, modifiers (trim, round corners, repeater…)
/// change the paths above them, and fills and strokes paint every path above them in
/// their group and its subgroups. Earlier items draw over later ones.
///
/// Every number is an ``AnimatedValue`` on the owning layer's clock; the timeline
/// evaluates the list at one time and the renderer builds and draws the paths.
public struct VectorShape: Sendable {
    public var items: [VectorItem]

    public init(items: [VectorItem]) {
        self.items = items
    }
}

/// One item of a ``VectorShape`` list.
public indirect enum VectorItem: Sendable {
    case group(VectorGroup)
    /// Position is the centre; roundness is the corner radius.
    case rect(
        position: AnimatedValue, size: AnimatedValue, roundness: AnimatedValue, reversed: Bool)
    case ellipse(position: AnimatedValue, size: AnimatedValue, reversed: Bool)
    case polystar(VectorPolystar)
    /// A ``VectorPathValue`` encoding per keyframe.
    case path(AnimatedValue, reversed: Bool)
    case fill(VectorFill)
    case stroke(VectorStroke)
    case trim(start: AnimatedValue, end: AnimatedValue, offset: AnimatedValue, individually: Bool)
    case repeater(VectorRepeater)
    case roundCorners(radius: AnimatedValue)
    case merge(mode: Int)
    case offsetPath(amount: AnimatedValue, join: LineJoin, miterLimit: AnimatedValue)
    case puckerBloat(amount: AnimatedValue)
    case zigZag(size: AnimatedValue, ridges: AnimatedValue, smooth: Bool)
    case twist(angle: AnimatedValue, center: AnimatedValue)
    /// Glyph text with text animators: one group per character, evaluated per frame.
    case text(VectorText)
}

/// A group: its items drawn through its own transform and opacity.
public struct VectorGroup: Sendable {
    public var items: [VectorItem]
    public var transform: KeyframedTransform

    public init(items: [VectorItem], transform: KeyframedTransform = KeyframedTransform()) {
        self.items = items
        self.transform = transform
    }
}

/// A star or regular polygon (After Effects' polystar).
public struct VectorPolystar: Sendable {
    public var isStar: Bool
    public var position: AnimatedValue
    public var points: AnimatedValue
    /// Degrees.
    public var rotation: AnimatedValue
    public var outerRadius: AnimatedValue
    public var innerRadius: AnimatedValue
    /// Percent, 0…100.
    public var outerRoundness: AnimatedValue
    public var innerRoundness: AnimatedValue
    public var reversed: Bool

    public init(
        isStar: Bool, position: AnimatedValue, points: AnimatedValue, rotation: AnimatedValue,
        outerRadius: AnimatedValue, innerRadius: AnimatedValue, outerRoundness: AnimatedValue,
        innerRoundness: AnimatedValue, reversed: Bool
    ) {
        self.isStar = isStar
        self.position = position
        self.points = points
        self.rotation = rotation
        self.outerRadius = outerRadius
        self.innerRadius = innerRadius
        self.outerRoundness = outerRoundness
        self.innerRoundness = innerRoundness
        self.reversed = reversed
    }
}

/// What a fill or stroke paints with.
public enum VectorPaint: Sendable {
    /// [r, g, b] or [r, g, b, a], 0…1.
    case solid(AnimatedValue)
    case gradient(VectorGradient)
}

/// A linear or radial gradient in the group's coordinates.
public struct VectorGradient: Sendable {
    public var radial: Bool
    /// How many colour stops lead the stop vector ([offset, r, g, b] each); opacity stops
    /// ([offset, alpha] each) may follow.
    public var colorStopCount: Int
    public var stops: AnimatedValue
    public var start: AnimatedValue
    public var end: AnimatedValue
    /// Radial only: where the focal point sits along start→end, percent of the radius.
    public var highlightLength: AnimatedValue
    /// Radial only: degrees, the focal point's direction from the start.
    public var highlightAngle: AnimatedValue

    public init(
        radial: Bool, colorStopCount: Int, stops: AnimatedValue, start: AnimatedValue,
        end: AnimatedValue,
        highlightLength: AnimatedValue = .constant([0]),
        highlightAngle: AnimatedValue = .constant([0])
    ) {
        self.radial = radial
        self.colorStopCount = colorStopCount
        self.stops = stops
        self.start = start
        self.end = end
        self.highlightLength = highlightLength
        self.highlightAngle = highlightAngle
    }
}

public struct VectorFill: Sendable {
    public var paint: VectorPaint
    /// 0…1.
    public var opacity: AnimatedValue
    public var rule: FillRule

    public init(paint: VectorPaint, opacity: AnimatedValue, rule: FillRule) {
        self.paint = paint
        self.opacity = opacity
        self.rule = rule
    }
}

public struct VectorStroke: Sendable {
    public var paint: VectorPaint
    public var opacity: AnimatedValue
    public var width: AnimatedValue
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    /// Alternating dash and gap lengths.
    public var dashes: [AnimatedValue]
    public var dashOffset: AnimatedValue

    public init(
        paint: VectorPaint, opacity: AnimatedValue, width: AnimatedValue, cap: LineCap,
        join: LineJoin,
        miterLimit: Double, dashes: [AnimatedValue] = [], dashOffset: AnimatedValue = .constant([0])
    ) {
        self.paint = paint
        self.opacity = opacity
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.dashOffset = dashOffset
    }
}

/// Copies of the items above it, each moved by the transform once more.
public struct VectorRepeater: Sendable {
    public var copies: AnimatedValue
    public var offset: AnimatedValue
    /// Later copies draw above earlier ones (After Effects' "above" composite).
    public var newerAbove: Bool
    public var transform: KeyframedTransform
    /// 0…1, the first and last copy's opacity.
    public var startOpacity: AnimatedValue
    public var endOpacity: AnimatedValue

    public init(
        copies: AnimatedValue, offset: AnimatedValue, newerAbove: Bool,
        transform: KeyframedTransform,
        startOpacity: AnimatedValue, endOpacity: AnimatedValue
    ) {
        self.copies = copies
        self.offset = offset
        self.newerAbove = newerAbove
        self.transform = transform
        self.startOpacity = startOpacity
        self.endOpacity = endOpacity
    }
}

/// A 2-D transform keyframed as After Effects does: x' = position + R·Skew·S·(x − anchor).
public struct KeyframedTransform: Sendable {
    public var anchor: AnimatedValue
    /// [x, y]; ignored when `positionX` and `positionY` are set (separated dimensions).
    public var position: AnimatedValue
    public var positionX: AnimatedValue?
    public var positionY: AnimatedValue?
    /// Factors (1 = 100 %).
    public var scale: AnimatedValue
    /// Degrees, clockwise on screen.
    public var rotation: AnimatedValue
    /// 0…1.
    public var opacity: AnimatedValue
    /// Degrees.
    public var skew: AnimatedValue
    public var skewAxis: AnimatedValue
    /// Adds the direction of travel of `position` to the rotation (auto-orient).
    public var autoOrient: Bool

    public init(
        anchor: AnimatedValue = .constant([0, 0]), position: AnimatedValue = .constant([0, 0]),
        positionX: AnimatedValue? = nil, positionY: AnimatedValue? = nil,
        scale: AnimatedValue = .constant([1, 1]), rotation: AnimatedValue = .constant([0]),
        opacity: AnimatedValue = .constant([1]), skew: AnimatedValue = .constant([0]),
        skewAxis: AnimatedValue = .constant([0]), autoOrient: Bool = false
    ) {
        self.anchor = anchor
        self.position = position
        self.positionX = positionX
        self.positionY = positionY
        self.scale = scale
        self.rotation = rotation
        self.opacity = opacity
        self.skew = skew
        self.skewAxis = skewAxis
        self.autoOrient = autoOrient
    }
}

/// The flat-vector encoding of a Bézier path value, so that paths interpolate like any
/// other keyframed vector: [closed (0/1), vertex count, then per vertex x, y, in-tangent
/// x, y, out-tangent x, y], tangents relative to their vertex.
public enum VectorPathValue {
    public static func encode(
        closed: Bool, vertices: [Point], inTangents: [Point], outTangents: [Point]
    ) -> [Double] {
        var v: [Double] = [closed ? 1 : 0, Double(vertices.count)]
        v.reserveCapacity(2 + 6 * vertices.count)
        for i in vertices.indices {
            let inT = i < inTangents.count ? inTangents[i] : .zero
            let outT = i < outTangents.count ? outTangents[i] : .zero
            v += [vertices[i].x, vertices[i].y, inT.x, inT.y, outT.x, outT.y]
        }
        return v
    }

    /// The path a vector describes (empty when malformed).
    public static func path(_ v: [Double]) -> Path {
        guard v.count >= 2 else { return Path() }
        let count = min(Int(max(0, min(v[1], 1e6))), (v.count - 2) / 6)
        guard count > 0 else { return Path() }
        func vertex(_ i: Int) -> (Point, Point, Point) {
            let b = 2 + 6 * i
            let p = Point(v[b], v[b + 1])
            return (p, p + Point(v[b + 2], v[b + 3]), p + Point(v[b + 4], v[b + 5]))
        }
        var path = Path()
        // A move, a segment per vertex and a close: one allocation, not the array's doublings.
        path.elements.reserveCapacity(count + 2)
        path.move(to: vertex(0).0)
        func segment(_ from: Int, _ to: Int) {
            let a = vertex(from), b = vertex(to)
            if a.2 == a.0 && b.1 == b.0 {
                path.line(to: b.0)
            } else {
                path.cubic(to: b.0, control1: a.2, control2: b.1)
            }
        }
        for i in 1..<count { segment(i - 1, i) }
        if v[0] >= 0.5 {
            if count > 1 || vertex(0).2 != vertex(0).0 { segment(count - 1, 0) }
            path.close()
        }
        return path
    }
}

extension VectorShape {
    /// Path elements the artwork draws at its first keyframes, repeaters multiplying what
    /// they copy, for the resource limits (a hostile file cannot make a billion copies).
    public var pathElementCount: Int { Self.count(items) }

    private static func count(_ items: [VectorItem]) -> Int {
        var total = 0
        for item in items {
            switch item {
            case .group(let g): total = ResourceLimits.saturating(total, 1, plus: count(g.items))
            case .path(let value, _):
                let v = value.initial
                total = ResourceLimits.saturating(
                    total, 1, plus: v.count >= 2 ? Int(min(max(v[1], 0), 1e9)) + 2 : 0)
            case .rect, .ellipse: total = ResourceLimits.saturating(total, 1, plus: 10)
            case .polystar(let s):
                total = ResourceLimits.saturating(
                    total, 1, plus: 2 * Int(min(max(s.points.initial.first ?? 0, 0), 1e9)) + 2)
            case .text(let text):
                for c in text.characters {
                    total = ResourceLimits.saturating(total, 1, plus: count(c.shapes) + 2)
                }
            case .repeater(let r):
                let copies = Int(min(max(r.copies.initial.first ?? 1, 0), 1e9).rounded(.up))
                total = ResourceLimits.saturating(total, max(copies, 1), plus: 0)
            default: break
            }
        }
        return total
    }
}
