import CHarfBuzz

/// Shapes clusters of a ``Paragraph`` with HarfBuzz into glyphs in visual order.
///
/// Rules:
/// - A line is split into runs of clusters sharing font and bidi level; missing
///   clusters (no font) end a run and produce no glyph and no advance.
/// - Each run is shaped with the whole paragraph as context (`hb_buffer_add_utf32` with
///   item offset/length, so Arabic joining sees its neighbours), direction from the level
///   parity, script and language guessed (`hb_buffer_guess_segment_properties`), and
///   HarfBuzz's default features (kern, liga, mark positioning…). RTL runs come back in
///   visual order.
/// - Runs are then ordered by ``BidiResolver/visualOrder(_:)`` over their levels (trailing
///   spaces of the line at the paragraph level, rule L1).
/// - Positions are scaled from each font's units to points (fontSize / unitsPerEm), so
///   fallback fonts with another em size line up.
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
    }

    struct Line {
        var glyphs: [Glyph] = []
        var width: Double = 0
    }

    /// Fills every cluster's advance (points) from shaping the whole paragraph.
    static func measure(_ paragraph: inout Paragraph, fontSize: Double) {
        for i in paragraph.clusters.indices { paragraph.clusters[i].advance = 0 }
        for glyph in shape(paragraph, paragraph.clusters.indices, fontSize: fontSize).glyphs {
            paragraph.clusters[glyph.cluster].advance += glyph.advance
        }
    }

    /// The glyphs of clusters `range`, left to right.
    static func shape(_ paragraph: Paragraph, _ range: Range<Int>, fontSize: Double) -> Line {
        let clusters = paragraph.clusters
        var trailing = range.upperBound
        while trailing > range.lowerBound, clusters[trailing - 1].isSpace { trailing -= 1 }
        func level(_ i: Int) -> UInt8 { i >= trailing ? paragraph.paragraphLevel : clusters[i].level }

        var runs: [(range: Range<Int>, level: UInt8)] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard let font = clusters[i].font else { i += 1; continue }
            var j = i + 1
            while j < range.upperBound, clusters[j].font === font, level(j) == level(i) { j += 1 }
            runs.append((i..<j, level(i)))
            i = j
        }
        var line = Line()
        for r in BidiResolver.visualOrder(runs.map(\.level)) {
            let run = runs[r]
            let font = clusters[run.range.lowerBound].font!
            let scale = fontSize / font.unitsPerEm
            let start = clusters[run.range.lowerBound].scalars.lowerBound
            let end = clusters[run.range.upperBound - 1].scalars.upperBound
            shapeRun(paragraph.scalars, start..<end, font: font, rtl: run.level % 2 == 1) { id, cluster, adv, dx, dy in
                line.glyphs.append(Glyph(font: font, id: id, x: line.width + dx * scale, yOffset: dy * scale,
                                         advance: adv * scale, cluster: paragraph.clusterOfScalar[cluster]))
                line.width += adv * scale
            }
        }
        return line
    }

    /// Shapes `scalars[range]` and reports glyph id, scalar index, advance and offsets in
    /// font units, in visual order.
    private static func shapeRun(_ scalars: [UInt32], _ range: Range<Int>, font: FontFace, rtl: Bool,
                                 _ emit: (UInt32, Int, Double, Double, Double) -> Void) {
        guard let buffer = hb_buffer_create() else { return }
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound),
                                Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        for k in 0..<Int(count) {
            let p = positions[k]
            emit(infos[k].codepoint, Int(infos[k].cluster), Double(p.x_advance), Double(p.x_offset),
                 Double(p.y_offset))
        }
    }
}
