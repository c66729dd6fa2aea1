import FlipbookGeometry
import FlipbookScene

/// A ``VectorShape`` evaluated at one time: plain numbers and paths, ready to draw.
/// Rects, ellipses, polystars and keyframed paths are already outlines here; the
/// modifiers that measure or reshape outlines (trim, round corners…) are applied by the
/// renderer, which owns path measuring.
public indirect enum VectorNode: Sendable, Equatable {
    case group(VectorGroupFrame)
    case path(Path)
    case fill(paint: VectorPaintFrame, rule: FillRule)
    case stroke(paint: VectorPaintFrame, style: VectorStrokeFrame)
    case trim(start: Double, end: Double, offset: Double, individually: Bool)
    case repeater(VectorRepeaterFrame)
    case roundCorners(radius: Double)
    case merge(mode: Int)
    case offsetPath(amount: Double, join: LineJoin, miterLimit: Double)
    case puckerBloat(amount: Double)
    case zigZag(size: Double, ridges: Int, smooth: Bool)
    case twist(angle: Double, center: Point)
}

public struct VectorGroupFrame: Sendable, Equatable {
    public var nodes: [VectorNode]
    public var transform: AffineTransform
    public var opacity: Double

    public init(nodes: [VectorNode], transform: AffineTransform, opacity: Double) {
        self.nodes = nodes
        self.transform = transform
        self.opacity = opacity
    }
}

/// A paint with its opacity folded in.
public enum VectorPaintFrame: Sendable, Equatable {
    case solid(Color)
    case gradient(VectorGradientFrame)
}

public struct VectorGradientFrame: Sendable, Equatable {
    public var radial: Bool
    public var colors: [Color]
    public var locations: [Double]
    public var start: Point
    public var end: Point
    /// The radial focal point (equal to `start` without a highlight).
    public var focal: Point
    /// Multiplies every stop's alpha (the style's opacity).
    public var opacity: Double
}

public struct VectorStrokeFrame: Sendable, Equatable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    public var dashes: [Double]
    public var dashOffset: Double
}

public struct VectorRepeaterFrame: Sendable, Equatable {
    public var copies: Int
    public var offset: Double
    public var newerAbove: Bool
    public var anchor: Point
    public var position: Point
    public var scale: Point
    public var rotation: Double
    public var startOpacity: Double
    public var endOpacity: Double
}

extension VectorShape {
    /// Every item at `seconds`.
    public func evaluate(at seconds: Double) -> [VectorNode] {
        Self.evaluate(items, at: seconds)
    }

    static func evaluate(_ items: [VectorItem], at t: Double) -> [VectorNode] {
        items.map { evaluate($0, at: t) }
    }

