/// Cuts a line to a width with an ellipsis, where CATextLayer's truncation modes put it.
///
/// Rules:
/// - `.end` keeps the longest head ("Hello wo…"), `.start` the longest tail ("…o world"),
///   `.middle` a head and a tail of (nearly) equal cluster counts, head first
///   ("Hel…rld"). Spaces next to the ellipsis are dropped.
/// - The kept cluster count is the largest whose shaped width (ellipsis included) fits,
///   found by binary search over real shaping, so kerning and fallback fonts count.
/// - A line that fits is returned unchanged, unless `forceEllipsis` (wrapped text with
///   hidden lines after this one, `.end` mode): then the ellipsis is appended.
/// - If not even "…" fits, the result is "…" alone (it overflows, like a word wider than
///   the box).
enum Truncator {
    static let ellipsis = "\u{2026}"

    static func truncate(
        _ characters: [Character], mode: TextRequest.Truncation, width: Double,
        forceEllipsis: Bool, measure: (String) -> Double
    ) -> String {
        let full = String(characters)
        if !forceEllipsis, measure(full) <= width { return full }
        let n = characters.count
        func candidate(_ k: Int) -> String {
            switch mode {
            case .none, .end:
                return trimEnd(characters[0..<k]) + ellipsis
            case .start:
                return ellipsis + trimStart(characters[(n - k)..<n])
            case .middle:
                let head = (k + 1) / 2, tail = k / 2
                return trimEnd(characters[0..<head]) + ellipsis
                    + trimStart(characters[(n - tail)..<n])
            }
        }
        var low = 0, high = forceEllipsis && mode == .end ? n : max(n - 1, 0)
        while low < high {
            let mid = (low + high + 1) / 2
            if measure(candidate(mid)) <= width { low = mid } else { high = mid - 1 }
        }
        return candidate(low)
    }

    private static func trimEnd(_ s: ArraySlice<Character>) -> String {
        var s = s
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }

    private static func trimStart(_ s: ArraySlice<Character>) -> String {
        var s = s
        while let first = s.first, first.isWhitespace { s.removeFirst() }
        return String(s)
    }
}
