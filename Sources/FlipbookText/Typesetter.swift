import FlipbookGeometry

/// CATextLayer layout: paragraphs → lines (wrapping, truncation) → aligned glyph
/// outlines in the box's space (points, origin top-left, y down).
///
/// Rules:
/// - Metrics are the primary font's: the first baseline is at its ascender, and lines
///   are the request's `lineHeight` apart, or by default `ascender − descender + lineGap` (FreeType's hhea-based `height`, i.e.
///   what CoreText uses for a CTLine's ascent + descent + leading), at fontSize / unitsPerEm.
///   Fallback fonts sit on the same baselines and do not change line height.
/// - Explicit newlines (any `Character.isNewline`) end paragraphs; an empty paragraph is
///   an empty line.
/// - Each paragraph gets its own bidi direction (``Bidi``), unless the request sets one.
/// - `wrapped` with a finite width breaks paragraphs with ``LineBreaks``; otherwise each
///   paragraph is one line that may overflow the box (nothing is clipped).
/// - Truncation (finite width only): unwrapped, every line wider than the box is cut by
///   ``Truncator``; wrapped, only the last line fitting the box height (at least one) is
///   cut, and it takes the rest of its paragraph. With `.none` all lines are drawn, even
///   past the box's bottom.
/// - Alignment in the box width: left, center, right of the line's advance width
///   (trailing spaces excluded); justified stretches the spaces of every wrapped line
///   except a paragraph's last, which takes its natural side (right for a right-to-left
///   paragraph, else left). Left and right mean left and right in either direction,
///   as with an explicit NSTextAlignment. With an unbounded width all
///   lines start at x = 0.
/// - `coreTextFrame` requests follow Core Text's frame rules instead (line pitch, first
///   baseline, lines dropped below a paragraph box, no optional ligatures: see
///   ``TextRequest/coreTextFrame``), with the metrics Core Text would report
///   (``FontLibrary/Primary/metrics``).
/// - Characters with a supplied outline (``TextRequest/suppliedGlyphs``) take part in all
///   of this as one-glyph runs (see ``Shaper``); their outline (ems, y down) is mapped by
///   scale (fontSize, fontSize) to the pen position.
/// - Each glyph's unhinted outline (font units, y up) is mapped by scale (s, −s) to the
///   pen position, so text is a path like any other.
struct Typesetter {
    let library: FontLibrary

    private struct PlannedLine {
        var paragraph: Int
        var range: Range<Int>
        var endsParagraph: Bool
        /// Replacement text after truncation.
        var truncated: String?
    }

    func layout(_ request: TextRequest, width: Double, height: Double) throws(TextError)
        -> TextLayout
    {
        let primary = try library.primary(request.font)
        let face = primary.face
        let size = request.fontSize
        let scale = size / face.unitsPerEm
        let tracking = request.tracking.isFinite ? request.tracking : 0
        let frame = request.coreTextFrame
        let metrics = primary.metrics
        let given = request.lineHeight.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let lineHeight =
            if frame {
                max(given ?? 0, (metrics.ascent + metrics.descent + metrics.leading) * scale)
            } else {
                given ?? (face.ascender - face.descender + face.lineGap) * scale
            }
        // A Core Text frame in a paragraph box: first baseline a cap height down, and only
        // the lines whose baseline lies in the box (see TextRequest.coreTextFrame).
        let box = frame && request.wrapped && width.isFinite
        let firstBaseline =
            (box ? metrics.capHeight : frame ? metrics.ascent : face.ascender) * scale
        let ligatures = !frame
        let paragraphs = request.string.split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline
        )
        .map {
            analyzed(
                $0, direction: request.direction, primary: primary, size: size, tracking: tracking,
                ligatures: ligatures, supplied: request.suppliedGlyphs)
        }

        var plan: [PlannedLine] = []
        for (p, paragraph) in paragraphs.enumerated() {
            let ranges =
                request.wrapped && width.isFinite
                ? LineBreaks.lines(paragraph, width: width)
                : [LineBreaks.trimmed(paragraph.clusters.indices, paragraph.clusters)]
            for (k, range) in ranges.enumerated() {
                plan.append(
                    PlannedLine(paragraph: p, range: range, endsParagraph: k == ranges.count - 1))
            }
        }
        if box {
            let fitting = Int(((height - firstBaseline) / lineHeight + 1e-9).rounded(.down)) + 1
            if plan.count > max(0, fitting) { plan.removeLast(plan.count - max(0, fitting)) }
        }
        if request.truncation != .none, width.isFinite {
            truncate(
                &plan, paragraphs, request: request, width: width, height: height,
                lineHeight: lineHeight,
                primary: primary, tracking: tracking)
        }

