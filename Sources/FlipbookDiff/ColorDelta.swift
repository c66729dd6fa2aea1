/// The perceptual color distance of the frame diff: squared distance in NTSC YIQ with
/// Kotsarenko & Ramos' weights (2010), as pixelmatch measures it.
///
/// For a difference (dr, dg, db) of 8-bit channels:
///
///     Y = 0.29889531·dr + 0.58662247·dg + 0.11448223·db
///     I = 0.59597799·dr − 0.27417610·dg − 0.32180189·db
///     Q = 0.21147017·dr − 0.52261711·dg + 0.31114694·db
///     Δ = 0.5053·Y² + 0.299·I² + 0.1957·Q²
///
/// Two pixels differ when Δ > 35215 · threshold² (35215 being the largest Δ between two
/// 8-bit colors), so threshold 0 flags any change and 1 flags nothing.
///
/// Pixels are premultiplied RGBA. Semi-transparent pixels are compared as they would show
/// over a backdrop: pixelmatch blends them over white; here Δ is the larger of the
/// distances over black and over white, so a change visible on either backdrop counts
/// (a transparent pixel and an opaque white one differ). Over black the shown color is the
/// premultiplied color itself; over white it is premultiplied + (255 − alpha). For opaque
/// pixels both equal pixelmatch's Δ exactly.
public enum ColorDelta {
    /// The largest possible Δ, pixelmatch's normalizer.
    public static let maximum = 35215.0

    /// The Δ above which two pixels differ, for a threshold in 0…1.
    @inlinable
    public static func limit(threshold: Double) -> Double { maximum * threshold * threshold }

    /// Δ of an RGB difference (any sign).
    @inlinable
    public static func yiq(_ dr: Double, _ dg: Double, _ db: Double) -> Double {
        let y = 0.29889531 * dr + 0.58662247 * dg + 0.11448223 * db
        let i = 0.59597799 * dr - 0.27417610 * dg - 0.32180189 * db
        let q = 0.21147017 * dr - 0.52261711 * dg + 0.31114694 * db
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// Δ between two premultiplied pixels packed as little-endian RGBA words (see the type's
    /// note on transparency). 0 when the words are equal.
    @inlinable
    public static func between(_ p: UInt32, _ q: UInt32) -> Double {
        if p == q { return 0 }
        let dr = Double(Int(p & 0xFF) - Int(q & 0xFF))
        let dg = Double(Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF))
        let db = Double(Int((p >> 16) & 0xFF) - Int((q >> 16) & 0xFF))
        let da = Double(Int(p >> 24) - Int(q >> 24))
        let overBlack = yiq(dr, dg, db)
        if da == 0 { return overBlack }
        return max(overBlack, yiq(dr - da, dg - da, db - da))
    }

    /// Brightness (Y) of a premultiplied pixel shown over white, 0…255.
    @inlinable
    public static func brightnessOverWhite(_ p: UInt32) -> Double {
        let white = Double(255 - Int(p >> 24))
        return 0.29889531 * (Double(p & 0xFF) + white) + 0.58662247
            * (Double((p >> 8) & 0xFF) + white)
            + 0.11448223 * (Double((p >> 16) & 0xFF) + white)
    }
}
