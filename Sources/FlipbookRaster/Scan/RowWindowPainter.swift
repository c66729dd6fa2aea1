/// Passes on only the rows in `rows` (``Pixmap/writableRows``): every row's spans are
/// computed from that row's cells alone, so the rows passed on are exactly those a sweep
/// without the limit paints.
struct RowWindowPainter<Inner: SpanPainter>: SpanPainter {
    var inner: Inner
    let rows: Range<Int>

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        guard rows.contains(y) else { return }
        inner.paintRow(y: y, spans: spans, coverage: coverage, originX: originX)
    }
}