        let missing = paragraphs.flatMap(\.missing)
        var unique: [Character] = []
        for c in missing where !unique.contains(c) { unique.append(c) }
        var layout = TextLayout(
            missingCharacters: missing.count, lineHeight: lineHeight, missing: unique,
            firstBaseline: firstBaseline)
        for (index, planned) in plan.enumerated() {
            var paragraph = paragraphs[planned.paragraph]
            var range = planned.range
            var text = paragraph.text(range)
            let rtl = paragraph.bidi.isRightToLeft
            if let truncated = planned.truncated {
                paragraph = analyzed(
                    Substring(truncated), direction: rtl ? .rightToLeft : .leftToRight,
                    primary: primary, size: size, tracking: tracking, ligatures: ligatures,
                    supplied: request.suppliedGlyphs)
                range = LineBreaks.trimmed(paragraph.clusters.indices, paragraph.clusters)
                text = truncated
            }
            var shaped = Shaper.shape(
                paragraph, range, fontSize: size, tracking: tracking, ligatures: ligatures)
            let justified = request.alignment == .justified && !planned.endsParagraph
            if justified, width.isFinite {
                justify(&shaped, paragraph, to: width)
            }
            let x: Double =
                switch request.alignment {
                case _ where !width.isFinite: 0
                case .left: 0
                case .justified: rtl && !justified ? width - shaped.width : 0
                case .center: (width - shaped.width) / 2
                case .right: width - shaped.width
                }
            let baseline = firstBaseline + Double(index) * lineHeight
            layout.lines.append(
                TextLayout.Line(
                    text: text, baseline: baseline, x: x, width: shaped.width,
                    isRightToLeft: rtl))
            place(
                shaped, paragraph, line: index, x: x, baseline: baseline, fontSize: size,
                into: &layout)
        }
        return layout
    }

    private func analyzed(
        _ text: Substring, direction: TextRequest.Direction, primary: FontLibrary.Primary,
        size: Double, tracking: Double, ligatures: Bool = true,
        supplied: [Character: GlyphOutline] = [:]
    ) -> Paragraph {
        var paragraph = Paragraph(
            text, direction: direction, primary: primary, library: library, supplied: supplied)
        Shaper.measure(&paragraph, fontSize: size, tracking: tracking, ligatures: ligatures)
        return paragraph
    }

    private func truncate(
        _ plan: inout [PlannedLine], _ paragraphs: [Paragraph], request: TextRequest,
        width: Double, height: Double, lineHeight: Double, primary: FontLibrary.Primary,
        tracking: Double
    ) {
        func cut(_ i: Int, characters: [Character], force: Bool) {
            let direction: TextRequest.Direction =
                paragraphs[plan[i].paragraph].bidi.isRightToLeft
                ? .rightToLeft : .leftToRight
            let measure = { (text: String) -> Double in
                let p = analyzed(
                    Substring(text), direction: direction, primary: primary, size: request.fontSize,
                    tracking: tracking, supplied: request.suppliedGlyphs)
                return Shaper.shape(
                    p, LineBreaks.trimmed(p.clusters.indices, p.clusters),
                    fontSize: request.fontSize,
                    tracking: tracking
                ).width
            }
            plan[i].truncated = Truncator.truncate(
                characters, mode: request.truncation, width: width,
                forceEllipsis: force, measure: measure)
        }
        if request.wrapped {
            let fitting = ((height + 1e-6) / lineHeight).rounded(.down)
            let maxLines =
                fitting < Double(plan.count) ? max(1, Int(saturating: fitting)) : plan.count
            guard plan.count > maxLines else { return }
            plan.removeLast(plan.count - maxLines)
            let last = plan[maxLines - 1]
            let paragraph = paragraphs[last.paragraph]
            let rest = LineBreaks.trimmed(
                last.range.lowerBound..<paragraph.clusters.count, paragraph.clusters)
            cut(
                maxLines - 1, characters: paragraph.clusters[rest].map(\.text),
                force: request.truncation == .end)
            plan[maxLines - 1].endsParagraph = true
        } else {
            for i in plan.indices {
                let paragraph = paragraphs[plan[i].paragraph]
                let clusters = paragraph.clusters[plan[i].range]
                guard clusters.reduce(0, { $0 + $1.advance }) > width - 1e-9 else { continue }
                cut(i, characters: clusters.map(\.text), force: false)
            }
        }
    }

    /// Spreads `width − line width` evenly over the line's spaces.
    private func justify(_ line: inout Shaper.Line, _ paragraph: Paragraph, to width: Double) {
        let spaces = line.glyphs.count { paragraph.clusters[$0.cluster].isSpace }
        guard spaces > 0, line.width < width else { return }
        let extra = (width - line.width) / Double(spaces)
        var shift = 0.0
        for i in line.glyphs.indices {
            line.glyphs[i].x += shift
            if paragraph.clusters[line.glyphs[i].cluster].isSpace { shift += extra }
        }
        line.width = width
    }

    private func place(
        _ line: Shaper.Line, _ paragraph: Paragraph, line index: Int, x: Double, baseline: Double,
        fontSize: Double, into layout: inout TextLayout
    ) {
        for glyph in line.glyphs {
            let origin = Point(x + glyph.x, baseline - glyph.yOffset)
            // A font's outline is in font units, y up; a supplied one in ems, y down.
            let outline = glyph.supplied?.path ?? glyph.font.outlines.outline(glyph.id)
            var bounds: Rect?
            if !outline.isEmpty {
                let k = glyph.supplied == nil ? fontSize / glyph.font.unitsPerEm : fontSize
                let placed = outline.applying(
                    AffineTransform(
                        a: k, b: 0, c: 0, d: glyph.supplied == nil ? -k : k, tx: origin.x,
                        ty: origin.y))
                layout.path.elements.append(contentsOf: placed.elements)
                bounds = placed.controlBounds
            }
            layout.glyphs.append(
                TextLayout.Glyph(
                    id: glyph.id, isSupplied: glyph.supplied != nil,
                    fontFamily: glyph.supplied == nil ? glyph.font.familyName : "",
                    fontFile: glyph.supplied == nil ? glyph.font.file : "",
                    character: String(paragraph.clusters[glyph.cluster].text), line: index,
                    origin: origin,
                    advance: glyph.advance, bounds: bounds))
        }
    }
}
