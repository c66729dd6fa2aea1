/// An sRGB color with straight (not premultiplied) alpha, every channel in 0…1.
///
/// Scene files give colors this way, and Core Animation interpolates them this way
/// (white → clear passes through translucent gray); the rasterizer premultiplies only
/// when it composites.
public struct Color: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// The same color with every channel clamped to 0…1 (NaN becomes 0).
    public var clamped: Color {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    /// Whether drawing this color changes nothing (alpha rounds to 0 in 8 bits).
    public var isInvisible: Bool { alpha * 255 < 0.5 }
}
