import FlipbookGeometry

/// An axial or radial color ramp in CAGradientLayer's manner, evaluated a span at a time.
///
/// Rules:
/// - `transform` maps device pixel coordinates to gradient space; at a pixel center
///   (x + 0.5, y + 0.5) mapped to (x', y') the parameter is t = x' (axial) or
///   t = √(x'² + y'²) (radial).
/// - Colors interpolate unpremultiplied between stops (white → clear passes through
///   translucent gray); locations that are missing, empty or not one per color are spread
///   evenly; decreasing locations are raised to the previous one (a hard stop); before
///   the first and after the last location the end colors extend.
/// - A 1024-entry table of premultiplied colors spans the first…last location, so the
///   table step is 1/1023 of that range: at most 1/8 of an 8-bit level off the exact
///   ramp, and hard stops stay sharp to a thousandth of the range.
public struct Gradient: Sendable {
    public enum Kind: Sendable, Hashable {
        case axial, radial
        /// Radial with its focal point at (x, y) in gradient space (inside the unit
        /// circle): t is where the circle growing from the focal point (radius 0) to the
        /// unit circle (radius 1) passes the pixel, as SVG's fx/fy and After Effects'
        /// highlight draw it.
        case focal(x: Double, y: Double)
    }

    public let kind: Kind
    public let colors: [Color]
    /// The effective stop locations (one per color, non-decreasing).
    public let locations: [Double]
    public let transform: AffineTransform

    static let tableSize = 1024
    let table: [UInt32]
    let tableOrigin: Double
    let tableScale: Double
    /// True when every table entry is opaque.
    let isOpaque: Bool
    /// Radial: squared radii at or below which a pixel takes the table's first entry, and
    /// at or above which its last (see ``radialEnds(origin:scale:)``); unused otherwise.
    let radialEnds: (first: Double, last: Double)

    public init(kind: Kind, colors: [Color], locations: [Double]?, transform: AffineTransform) {
        self.kind = kind
        self.colors = colors.map(\.clamped)
        self.transform = transform
        let n = colors.count
        var locs: [Double]
        if let given = locations, given.count == n, n > 0, given.allSatisfy(\.isFinite) {
            locs = given
        } else {
            locs = (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        }
        for i in locs.indices.dropFirst() where locs[i] < locs[i - 1] { locs[i] = locs[i - 1] }
        self.locations = locs

        let lo = locs.first ?? 0, hi = locs.last ?? 0
        if hi > lo {
            tableOrigin = lo
            tableScale = Double(Self.tableSize - 1) / (hi - lo)
        } else {
            // All stops at one place: a step from the first color to the last there.
            tableOrigin = lo - 0.5 / 1e9
            tableScale = 1e9
        }
        (table, isOpaque) = GradientTables.table(colors: self.colors, locations: locs)
        radialEnds =
            kind == .radial
            ? Self.radialEnds(origin: tableOrigin, scale: tableScale) : (-.infinity, .infinity)
    }

    /// The premultiplied colors at `tableSize` evenly spaced parameters from the first to
    /// the last location, and whether all are opaque.
    static func buildTable(_ colors: [Color], _ locs: [Double]) -> (table: [UInt32], isOpaque: Bool)
    {
        let lo = locs.first ?? 0, hi = locs.last ?? 0
        // Written through the buffer: an animated gradient builds a table every frame, and
        // each store into the array checked its index and uniqueness.
        let table = [UInt32](unsafeUninitializedCapacity: tableSize) { entries, count in
            if hi > lo {
                // One pass: the parameters rise along the table, so the stop pair holding
                // each only moves forward (what `interpolate` finds by scanning from the
                // first stop, which cost 1,024 × stops: 20 s for 100,000 stops).
                var pair = 0
                for i in 0..<tableSize {
                    let t = lo + (hi - lo) * Double(i) / Double(tableSize - 1)
                    entries[i] = premultiplied(interpolate(colors, locs, t, from: &pair))
                }
            } else {
                let first = premultiplied(colors.first ?? .clear)
                let last = premultiplied(colors.last ?? .clear)
                for i in 0..<tableSize { entries[i] = i == 0 ? first : last }
            }
            count = tableSize
        }
        return (table, table.allSatisfy { $0 >> 24 == 255 })
    }

    /// The exact (unpremultiplied) color at parameter `t`.
    public func color(at t: Double) -> Color {
        Self.interpolate(colors, locations, t)
    }

    /// The parameter at a device point (use pixel centers, x + 0.5).
    public func parameter(atDevice p: Point) -> Double {
        let q = transform.apply(p)
        switch kind {
        case .axial: return q.x
        case .radial: return (q.x * q.x + q.y * q.y).squareRoot()
        case .focal(let fx, let fy): return Self.focalParameter(q.x, q.y, fx, fy)
        }
    }

    /// Solves |q + f·t| = t for t ≥ 0 with q = p − f: the focal gradient's parameter.
    @inline(__always)
    static func focalParameter(_ px: Double, _ py: Double, _ fx: Double, _ fy: Double) -> Double {
        let qx = px - fx, qy = py - fy
        let a = 1 - (fx * fx + fy * fy)
        let b = qx * fx + qy * fy
        let q2 = qx * qx + qy * qy
        guard a > 1e-9 else { return q2 / max(-2 * b, 1e-12) }
        return (b + (b * b + a * q2).squareRoot()) / a
    }

    static func interpolate(_ colors: [Color], _ locs: [Double], _ t: Double) -> Color {
        var pair = 0
        return interpolate(colors, locs, t, from: &pair)
    }

    /// The color at `t`, looking for its stop pair from `pair` on (where the previous,
    /// smaller `t` found its own) and leaving it there.
    static func interpolate(_ colors: [Color], _ locs: [Double], _ t: Double, from pair: inout Int)
        -> Color
    {
        guard let first = colors.first, let last = colors.last else { return .clear }
        if t.isNaN || t <= locs[0] { return first }
        if t >= locs[locs.count - 1] { return last }
        var i = pair
        while !(locs[i] <= t && t < locs[i + 1]) { i += 1 }
        pair = i
        let f = (t - locs[i]) / (locs[i + 1] - locs[i])
        let (a, b) = (colors[i], colors[i + 1])
        return Color(
            red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
            blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
    }

    /// Premultiplied RGBA8, each channel rounded from the exact product (half away from
    /// zero, as `rounded()`, without its call into libm: a gradient's table rounds 4,096
    /// values, and an animated gradient builds one every frame).
    static func premultiplied(_ color: Color) -> UInt32 {
        // `color.clamped` channel by channel: that property lives in another module and
        // was called, not inlined, for each of a table's 1,024 entries.
        @inline(__always) func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        let alpha = unit(color.alpha)
        @inline(__always) func q(_ v: Double) -> UInt32 {
            // 0 ≤ v·255 ≤ 255 (clamped channels), where dropping the fraction is exact. The
            // whole part is the floor (the same as truncating here), taken without the
            // range checks of `UInt32(scaled)`, which were most of a table's time.
            let scaled = v * 255
            let whole = CoverageAccumulator.floorToInt(scaled)
            return UInt32(truncatingIfNeeded: scaled - Double(whole) >= 0.5 ? whole + 1 : whole)
        }
        return Compositing.pack(
            q(unit(color.red) * alpha), q(unit(color.green) * alpha),
            q(unit(color.blue) * alpha), q(alpha))
    }
}
