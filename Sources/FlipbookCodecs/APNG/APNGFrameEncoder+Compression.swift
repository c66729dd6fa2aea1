/// The compression half of APNG frame writing: which blend, which row filters and which
/// deflate give a frame's region its smallest stream within the writer's CPU budget.
extension APNGFrameEncoder {
    /// libdeflate level at which the candidate encodings of a frame are ranked (zlib's 6
    /// before): card-signup's 63.8 MB of chosen rows take libdeflate 6 0.12 s, zlib 9
    /// 0.63 s. Ranking at 4 instead of 6 gives 578,361 bytes instead of 577,934.
    static let trialLevel: Int32 = 6
    /// libdeflate level of the stream written: its highest, whose near-optimal parsing is
    /// smaller than zlib's level 9 (card-signup 587,253 → 577,934 bytes, 5317-fireworkds
    /// 698,480 → 659,715, scenes/bench/long-gradients 3,075,773 → 2,757,679) at up to 2.6
    /// times the writer's CPU (0.11–0.28 × apngopt's, over issue 25's 0.10 ×; but zlib 9
    /// misses that target too on long-gradients, at 0.195 ×, and 1.10 × apngopt's bytes
    /// on demo, starstrips and long-gradients; docs/formats.md). Levels 10 and 11 cost less
    /// but are larger than zlib 9 on card-signup (597,154 and 588,788 bytes).
    static let smallLevel: Int32 = 12
    /// libdeflate level at which a frame that deflates well (``ranksAgain``) ranks its
    /// candidates again. Level 6 misjudges which candidate is smallest at level 12: on
    /// phone-ui whole-frame None wins 28 frames at 12 that it loses at 6, and on gradients
    /// the per-row rules trade places (ranked again at 9, shadow-gradient's file is 8.2 %
    /// smaller, long-gradients' 3.8 %). Ranking at 9 and writing the better of the two best
    /// at 12 came within 0.1 % of ranking every candidate at 12 (card-signup 0.9844 of the
    /// frame data against 0.9838, phone-ui 0.9670 for both, demo 0.9822 against 0.9819) at
    /// a fraction of its cost.
    static let rankLevel: Int32 = 9
    /// A frame whose best ``trialLevel`` stream is at most 1/`ranksAgain` of its filtered
    /// rows ranks its candidates again at ``rankLevel``
    /// (``compress(_:mode:effort:keptRowsBudget:)``). Such a frame's rows are mostly
    /// matches, where level 6's shorter search misjudges most; the extra ranking costs
    /// about as much on every frame, and on the frames that deflate least well it bought
    /// least. At 1/8 the Lottie benchmark file isometric went over issue 25's 0.10 ×
    /// apngopt's CPU (8.95 s against a budget of 8.15) for 62 bytes, and demo came to
    /// 0.097 ×; at 1/16 neither qualifies more than before, while long-gradients
    /// (2,702,312 → 2,600,268 bytes), shadow-gradient (1,764,255 → 1,619,591) and
    /// fragment-banner (1,060,051 → 1,054,732) do.
    static let ranksAgain = 16
    /// A frame whose best ``trialLevel`` stream is at most 1/`looksFurther` of its filtered
    /// rows also tries its leading blend's least-deflate rows and the runner-up at level 12
    /// (``compress(_:mode:effort:keptRowsBudget:)``). The least-deflate trials cost more
    /// than the ranking (card-signup's encode CPU 10.1 s with the ranking alone, 17.2 s with
    /// the trials, for 575,746 and 571,432 bytes). At 1/16 the Lottie benchmark files went
    /// over issue 25's 0.10 × apngopt's CPU (gradient_smoke 3.03 s against a budget of
    /// 2.0); at 1/32 all stay inside it (confetti2 0.087 ×, isometric 0.086 ×) while
    /// card-signup (575,881 → 568,397 bytes) and phone-ui (499,891 → 487,032) qualify.
    static let looksFurther = 32
    /// Bytes of filtered rows one frame's compression keeps for its later passes (a
    /// 1000 × 1000 RGBA frame's seven candidates take 28 MB); beyond it they are filtered
    /// again when needed, so memory stays bounded on any canvas.
    static let keptRowsBudget = 64 << 20