    static func evaluate(_ item: VectorItem, at t: Double) -> VectorNode {
        func point(_ v: AnimatedValue) -> Point {
            let x = v.value(at: t)
            return Point(x.first ?? 0, x.count > 1 ? x[1] : 0)
        }
        switch item {
        case .group(let g):
            return .group(
                VectorGroupFrame(
                    nodes: evaluate(g.items, at: t), transform: g.transform.matrix(at: t),
                    opacity: g.transform.opacity.scalar(at: t)))
        case .rect(let position, let size, let roundness, let reversed):
            return .path(
                VectorOutlines.rect(
                    center: point(position), size: point(size),
                    roundness: roundness.scalar(at: t), reversed: reversed))
        case .ellipse(let position, let size, let reversed):
            return .path(
                VectorOutlines.ellipse(
                    center: point(position), size: point(size), reversed: reversed))
        case .polystar(let s):
            return .path(
                VectorOutlines.polystar(
                    isStar: s.isStar, center: point(s.position), points: s.points.scalar(at: t),
                    rotation: s.rotation.scalar(at: t), outerRadius: s.outerRadius.scalar(at: t),
                    innerRadius: s.innerRadius.scalar(at: t),
                    outerRoundness: s.outerRoundness.scalar(at: t),
                    innerRoundness: s.innerRoundness.scalar(at: t), reversed: s.reversed))
        case .path(let value, let reversed):
            let path = VectorPathValue.path(value.value(at: t))
            return .path(reversed ? VectorOutlines.reversed(path) : path)
        case .fill(let f):
            return .fill(
                paint: paint(f.paint, opacity: f.opacity.scalar(at: t), at: t), rule: f.rule)
        case .stroke(let s):
            return .stroke(
                paint: paint(s.paint, opacity: s.opacity.scalar(at: t), at: t),
                style: VectorStrokeFrame(
                    width: s.width.scalar(at: t), cap: s.cap, join: s.join,
                    miterLimit: s.miterLimit,
                    dashes: s.dashes.map { $0.scalar(at: t) },
                    dashOffset: s.dashOffset.scalar(at: t)))
        case .trim(let start, let end, let offset, let individually):
            return .trim(
                start: start.scalar(at: t), end: end.scalar(at: t), offset: offset.scalar(at: t),
                individually: individually)
        case .repeater(let r):
            let s = point(r.transform.scale)
            return .repeater(
                VectorRepeaterFrame(
                    copies: Int(max(0, min(r.copies.scalar(at: t), 1000)).rounded(.up)),
                    offset: r.offset.scalar(at: t),
                    newerAbove: r.newerAbove, anchor: point(r.transform.anchor),
                    position: point(r.transform.position),
                    scale: s, rotation: r.transform.rotation.scalar(at: t),
                    startOpacity: r.startOpacity.scalar(at: t),
                    endOpacity: r.endOpacity.scalar(at: t)))
        case .roundCorners(let radius): return .roundCorners(radius: radius.scalar(at: t))
        case .merge(let mode): return .merge(mode: mode)
        case .offsetPath(let amount, let join, let miter):
            return .offsetPath(
                amount: amount.scalar(at: t), join: join, miterLimit: miter.scalar(at: t))
        case .puckerBloat(let amount): return .puckerBloat(amount: amount.scalar(at: t))
        case .zigZag(let size, let ridges, let smooth):
            // lottie-web rounds the ridge count.
            let r = ridges.scalar(at: t)
            return .zigZag(
                size: size.scalar(at: t),
                ridges: r.isFinite ? Int(max(0, min(r, 1000)).rounded()) : 0,
                smooth: smooth)
        case .twist(let angle, let center):
            return .twist(angle: angle.scalar(at: t), center: point(center))
        case .text(let text): return text.evaluate(at: t)
        }
    }

    static func paint(_ paint: VectorPaint, opacity: Double, at t: Double) -> VectorPaintFrame {
        switch paint {
        case .solid(let value):
            let c = value.value(at: t)
            func ch(_ i: Int) -> Double { i < c.count ? c[i] : 1 }
            return .solid(
                Color(
                    red: ch(0), green: ch(1), blue: ch(2), alpha: (c.count > 3 ? c[3] : 1) * opacity
                ))
        case .gradient(let g):
            let raw = g.stops.value(at: t)
            let (colors, locations) = VectorGradientStops.resolve(raw, colorStops: g.colorStopCount)
            let s = g.start.value(at: t), e = g.end.value(at: t)
            let start = Point(s.first ?? 0, s.count > 1 ? s[1] : 0)
            let end = Point(e.first ?? 0, e.count > 1 ? e[1] : 0)
            var focal = start
            if g.radial {
                // lottie-web: the highlight sits at length% of the radius (kept inside
                // it), at the angle from the start→end direction.
                let radius =
                    ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y))
                    .squareRoot()
                var length = g.highlightLength.scalar(at: t) / 100
                length = min(max(length, -0.99), 0.99)
                let angle =
                    g.highlightAngle.scalar(at: t) * .pi / 180
                    + atan2(end.y - start.y, end.x - start.x)
                focal = Point(
                    start.x + cos(angle) * radius * length, start.y + sin(angle) * radius * length)
            }
            return .gradient(
                VectorGradientFrame(
                    radial: g.radial, colors: colors, locations: locations, start: start,
                    end: end, focal: focal, opacity: opacity))
        }
    }
}

