/// A reduced Unicode Bidirectional Algorithm (UAX #9) for plain paragraphs: no explicit
/// embeddings or isolates, no mirroring.
///
/// Rules:
/// - Classes: R (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms),
///   EN (decimal digits, Arabic-Indic digits included), neutral (whitespace,
///   punctuation, symbols, controls) and L (everything else).
/// - P2/P3: the paragraph level is that of the first strong character (L → 0, R → 1),
///   0 when there is none.
/// - W7: a digit whose preceding strong character (or the paragraph start) is L is L.
/// - N1/N2: a run of neutrals between two characters of the same direction (digits
///   count as R) takes that direction, otherwise the paragraph direction.
/// - I1/I2: levels from the paragraph level and the resolved class.
/// - L1/L2 (per line, ``visualOrder(_:paragraphLevel:)``): trailing neutrals reset to the
///   paragraph level, then from the highest level down to the lowest odd level every
///   maximal sequence at or above that level is reversed.
enum BidiResolver {
    enum BidiClass: Equatable { case l, r, en, neutral }

    static func bidiClass(_ s: Unicode.Scalar) -> BidiClass {
        let v = s.value
        if (0x30...0x39).contains(v) || (0x660...0x669).contains(v) || (0x6F0...0x6F9).contains(v) { return .en }
        if (0x590...0x8FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v) {
            switch s.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return .l
            default: return .r
            }
        }
        switch s.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .neutral
        default:
            return .l
        }
    }

    /// The paragraph level and each item's embedding level.
    static func levels(_ classes: [BidiClass]) -> (paragraph: UInt8, levels: [UInt8]) {
        let firstStrong = classes.first { $0 == .l || $0 == .r }
        let base: UInt8 = firstStrong == .r ? 1 : 0
        let baseClass: BidiClass = base == 1 ? .r : .l
        // W7: digits after L (or at the start of an LTR paragraph) become L.
        var resolved = classes
        var lastStrong = baseClass
        for i in resolved.indices {
            switch resolved[i] {
            case .l, .r: lastStrong = resolved[i]
            case .en: if lastStrong == .l { resolved[i] = .l }
            case .neutral: break
            }
        }
        // N1/N2: neutrals between equal directions take it; digits act as R.
        var i = 0
        while i < resolved.count {
            guard resolved[i] == .neutral else { i += 1; continue }
            var j = i
            while j < resolved.count, resolved[j] == .neutral { j += 1 }
            let before = i == 0 ? baseClass : strength(resolved[i - 1])
            let after = j == resolved.count ? baseClass : strength(resolved[j])
            let direction = before == after ? before : baseClass
            for k in i..<j { resolved[k] = direction }
            i = j
        }
        // I1/I2.
        let levels: [UInt8] = resolved.map { c in
            switch (base, c) {
            case (0, .r): 1
            case (0, .en): 2
            case (0, _): 0
            case (_, .l), (_, .en): base + 1
            default: base
            }
        }
        return (base, levels)
    }

    private static func strength(_ c: BidiClass) -> BidiClass { c == .en ? .r : c }

    /// L2: the visual order (indices, left to right) of items at `levels`.
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowest = levels.min(), highest > 0 else { return order }
        let lowestOdd = lowest % 2 == 1 ? lowest : lowest + 1
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count, levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
