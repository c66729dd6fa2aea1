import FlipbookGeometry

/// Colors as the format writes them: hex strings, names, and component lists.
enum ColorParser {
    /// UIKit's named colors (`UIColor.orange` is (1, 0.5, 0), `.gray` is 0.5 white, …).
    static let named: [String: Color] = [
        "clear": .clear,
        "black": .black,
        "white": .white,
        "gray": gray(0.5), "grey": gray(0.5),
        "lightGray": gray(2.0 / 3), "lightGrey": gray(2.0 / 3),
        "darkGray": gray(1.0 / 3), "darkGrey": gray(1.0 / 3),
        "red": Color(red: 1, green: 0, blue: 0),
        "green": Color(red: 0, green: 1, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 1),
        "cyan": Color(red: 0, green: 1, blue: 1),
        "yellow": Color(red: 1, green: 1, blue: 0),
        "magenta": Color(red: 1, green: 0, blue: 1),
        "orange": Color(red: 1, green: 0.5, blue: 0),
        "purple": Color(red: 0.5, green: 0, blue: 0.5),
        "brown": Color(red: 0.6, green: 0.4, blue: 0.2),
    ]

    private static func gray(_ w: Double) -> Color { Color(red: w, green: w, blue: w) }

    /// A name (case-insensitive) or `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`;
    /// nil when the string is neither.
    static func parse(_ text: String) -> Color? {
        if text.hasPrefix("#") { return hex(String(text.dropFirst())) }
        if let color = named[text] { return color }
        return named.first { $0.key.lowercased() == text.lowercased() }?.value
    }

    private static func hex(_ digits: String) -> Color? {
        let values = digits.map { $0.hexDigitValue }
        guard !values.contains(nil) else { return nil }
        let v = values.map { Double($0!) }
        switch v.count {
        case 3, 4:
            // #rgb: each digit is doubled (f → ff), so a digit d means d·17/255 = d/15.
            return Color(red: v[0] / 15, green: v[1] / 15, blue: v[2] / 15, alpha: v.count == 4 ? v[3] / 15 : 1)
        case 6, 8:
            func byte(_ i: Int) -> Double { (v[2 * i] * 16 + v[2 * i + 1]) / 255 }
            return Color(red: byte(0), green: byte(1), blue: byte(2), alpha: v.count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }
}
