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
        if text.hasPrefix("#") { return Color(hexDigits: text.dropFirst()) }
        if let color = named[text] { return color }
        return named.first { $0.key.lowercased() == text.lowercased() }?.value
    }
}