    /// Converts both blends of `work` to `mode`, filters each under every filter strategy,
    /// ranks the candidates by their libdeflate size and writes the smallest (SOURCE and the
    /// earlier strategy on ties), as `effort` says:
    /// - `fast` ranks at ``trialLevel`` and keeps that stream;
    /// - `default` ranks at ``trialLevel`` and deflates the winner again at ``smallLevel``.
    ///   A frame that deflates well (``ranksAgain``) ranks every candidate again at
    ///   ``rankLevel`` and deflates the leader and the level-6 winner at ``smallLevel``,
    ///   writing the smaller: never more bytes than the level-6 winner. One that deflates
    ///   better still (``looksFurther``) also tries its leading blend's least-deflate rows,
    ///   and deflates the level-9 runner-up too when within 2 % of the leader;
    /// - `small` ranks every candidate, the least-deflate rows of each blend included, at
    ///   ``smallLevel`` and keeps that stream.
    /// Every stream `default` and `small` deflate at ``smallLevel`` for writing is reblocked
    /// (``DeflateReblocker``) before streams are compared, so the smallest after reblocking
    /// is written.
    /// The strategies: the per-row choice by least sum, whole-frame None (flat UI colours and
    /// anti-aliased art on transparency deflate best unfiltered) and the per-row choice by
    /// least entropy (gradients and soft art over flat colour). Whole-frame Paeth, tried
    /// before the entropy rule came, no longer won a frame: on scenes/gradient-bench,
    /// bench/long-gradients, shadow-gradient and photo-pan dropping it left the bytes as they
    /// were (32 bytes smaller on gradient-bench) for 3–12 % less encode CPU.
    /// `keptRowsBudget` bounds the filtered rows kept between passes; it changes no byte.
    static func compress(
        _ work: APNGFrameWork, mode: APNGColorMode, effort: PNGCompression = .default,
        keptRowsBudget: Int = keptRowsBudget
    ) throws(PNGError) -> APNGEncodedFrame {
        let bpp = mode.bytesPerPixel
        var strategies: [PNGRowFilters.Strategy] =
            mode.isIndexed
            ? [.fixed(PNGRowFilters.none), .minimumSum, .minimumEntropy]
            : [.minimumSum, .fixed(PNGRowFilters.none), .minimumEntropy]
        if effort == .small { strategies.append(.leastDeflate) }
        var blends = [Blend(over: false, pixels: mode.convert(work.source)!)]
        if let over = work.over.flatMap(mode.convert) {
            blends.append(Blend(over: true, pixels: over))
        }
        var candidates: [Candidate] = []
        for blend in blends.indices {
            for strategy in strategies {
                candidates.append(Candidate(blend: blend, strategy: strategy))
            }
        }
        // Each candidate's rows are kept for the later passes while all of them fit in
        // ``keptRowsBudget``, and filtered again otherwise (the same bytes; the entropy and
        // least-deflate rules cost real time to run twice).
        let keepsRows =
            (work.width * bpp + 1) * work.height * (candidates.count + 1) <= keptRowsBudget
        var stored: [[UInt8]?] = []
        func rows(_ index: Int) throws(PNGError) -> [UInt8] {
            if index < stored.count, let rows = stored[index] { return rows }
            let c = candidates[index]
            return try filter(blends[c.blend].pixels, work, bpp: bpp, strategy: c.strategy)
        }
        let trial = try LibDeflate(level: effort == .small ? smallLevel : trialLevel)
        var trialSizes: [Int] = []
        var kept: (rows: [UInt8], stream: [UInt8]) = ([], [])
        // The smallest trial, the earliest on a tie.
        var first = 0
        for index in candidates.indices {
            let filtered = try rows(index)
            stored.append(keepsRows ? filtered : nil)
            let stream = try trial.compress(filtered)
            if index == 0 || stream.count < trialSizes[first] {
                first = index
                kept = (filtered, stream)
            }
            trialSizes.append(stream.count)
        }
        // The winner's rows are at hand whatever the budget.
        stored[first] = kept.rows
        let over = { (index: Int) in blends[candidates[index].blend].over }
        guard effort == .default else {
            let data = effort == .small ? DeflateReblocker.reblock(kept.stream) : kept.stream
            return APNGEncodedFrame(rect: work.rect, blendOver: over(first), data: data)
        }
        let written = try LibDeflate(level: smallLevel)
        guard trialSizes[first] * ranksAgain <= kept.rows.count else {
            let data = DeflateReblocker.reblock(try written.compress(kept.rows))
            return APNGEncodedFrame(rect: work.rect, blendOver: over(first), data: data)
        }
        let further = trialSizes[first] * looksFurther <= kept.rows.count
        if further {
            candidates.append(Candidate(blend: candidates[first].blend, strategy: .leastDeflate))
        }
        let rank = try LibDeflate(level: rankLevel)
        var sizes: [Int] = []
        for index in candidates.indices {
            let filtered = try rows(index)
            if index == stored.count { stored.append(keepsRows ? filtered : nil) }
            sizes.append(try rank.compress(filtered).count)
        }
        let order = sizes.indices.sorted { (sizes[$0], $0) < (sizes[$1], $1) }
        // The leader at level 9, the runner-up when looking further and within 2 % of the
        // leader, and the level-6 winner (so the wider search never writes more than the
        // narrow one), in that order: the earlier wins a tie.
        var chosen = [order[0]]
        if further && sizes[order[1]] * 50 <= sizes[order[0]] * 51 { chosen.append(order[1]) }
        if !chosen.contains(first) { chosen.append(first) }
        var best: APNGEncodedFrame?
        for index in chosen {
            let filtered = try rows(index)
            let data = DeflateReblocker.reblock(try written.compress(filtered))
            if best == nil || data.count < best!.data.count {
                best = APNGEncodedFrame(rect: work.rect, blendOver: over(index), data: data)
            }
        }
        return best!
    }

    /// A frame's pixels under one blend (OVER or SOURCE), converted to the file's format.
    private struct Blend {
        var over: Bool
        var pixels: [UInt8]
    }

    /// One candidate encoding: a blend's rows (an index into the frame's blends) filtered
    /// under one strategy.
    private struct Candidate {
        var blend: Int
        var strategy: PNGRowFilters.Strategy
    }

    /// `pixels`, rows of `work`'s width, filtered under `strategy`.
    private static func filter(
        _ pixels: [UInt8], _ work: APNGFrameWork, bpp: Int, strategy: PNGRowFilters.Strategy
    ) throws(PNGError) -> [UInt8] {
        let filtered = pixels.withUnsafeBytes { raw in
            Result { () throws(PNGError) in
                try PNGRowFilters.filter(
                    raw, stride: work.width * bpp, height: work.height, bpp: bpp,
                    strategy: strategy)
            }
        }
        return try filtered.get()
    }
}
