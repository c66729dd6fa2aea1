import CFriBidi

/// The Unicode Bidirectional Algorithm (UAX #9) through FriBidi: embedding levels for a
/// paragraph, then per line the L1 level resets and the L2 visual order.
///
/// Rules:
/// - Levels come from `fribidi_get_par_embedding_levels_ex` with the characters' bidi
///   types and bracket types, so explicit embeddings, overrides and isolates (LRE…PDF,
///   LRI…PDI), weak types (number separators, terminators such as ₪ or %), paired
///   brackets (N0) and neutrals are resolved as UAX #9 says.
/// - The paragraph direction is the request's, or with ``TextRequest/Direction/natural``
///   that of the first strong character outside isolates (P2/P3), left-to-right if none.
/// - Lines are reordered after line breaking (`fribidi_reorder_line`, without NSM
///   reordering: HarfBuzz keeps marks with their base): trailing whitespace and isolate
///   controls go to the paragraph level (L1), then runs are reversed from the highest
///   level down (L2).
/// - Mirroring (L4) is HarfBuzz's: a run shaped right-to-left draws the mirrored glyph of
///   every character with the Bidi_Mirrored property, e.g. "(" as ")".
struct Bidi {
    /// FriBidi's bidi type of each scalar.
    private let types: [FriBidiCharType]
    /// Resolved embedding level of each scalar.
    let levels: [Int8]
    /// Whether the paragraph is right-to-left (level 1).
    let isRightToLeft: Bool

    init(_ scalars: [UInt32], direction: TextRequest.Direction) {
        let n = scalars.count
        var requested: FriBidiParType =
            switch direction {
            case .natural: fb_par_on()
            case .leftToRight: fb_par_ltr()
            case .rightToLeft: fb_par_rtl()
            }
        guard n > 0 else {
            types = []
            levels = []
            isRightToLeft = direction == .rightToLeft
            return
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(n), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(n), types, &brackets)
        }
        let maxLevel = fribidi_get_par_embedding_levels_ex(
            types, brackets, FriBidiStrIndex(n), &requested, &levels)
        let rtl = requested == fb_par_rtl()
        if maxLevel == 0 {
            // Only an allocation failure: draw the paragraph in its base direction.
            levels = [FriBidiLevel](repeating: rtl ? 1 : 0, count: n)
        }
        self.types = types
        self.levels = levels
        isRightToLeft = rtl
    }

    /// The paragraph level (0 or 1).
    var paragraphLevel: Int8 { isRightToLeft ? 1 : 0 }

    /// For the scalars `line` of the paragraph: their levels after L1 and, for each, its
    /// position in the line's visual order (0 = leftmost).
    func reorder(_ line: Range<Int>) -> (levels: [Int8], visualPosition: [Int]) {
        guard !line.isEmpty else { return ([], []) }
        var levels = self.levels
        var map = (0..<FriBidiStrIndex(levels.count)).map { $0 }
        let base = isRightToLeft ? fb_par_rtl() : fb_par_ltr()
        _ = fribidi_reorder_line(
            0, types, FriBidiStrIndex(line.count), FriBidiStrIndex(line.lowerBound), base,
            &levels, nil, &map)
        var position = [Int](repeating: 0, count: line.count)
        for (visual, logical) in map[line].enumerated() {
            position[Int(logical) - line.lowerBound] = visual
        }
        return (Array(levels[line]), position)
    }
}
