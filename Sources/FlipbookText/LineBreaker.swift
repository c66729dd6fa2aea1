/// Greedy line breaking of a measured ``Paragraph`` to a width.
///
/// Rules:
/// - Break opportunities: after a run of breaking spaces (before the next non-space),
///   before and after an ideographic cluster (CJK, kana, Hangul) except before closing
///   punctuation / small kana and after opening brackets (simple kinsoku), and after a
///   hyphen between letters.
/// - Spaces hang: a line's trailing spaces never count toward its width, are not part
///   of the returned range, and the next line starts after them.
/// - A line takes clusters while its width fits; at the first cluster that overflows it
///   breaks at the last opportunity, or — for a word wider than the line — before that
///   cluster (breaking the word by characters). Every line holds at least one cluster.
enum LineBreaker {
    /// Cluster ranges of the lines (trailing spaces excluded). An empty paragraph is one
    /// empty line.
    static func lines(_ paragraph: Paragraph, width: Double) -> [Range<Int>] {
        let c = paragraph.clusters
        guard !c.isEmpty else { return [0..<0] }
        let limit = width.isNaN ? 0 : width + 1e-9
        var lines: [Range<Int>] = []
        var start = 0
        while start < c.count {
            var used = 0.0
            var lastBreak: Int?
            var end = c.count
            for i in start..<c.count {
                if i > start, canBreak(before: i, c) { lastBreak = i }
                let next = used + c[i].advance
                if !c[i].isSpace, next > limit, i > start {
                    end = lastBreak ?? i
                    break
                }
                used = next
            }
            lines.append(trimmed(start..<end, c))
            start = end
            while start < c.count, c[start].isSpace, end < c.count { start += 1 }
        }
        return lines
    }

    /// `range` without its trailing breaking spaces.
    static func trimmed(_ range: Range<Int>, _ c: [Paragraph.Cluster]) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, c[end - 1].isSpace { end -= 1 }
        return range.lowerBound..<end
    }

    private static let noBreakBefore = Set("、。，．・：；？！）」』】〕〉》〗〙〛ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ)]},.!?;:%")
    private static let noBreakAfter = Set("（「『【〔〈《〖〘〚([{")

    private static func canBreak(before i: Int, _ c: [Paragraph.Cluster]) -> Bool {
        let prev = c[i - 1], cur = c[i]
        if prev.isSpace { return !cur.isSpace }
        if cur.isSpace { return false }
        if prev.isIdeographic || cur.isIdeographic {
            return !noBreakBefore.contains(cur.text) && !noBreakAfter.contains(prev.text)
        }
        if prev.text == "-", i >= 2, c[i - 2].text.isLetter, cur.text.isLetter { return true }
        return false
    }
}
