import Foundation

/// The color distance a comparison uses.
public enum DiffMetric: String, Sendable, Hashable, Codable, CaseIterable {
    /// Squared YIQ distance (Kotsarenko & Ramos 2010), pixelmatch up to 7.2: see ``ColorDelta``.
    case yiq
    /// HyAB distance in OKLab with Ottosson's toe-corrected lightness Lr, pixelmatch's main
    /// branch after 7.2.0: see ``OklabDelta``.
    case oklab
}

/// What semi-transparent pixels are shown over before their colors are compared. (The
/// anti-aliasing detector's brightness is taken over white with every backdrop.)
public enum Backdrop: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both black and white; the larger distance counts, so a change visible on either
    /// backdrop is a change (Flipbook's default: a transparent and an opaque white pixel
    /// differ).
    case blackAndWhite = "black-and-white"
    /// White, as pixelmatch up to 7.1 and main's `checkerboard: false`.
    case white
    /// pixelmatch 7.2's pattern: channel backgrounds of 48 or 207 chosen by the pixel's byte
    /// offset k (red 48 + 159·(k mod 2), green with ⌊k / φ⌋, blue with ⌊k / (φ + 1)⌋).
    case checkerboard
}

/// One comparison's per-pixel rules: whether two pixels differ beyond the threshold, and
/// the brightness slope the anti-aliasing detector follows.
///
/// Pixels are RGBA words (little-endian r, g, b, a), premultiplied (Flipbook's `Pixmap`)
/// or straight (PNG files as pixelmatch reads them); a pixel is shown over the backdrop
/// before it is measured: premultiplied c + B·(255 − a)/255, straight (c·a + B·(255 − a))/255.
/// Opaque pixels are their own color either way.
public struct PixelMetric: Sendable {
    public let metric: DiffMetric
    public let backdrop: Backdrop
    public let premultiplied: Bool
    /// The threshold in the metric's units: 35215·threshold² for YIQ's Δ, the threshold
    /// itself for OKLab's HyAB distance.
    public let limit: Double

    /// Flipbook's default (YIQ over black and white, premultiplied frames): measured by
    /// ``ColorDelta`` directly, the same numbers as before the other metrics existed and
    /// no per-pixel dispatch.
    let isDefault: Bool

    public init(
        metric: DiffMetric = .yiq, backdrop: Backdrop = .blackAndWhite, premultiplied: Bool = true,
        threshold: Double = 0.1
    ) {
        self.metric = metric
        self.backdrop = backdrop
        self.premultiplied = premultiplied
        self.limit = metric == .yiq ? ColorDelta.limit(threshold: threshold) : threshold
        self.isDefault = metric == .yiq && backdrop == .blackAndWhite && premultiplied
    }

    /// The backdrop color under pixel `index` (its byte offset is 4·index, as pixelmatch's k).
    @inline(__always)
    func backdropColor(index: Int, white: Bool) -> (Double, Double, Double) {
        switch backdrop {
        case .blackAndWhite: return white ? (255, 255, 255) : (0, 0, 0)
        case .white: return (255, 255, 255)
        case .checkerboard:
            let k = 4 * index
            return (
                48 + 159 * Double(k % 2), 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2),
                48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
            )
        }
    }

    /// The pixel's color shown over `bg`, channels in 0…255.
    @inline(__always)
    func shown(_ p: UInt32, over bg: (Double, Double, Double)) -> (Double, Double, Double) {
        let r = Double(p & 0xFF), g = Double((p >> 8) & 0xFF), b = Double((p >> 16) & 0xFF)
        let a = Double(p >> 24)
        if a == 255 { return (r, g, b) }
        if premultiplied {
            return (
                r + bg.0 * (255 - a) / 255, g + bg.1 * (255 - a) / 255, b + bg.2 * (255 - a) / 255
            )
        }
        return (
            (r * a + bg.0 * (255 - a)) / 255, (g * a + bg.1 * (255 - a)) / 255,
            (b * a + bg.2 * (255 - a)) / 255
        )
    }

    /// Whether two pixels at `index` differ beyond the threshold (over black and white, a
    /// difference over either backdrop counts).
    @inline(__always)
    public func differs(_ p: UInt32, _ q: UInt32, index: Int) -> Bool {
        if p == q { return false }
        if isDefault { return ColorDelta.between(p, q) > limit }
        let bg = backdropColor(index: index, white: true)
        if exceeds(shown(p, over: bg), shown(q, over: bg)) { return true }
        let opaque = p >> 24 == 255 && q >> 24 == 255
        if opaque || backdrop != .blackAndWhite { return false }
        let black = backdropColor(index: index, white: false)
        return exceeds(shown(p, over: black), shown(q, over: black))
    }

    @inline(__always)
    func exceeds(_ x: (Double, Double, Double), _ y: (Double, Double, Double)) -> Bool {
        switch metric {
        case .yiq: return ColorDelta.yiq(x.0 - y.0, x.1 - y.1, x.2 - y.2) > limit
        case .oklab: return OklabDelta.exceeds(x, y, threshold: limit)
        }
    }

    /// Brightness (YIQ's Y, 0…255 scale) of `center` minus that of `neighbour`, both shown
    /// over white whatever the backdrop, as pixelmatch main's anti-aliasing detector takes
    /// it: a ramp test needs one fixed background, and the checkerboard's changes from pixel
    /// to pixel would break the very ramps it looks for. When the two show the same
    /// brightness but their alphas differ, half the alpha difference (center minus
    /// neighbour) is the slope, so only pixels equal in both count as equal neighbours.
    @inline(__always)
    public func brightnessSlope(center c: UInt32, neighbour n: UInt32) -> Double {
        if c == n { return 0 }
        let ca = Int(c >> 24), na = Int(n >> 24), da = ca - na
        let cr = Int(c & 0xFF), cg = Int((c >> 8) & 0xFF), cb = Int((c >> 16) & 0xFF)
        let nr = Int(n & 0xFF), ng = Int((n >> 8) & 0xFF), nb = Int((n >> 16) & 0xFF)
        let dr: Double, dg: Double, db: Double
        if (ca == 255 && na == 255) || premultiplied {
            // Over white a premultiplied pixel shows c + 255 − a: whole numbers, exact.
            dr = Double(cr - nr - da); dg = Double(cg - ng - da); db = Double(cb - nb - da)
        } else {
            dr = Double(cr * ca - nr * na - 255 * da) / 255
            dg = Double(cg * ca - ng * na - 255 * da) / 255
            db = Double(cb * ca - nb * na - 255 * da) / 255
        }
        let d = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        return d == 0 && da != 0 ? Double(da) / 2 : d
    }
}
