import CICU

/// Line breaking of a measured ``Paragraph``: where lines may break comes from ICU's line
/// break iterator (UAX #14), where they do break is a greedy fit to the width.
///
/// Rules:
/// - Opportunities: ICU's `UBRK_LINE` boundaries with the `lb=strict` tailoring (small
///   kana and the prolonged sound mark never start a line: Japanese kinsoku, as Core Text
///   and Pango do), kept only where they fall between grapheme clusters, so a cluster,
///   an emoji sequence or a base with its marks is never split.
/// - Tailoring for Core Animation, beyond UAX #14: spaces hang (a line's trailing
///   breaking spaces do not count toward its width, are not part of its range, and the
///   next line starts after them); a word wider than the line is broken before the
///   grapheme cluster that overflows (UAX #14 would let it overflow; CATextLayer and
///   Pango's `word-char` wrap it); every line holds at least one cluster.
/// - A line takes clusters while its width fits, then breaks at its last opportunity.
enum LineBreaks {
    /// For each cluster, whether a line may start with it (index 0: false).
    static func opportunities(_ text: Substring, clusterStarts: [Int]) -> [Bool] {
        var result = [Bool](repeating: false, count: clusterStarts.count)
        let utf16 = Array(text.utf16)
        guard clusterStarts.count > 1, !utf16.isEmpty else { return result }
        // ICU's break iterator does not copy its text: it reads the caller's buffer on every
        // `ubrk_next`. So the whole walk happens inside `withUnsafeBufferPointer`, while the
        // buffer is guaranteed alive. (Walking after the closure returned read a buffer the
        // optimiser had already freed, since `utf16` had no later use: the opportunities,
        // and so the line breaks, then came from whatever reused that memory.)
        let boundaries: Set<Int> = utf16.withUnsafeBufferPointer { text in
            guard
                let iterator = fb_ubrk_open_line(
                    "und@lb=strict", text.baseAddress, Int32(text.count))
            else {
                return []
            }
            defer { fb_ubrk_close(iterator) }
            var found = Set<Int>()
            var b = fb_ubrk_first(iterator)
            while b != FB_UBRK_DONE {
                found.insert(Int(b))
                b = fb_ubrk_next(iterator)
            }
            return found
        }
        for i in 1..<clusterStarts.count where boundaries.contains(clusterStarts[i]) {
            result[i] = true
        }
        return result
    }

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
                if i > start, c[i].breakBefore { lastBreak = i }
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
}
