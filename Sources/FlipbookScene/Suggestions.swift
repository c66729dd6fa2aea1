/// "Did you mean" hints for misspelled keys, names and key paths.
enum Suggestions {
    /// The closest candidate within a small edit distance, or nil when nothing is close
    /// enough to be a plausible typo. Case differences count as half an edit so that
    /// `Opacity` finds `opacity` before `capacity` would.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = word.count <= 3 ? 1 : 2
        var best: (name: String, cost: Int)?
        for candidate in candidates where candidate != word {
            let exact = distance(Array(word), Array(candidate))
            let folded = distance(Array(word.lowercased()), Array(candidate.lowercased()))
            // Twice the distance, so that a pure case change (folded 0) costs 1.
            let cost = folded * 2 + (exact > folded ? 1 : 0)
            guard folded <= limit else { continue }
            if best == nil || cost < best!.cost { best = (candidate, cost) }
        }
        return best?.name
    }

    /// "; did you mean `x`?" or "".
    static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean `\($0)`?" } ?? ""
    }

    /// Optimal string alignment distance: Levenshtein plus swaps of neighbours, the
    /// commonest typo (`opactiy`).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
