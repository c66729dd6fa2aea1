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

extension Color {
    /// Hexadecimal digits without the `#`: `rgb`, `rgba`, `rrggbb` or `rrggbbaa` (a short
    /// form's digit d stands for dd); nil for other lengths or a character that is not a hex digit.
    /// The one hex colour parser of the package: scenes, Lottie solids and `--matte` read through it.
    package init?(hexDigits digits: some StringProtocol) {
        let values = digits.map { $0.hexDigitValue }
        guard !values.contains(nil) else { return nil }
        let v = values.map { Double($0!) }
        switch v.count {
        case 3, 4:
            // #rgb: each digit is doubled (f → ff), so a digit d means d·17/255 = d/15.
            self.init(
                red: v[0] / 15, green: v[1] / 15, blue: v[2] / 15,
                alpha: v.count == 4 ? v[3] / 15 : 1)
        case 6, 8:
            func byte(_ i: Int) -> Double { (v[2 * i] * 16 + v[2 * i + 1]) / 255 }
            self.init(
                red: byte(0), green: byte(1), blue: byte(2), alpha: v.count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }
}
