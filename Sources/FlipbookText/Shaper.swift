import CHarfBuzz
import FlipbookGeometry

/// Shapes a line of a ``Paragraph`` with HarfBuzz into glyphs in visual order.
///
/// Rules:
/// - Itemisation: the line's clusters are split into runs sharing bidi level (after
///   ``Bidi/reorder(_:)``'s L1), font and script. Missing clusters are shaped with the
///   primary font, so they draw its .notdef glyph and take its advance.
/// - Each run is shaped with the whole paragraph as context (`hb_buffer_add_utf32` with
///   item offset/length, so Arabic joining sees its neighbours across runs), its
///   direction from the level's parity, its script, the default language, and HarfBuzz's
///   default features (kern, liga, mark positioning…). Right-to-left runs come back in
///   visual order with mirrored glyphs for mirrored characters.
/// - A cluster with a supplied outline (``Paragraph/Cluster/supplied``) is a run of its
///   own, not given to HarfBuzz: one glyph at the supplied advance × fontSize. The font
///   runs around it are still shaped with the whole paragraph as context.
/// - Runs are placed left to right in the line's visual order (FriBidi's L2).
/// - Positions are scaled from each font's units to points (fontSize / unitsPerEm), so
///   fallback fonts with another em size line up. `tracking` (points) is added after every
///   cluster's glyphs, the last included, as Core Text's kCTKernAttributeName and
///   Lottie's tracking do; with tracking, optional ligatures (liga, clig) are off, as in
///   Core Text, so every cluster keeps its own glyphs.
enum Shaper {
    struct Glyph {
        var font: FontFace
        var id: UInt32
        /// Pen x (points from the line start) plus the glyph's x offset.
        var x: Double
        /// Offset above the baseline, points (y up).
        var yOffset: Double
        var advance: Double
        /// Index of the cluster in the paragraph.
        var cluster: Int
        /// The outline drawn instead of the font's glyph `id`.
        var supplied: GlyphOutline?
    }

    struct Line {
        var glyphs: [Glyph] = []
        var width: Double = 0
    }

    /// Fills every cluster's advance (points, tracking included) from shaping the whole
    /// paragraph as one line.
    static func measure(
        _ paragraph: inout Paragraph, fontSize: Double, tracking: Double, ligatures: Bool = true
    ) {
        for i in paragraph.clusters.indices { paragraph.clusters[i].advance = 0 }
        var drawn = Set<Int>()
        for glyph in shape(
            paragraph, paragraph.clusters.indices, fontSize: fontSize, tracking: 0,
            ligatures: ligatures
        ).glyphs {
            paragraph.clusters[glyph.cluster].advance += glyph.advance
            drawn.insert(glyph.cluster)
        }
        for i in drawn { paragraph.clusters[i].advance += tracking }
    }

    /// The glyphs of clusters `range`, left to right; `ligatures` false turns the optional
    /// ligatures off even without tracking (Core Text's ligature attribute 0).
    static func shape(
        _ paragraph: Paragraph, _ range: Range<Int>, fontSize: Double, tracking: Double,
        ligatures: Bool = true
    ) -> Line {
        guard !range.isEmpty else { return Line() }
        let clusters = paragraph.clusters
        let scalarRange =
            clusters[range.lowerBound].scalars
            .lowerBound..<clusters[range.upperBound - 1].scalars.upperBound
        let (levels, position) = paragraph.bidi.reorder(scalarRange)
        func level(_ i: Int) -> Int8 {
            levels[clusters[i].scalars.lowerBound - scalarRange.lowerBound]
        }

        var runs: [(range: Range<Int>, level: Int8, visual: Int)] = []
        var i = range.lowerBound
        while i < range.upperBound {
            var j = i + 1
            while j < range.upperBound, clusters[i].supplied == nil, clusters[j].supplied == nil,
                clusters[j].font === clusters[i].font, level(j) == level(i),
                clusters[j].script == clusters[i].script
            { j += 1 }
            runs.append(
                (i..<j, level(i), position[clusters[i].scalars.lowerBound - scalarRange.lowerBound])
            )
            i = j
        }
        runs.sort { $0.visual < $1.visual }

        var line = Line()
        for run in runs {
            let first = clusters[run.range.lowerBound]
            let font = first.font
            if let glyph = first.supplied {
                let advance = glyph.advance.isFinite ? glyph.advance * fontSize : 0
                line.glyphs.append(
                    Glyph(
                        font: font, id: 0, x: line.width, yOffset: 0, advance: advance,
                        cluster: run.range.lowerBound, supplied: glyph))
                line.width += advance + tracking
                continue
            }
            let scale = fontSize / font.unitsPerEm
            let scalars =
                first.scalars.lowerBound..<clusters[run.range.upperBound - 1].scalars.upperBound
            var previous: Int?
            shapeRun(
                paragraph.scalars, scalars, font: font, rtl: run.level % 2 == 1,
                script: first.script,
                ligatures: ligatures && tracking == 0
            ) {
                id, scalar, adv, dx, dy in
                let cluster = paragraph.clusterOfScalar[scalar]
                if let previous, previous != cluster { line.width += tracking }
                previous = cluster
                line.glyphs.append(
                    Glyph(
                        font: font, id: id, x: line.width + dx * scale, yOffset: dy * scale,
                        advance: adv * scale, cluster: cluster))
                line.width += adv * scale
            }
            if previous != nil { line.width += tracking }
        }
        return line
    }

    /// Shapes `scalars[range]` and reports glyph id, scalar index, advance and offsets in
    /// font units, in visual order.
    private static func shapeRun(
        _ scalars: [UInt32], _ range: Range<Int>, font: FontFace, rtl: Bool,
        script: hb_script_t, ligatures: Bool, _ emit: (UInt32, Int, Double, Double, Double) -> Void
    ) {
        guard let buffer = hb_buffer_create() else { return }
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(
                buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound),
                Int32(range.count))
        }
        var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
        if range.lowerBound == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
        if range.upperBound == scalars.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_guess_segment_properties(buffer)
        if ligatures {
            hb_shape(font.hbFont, buffer, nil, 0)
        } else {
            var features = [hb_feature_t](repeating: hb_feature_t(), count: 2)
            _ = hb_feature_from_string("liga=0", -1, &features[0])
            _ = hb_feature_from_string("clig=0", -1, &features[1])
            hb_shape(font.hbFont, buffer, features, 2)
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return }
        for k in 0..<Int(count) {
            let p = positions[k]
            emit(
                infos[k].codepoint, Int(infos[k].cluster), Double(p.x_advance), Double(p.x_offset),
                Double(p.y_offset))
        }
    }
}