/// Lottie's gradient stop vector: `colorStops` × [offset, r, g, b], then optional
/// opacity stops × [offset, alpha]. Opacity stops are sampled at every colour stop's
/// offset and colour stops at every opacity stop's, so both ramps survive in one list.
public enum VectorGradientStops {
    public static func resolve(_ raw: [Double], colorStops: Int) -> ([Color], [Double]) {
        let n = max(0, min(colorStops, raw.count / 4))
        var colorOffsets: [Double] = [], rgb: [(Double, Double, Double)] = []
        for i in 0..<n {
            colorOffsets.append(raw[4 * i])
            rgb.append((raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]))
        }
        var alphaOffsets: [Double] = [], alphas: [Double] = []
        var i = 4 * n
        while i + 1 < raw.count {
            alphaOffsets.append(raw[i])
            alphas.append(raw[i + 1])
            i += 2
        }
        guard n > 0 else { return ([.clear], [0]) }
        var offsets = colorOffsets
        if !alphaOffsets.isEmpty {
            // Stable merge: repeated colour offsets (hard stops) stay as they are.
            let known = Set(colorOffsets)
            offsets = (colorOffsets + alphaOffsets.filter { !known.contains($0) })
                .enumerated().sorted {
                    $0.element != $1.element ? $0.element < $1.element : $0.offset < $1.offset
                }
                .map(\.element)
        }
        let red = StopRamp(colorOffsets, rgb.map(\.0)), green = StopRamp(colorOffsets, rgb.map(\.1))
        let blue = StopRamp(colorOffsets, rgb.map(\.2))
        let alpha = alphaOffsets.isEmpty ? nil : StopRamp(alphaOffsets, alphas)
        let colors = offsets.map { x in
            Color(
                red: red.value(at: x), green: green.value(at: x), blue: blue.value(at: x),
                alpha: alpha?.value(at: x) ?? 1)
        }
        return (colors, offsets)
    }
}

/// One channel's ramp over stop offsets, read as lottie-web reads it: before the first
/// offset the first value; else between the first stop j ≥ 1 whose offset is ≥ x and the
/// one before it; after all of them the last value. Offsets in a file need not rise, so
/// "the first j" is found by binary search over the running maximum of the offsets (the
/// first j whose running maximum reaches x is the first whose own offset does): log n per
/// lookup where a scan from the start made a gradient of n stops cost n² per frame.
struct StopRamp {
    let offsets: [Double]
    let values: [Double]
    /// runningMax[k] = the largest of offsets[1...k + 1], NaN offsets (never ≥ x) skipped,
    /// NaN while there is none yet: false, then rising, so binary search applies.
    private let runningMax: [Double]

    init(_ offsets: [Double], _ values: [Double]) {
        self.offsets = offsets
        self.values = values
        var top = Double.nan
        runningMax = offsets.dropFirst().map { o in
            if !o.isNaN, top.isNaN || o > top { top = o }
            return top
        }
    }

    func value(at x: Double) -> Double {
        if x <= offsets[0] { return values[0] }
        // The first k with runningMax[k] ≥ x (a NaN x finds none).
        var lo = 0, hi = runningMax.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runningMax[mid] >= x { hi = mid } else { lo = mid + 1 }
        }
        guard lo < runningMax.count else { return values[values.count - 1] }
        let j = lo + 1
        let span = offsets[j] - offsets[j - 1]
        let f = span > 0 ? (x - offsets[j - 1]) / span : 1
        return values[j - 1] + (values[j] - values[j - 1]) * f
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
