/// A clip mask as a span painter: multiplies every span of a row by the mask's row and
/// hands what is left to `inner`.
///
/// Rules: inside a constant span, runs where the mask is fully open (eight pixels or
/// more) stay constant spans, keeping the painters' fast paths; runs where it is closed
/// are dropped; the rest become per-pixel values written into the row's coverage buffer
/// (in place: callers hand over a buffer they do not read again). The mask must be on
/// the painted surface's grid.
struct ClipPainter<Inner: SpanPainter>: SpanPainter {
    var inner: Inner
    let clip: Mask
    /// Room for one row's clipped spans (twice the row width plus two).
    let out: UnsafeMutablePointer<Span>

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        // Spans (sorted by x) wholly inside the row's open run pass as they are.
        if let first = spans.first, let last = spans.last,
            clip.isOpen(row: y, from: first.x, to: last.x + last.count)
        {
            inner.paintRow(y: y, spans: spans, coverage: coverage, originX: originX)
            return
        }
        let count = Self.applyClip(
            clip, y: y, spans: spans, into: out, coverage: coverage, originX: originX)
        if count == 0 { return }
        inner.paintRow(
            y: y, spans: UnsafeBufferPointer(start: out, count: count), coverage: coverage,
            originX: originX)
    }

    /// Multiplies the row's spans by the clip mask's row into `out`. Inside a constant
    /// span, runs where the mask is fully open stay constant spans (keeping the painters'
    /// fast paths), runs where it is closed are dropped, the rest become per-pixel.
    /// Returns the number of spans written to `out`.
    private static func applyClip(
        _ clip: Mask, y: Int, spans: UnsafeBufferPointer<Span>,
        into out: UnsafeMutablePointer<Span>,
        coverage cov: UnsafeMutablePointer<UInt8>, originX: Int
    ) -> Int {
        var count = 0
        func addPixel(_ x: Int, _ value: UInt32, _ count: inout Int) {
            if value == 0 { return }
            cov[x - originX] = UInt8(truncatingIfNeeded: value)
            if count > 0, out[count - 1].coverage < 0, out[count - 1].x + out[count - 1].count == x
            {
                out[count - 1].count += 1
            } else {
                out[count] = Span(x: x, count: 1, coverage: -1)
                count += 1
            }
        }
        clip.data.withUnsafeBufferPointer { m in
            let row = m.baseAddress! + y * clip.width
            for span in spans {
                let end = span.x + span.count
                if span.coverage < 0 {
                    for x in span.x..<end {
                        addPixel(
                            x, Compositing.div255(UInt32(cov[x - originX]) * UInt32(row[x])), &count
                        )
                    }
                    continue
                }
                let c = UInt32(span.coverage)
                var x = span.x
                while x < end {
                    if row[x] == 255 {
                        var runEnd = x + 1
                        // Eight bytes at a time through the open part of the mask.
                        while runEnd + 8 <= end
                            && UnsafeRawPointer(row + runEnd).loadUnaligned(as: UInt64.self)
                                == UInt64.max
                        {
                            runEnd += 8
                        }
                        while runEnd < end && row[runEnd] == 255 { runEnd += 1 }
                        if runEnd - x >= 8 {
                            out[count] = Span(x: x, count: runEnd - x, coverage: span.coverage);
                            count += 1
                        } else {
                            for px in x..<runEnd { addPixel(px, c, &count) }
                        }
                        x = runEnd
                    } else if row[x] == 0 {
                        x += 1
                        while x + 8 <= end
                            && UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self) == 0
                        { x += 8 }
                    } else {
                        addPixel(x, Compositing.div255(c * UInt32(row[x])), &count)
                        x += 1
                    }
                }
            }
        }
        return count
    }
}
