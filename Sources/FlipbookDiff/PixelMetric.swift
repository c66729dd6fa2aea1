import Foundation

/// The color distance a comparison uses.
public enum DiffMetric: String, Sendable, Hashable, Codable, CaseIterable {
    /// Squared YIQ distance (Kotsarenko & Ramos 2010), pixelmatch up to 7.2: see ``ColorDelta``.
    case yiq
    /// HyAB distance in OKLab with Ottosson's toe-corrected lightness Lr, pixelmatch's main
    /// branch after 7.2.0: see ``OklabDelta``.
    case oklab
}

/// What semi-transparent pixels are shown over before their colors are compared.
public enum Backdrop: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both black and white; the larger distance counts, so a change visible on either
    /// backdrop is a change (Flipbook's default: a transparent and an opaque white pixel
    /// differ). Anti-aliasing brightness is taken over white.
    case blackAndWhite = "black-and-white"
    /// White, as pixelmatch up to 7.1 and main's `checkerboard: false`.
    case white
    /// pixelmatch 7.2's pattern: channel backgrounds of 48 or 207 chosen by the pixel's byte
    /// offset k (red 48 + 159·(k mod 2), green with ⌊k / φ⌋, blue with ⌊k / (φ + 1)⌋).
    case checkerboard
}

/// One comparison's per-pixel rules: the distance between two pixels against the
/// threshold, and the brightness slope the anti-aliasing detector follows.
///
/// Pixels are RGBA words (little-endian r, g, b, a), premultiplied (Flipbook's `Pixmap`)
/// or straight (PNG files as pixelmatch reads them); a pixel is shown over the backdrop
/// before it is measured: premultiplied c + B·(255 − a)/255, straight (c·a + B·(255 − a))/255.
/// Opaque pixels are their own color either way.
public struct PixelMetric: Sendable {
    public let metric: DiffMetric
    public let backdrop: Backdrop
    public let premultiplied: Bool
    /// Distances above this differ: 35215·threshold² for YIQ, threshold for OKLab.
    public let limit: Double

    /// Flipbook's default (YIQ over black and white, premultiplied frames): measured by
    /// ``ColorDelta`` directly, the same numbers as before the other metrics existed and
    /// no per-pixel dispatch.
    let isDefault: Bool

    public init(metric: DiffMetric = .yiq, backdrop: Backdrop = .blackAndWhite, premultiplied: Bool = true,
                threshold: Double = 0.1) {
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
            return (48 + 159 * Double(k % 2), 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2),
                    48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2))
        }
    }

    /// The pixel's color shown over `bg`, channels in 0…255.
    @inline(__always)
    func shown(_ p: UInt32, over bg: (Double, Double, Double)) -> (Double, Double, Double) {
        let r = Double(p & 0xFF), g = Double((p >> 8) & 0xFF), b = Double((p >> 16) & 0xFF)
        let a = Double(p >> 24)
        if a == 255 { return (r, g, b) }
        if premultiplied { return (r + bg.0 * (255 - a) / 255, g + bg.1 * (255 - a) / 255, b + bg.2 * (255 - a) / 255) }
        return ((r * a + bg.0 * (255 - a)) / 255, (g * a + bg.1 * (255 - a)) / 255, (b * a + bg.2 * (255 - a)) / 255)
    }

    /// The distance between two different pixels at `index`, to compare with ``limit``.
    @inline(__always)
    public func delta(_ p: UInt32, _ q: UInt32, index: Int) -> Double {
        if p == q { return 0 }
        if isDefault { return ColorDelta.between(p, q) }
        let opaque = p >> 24 == 255 && q >> 24 == 255
        let bg = backdropColor(index: index, white: true)
        let d = distance(shown(p, over: bg), shown(q, over: bg))
        if opaque || backdrop != .blackAndWhite { return d }
        let black = backdropColor(index: index, white: false)
        return max(d, distance(shown(p, over: black), shown(q, over: black)))
    }

    @inline(__always)
    func distance(_ x: (Double, Double, Double), _ y: (Double, Double, Double)) -> Double {
        switch metric {
        case .yiq: return ColorDelta.yiq(x.0 - y.0, x.1 - y.1, x.2 - y.2)
        case .oklab: return OklabDelta.between(x, y)
        }
    }

    /// Brightness of `center` minus that of `neighbour`, both shown over the backdrop at the
    /// center's position (pixelmatch's brightness delta): YIQ's Y, 0…255 scale.
    @inline(__always)
    public func brightnessSlope(center c: UInt32, neighbour n: UInt32, index: Int) -> Double {
        if c == n { return 0 }
        if isDefault { return ColorDelta.brightnessOverWhite(c) - ColorDelta.brightnessOverWhite(n) }
        let bg = backdropColor(index: index, white: true)
        let x = shown(c, over: bg), y = shown(n, over: bg)
        return 0.29889531 * (x.0 - y.0) + 0.58662247 * (x.1 - y.1) + 0.11448223 * (x.2 - y.2)
    }
}

/// HyAB distance in OKLab with the toe-corrected lightness Lr (Ottosson 2020; Abasi et al.
/// 2019), as pixelmatch's main branch measures color difference after 7.2.0:
///
///     d = (|ΔLr| + √(Δa² + Δb²)) / d(black, white)
///
/// sRGB channels are linearized with the sRGB transfer function, converted to OKLab with
/// Ottosson's matrices, and L is replaced by Lr = (k3·L − k1 + √((k3·L − k1)² + 4·k2·k3·L)) / 2,
/// k1 = 0.206, k2 = 0.03, k3 = (1 + k1)/(1 + k2), which lowers sensitivity near black. The
/// division makes black↔white exactly 1, so a threshold means the fraction of that span
/// (pixelmatch's threshold semantics; the default 0.1 is kept).
public enum OklabDelta {
    /// sRGB → linear for the 256 8-bit values (the transfer function, tabulated).
    static let linearTable: [Double] = (0..<256).map { linear(Double($0)) }

    @inline(__always)
    static func linear(_ c: Double) -> Double {
        let v = c / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    @inline(__always)
    static func channel(_ c: Double) -> Double {
        let i = Int(c)
        return Double(i) == c && i >= 0 && i < 256 ? linearTable[i] : linear(c)
    }

    /// (Lr, a, b) of an sRGB color with channels in 0…255.
    public static func lab(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
        let r = channel(c.0), g = channel(c.1), b = channel(c.2)
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        let L = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        let A = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        let B = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        return (toe(L), A, B)
    }

    /// Ottosson's lightness estimate Lr from OKLab's L.
    @inline(__always)
    public static func toe(_ x: Double) -> Double {
        let k1 = 0.206, k2 = 0.03, k3 = (1 + k1) / (1 + k2)
        let t = k3 * x - k1
        return 0.5 * (t + (t * t + 4 * k2 * k3 * x).squareRoot())
    }

    @inline(__always)
    static func hyab(_ p: (Double, Double, Double), _ q: (Double, Double, Double)) -> Double {
        let da = p.1 - q.1, db = p.2 - q.2
        return abs(p.0 - q.0) + (da * da + db * db).squareRoot()
    }

    /// HyAB between black and white, the normalizer.
    public static let blackToWhite = hyab(lab((0, 0, 0)), lab((255, 255, 255)))

    /// The normalized distance between two sRGB colors (channels 0…255).
    @inline(__always)
    public static func between(_ x: (Double, Double, Double), _ y: (Double, Double, Double)) -> Double {
        hyab(lab(x), lab(y)) / blackToWhite
    }
}
