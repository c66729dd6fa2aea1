import FlipbookGeometry

/// A per-thread memo of recent fills' coverage: the rows of spans a sweep produced, before
/// any clip mask, keyed by everything that determines them.
///
/// Why: an animation redraws most of its paths unchanged from one frame to the next (a
/// Lottie file's static artwork, a card's text and icons). rlottie keeps each unchanged
/// path's coverage between frames; this is the same idea, for any caller and without
/// frame bookkeeping: a fill whose path, transform, fill rule and work area equal a
/// recent fill's replays that fill's spans instead of flattening and sweeping again.
///
/// Rules:
/// - The key is compared in full (every path element, the transform's six numbers, the
///   rule and the work area), so a replay hands the painter exactly the spans and
///   coverage a sweep would: output bytes do not depend on what the cache holds, hence
///   not on frame order or thread count.
/// - Admission on third sight: a key is recorded only when it was seen twice recently, so
///   a path that changes every frame costs a hash, not a copy of its spans.
/// - Bounded: at most ``budgetBytes`` of spans and coverage per thread; past it the least
///   recently used half is dropped. The clip mask is applied on replay, not stored.
final class CoverageCache {
    /// What a fill's coverage depends on.
    struct Key: Equatable {
        let path: Path
        let transform: AffineTransform
        let rule: FillRule
        let area: PixelBounds
        let hash: UInt64

        init(path: Path, transform: AffineTransform, rule: FillRule, area: PixelBounds) {
            self.path = path; self.transform = transform; self.rule = rule; self.area = area
            var h = Hash64()
            h.add(transform)
            h.add(area)
            h.add(UInt64(rule == .nonZero ? 1 : 2))
            h.add(path)
            hash = h.value
        }

        static func == (l: Key, r: Key) -> Bool {
            l.hash == r.hash && l.rule == r.rule && l.area == r.area && l.transform == r.transform
                && l.path == r.path
        }
    }

    /// One recorded sweep: rows of spans (x, count, coverage as in ``Span``) and the
    /// per-pixel coverage bytes of the variable spans, in order.
    final class Entry {
        let key: Key
        let rows: [SpanRecording.Row]
        let spans: [SpanRecording.CompactSpan]
        let coverage: [UInt8]
        @exclusivity(unchecked) var lastUse: Int

        init(key: Key, recording: SpanRecording, lastUse: Int) {
            self.key = key
            rows = recording.rows; spans = recording.spans; coverage = recording.coverage
            self.lastUse = lastUse
        }

        var bytes: Int {
            rows.count * MemoryLayout<SpanRecording.Row>.stride
                + spans.count * MemoryLayout<SpanRecording.CompactSpan>.stride + coverage.count
                + 128
        }

        /// Hands the recorded rows to `painter`, rebuilding each row's spans and per-pixel
        /// coverage in the scratch buffers the way the sweep handed them over.
        func replay<P: SpanPainter>(scratch: RasterScratch, painter: inout P) {
            let x0 = key.area.x0
            scratch.reserve(rows: 0, width: key.area.width)
            let out = scratch.spans, cov = scratch.coverage
            spans.withUnsafeBufferPointer { recorded in
                coverage.withUnsafeBufferPointer { bytes in
                    var byteIndex = 0
                    for row in rows {
                        let first = Int(row.firstSpan)
                        for i in 0..<Int(row.spanCount) {
                            let s = recorded[first + i]
                            let span = Span(
                                x: Int(s.x), count: Int(s.count), coverage: Int(s.coverage))
                            out[i] = span
                            if span.coverage < 0 {
                                (cov + (span.x - x0)).update(
                                    from: bytes.baseAddress! + byteIndex, count: span.count)
                                byteIndex += span.count
                            }
                        }
                        painter.paintRow(
                            y: Int(row.y),
                            spans: UnsafeBufferPointer(start: out, count: Int(row.spanCount)),
                            coverage: cov, originX: x0)
                    }
                }
            }
        }
    }

    /// Most bytes of recorded coverage one thread keeps.
    static let budgetBytes = 4 << 20
    /// Recent keys not yet admitted, by hash, with their sights; cleared at this many.
    private static let seenLimit = 4096
    /// The sight count of a key whose recording was too large to keep.
    private static let tooLarge = UInt8.max

    // Unchecked exclusivity (see ``RasterScratch``): the cache is per thread, looked up on
    // every fill, and none of its methods re-enters another.
    @exclusivity(unchecked) private var entries: [UInt64: Entry] = [:]
    @exclusivity(unchecked) private var seen: [UInt64: UInt8] = [:]
    @exclusivity(unchecked) private var bytes = 0
    @exclusivity(unchecked) private var clock = 0

    /// The entry recorded for `key`, marked as just used.
    func entry(for key: Key) -> Entry? {
        clock += 1
        guard let e = entries[key.hash], e.key == key else { return nil }
        e.lastUse = clock
        return e
    }

    /// Whether a sweep for `key` should be recorded: from the third time a key is seen
    /// (the second sight is often a path drawn twice in one frame, say two repeater
    /// copies that coincide, and never again).
    func admits(_ key: Key) -> Bool {
        guard seen.count < Self.seenLimit else {
            let sights = seen[key.hash, default: 0]
            if sights == Self.tooLarge { return false }
            if sights >= 2 { return true }
            seen.removeAll(keepingCapacity: true)
            seen[key.hash] = sights + 1
            return false
        }
        // One lookup (the subscript's in-place access) where reading and then writing the
        // count took two: most fills are of paths seen once.
        return Self.countSight(&seen[key.hash, default: 0])
    }

    /// Counts one more sight unless the key is refused or already admitted; whether it is.
    private static func countSight(_ sights: inout UInt8) -> Bool {
        if sights == tooLarge { return false }
        if sights >= 2 { return true }
        sights += 1
        return false
    }

    /// Keeps a recorded sweep, dropping the least recently used half when over budget.
    func store(_ key: Key, _ recording: SpanRecording) {
        let entry = Entry(key: key, recording: recording, lastUse: clock)
        guard entry.bytes <= Self.budgetBytes / 4 else {
            seen[key.hash] = Self.tooLarge  // not recorded again at every sight
            return
        }
        if let old = entries.updateValue(entry, forKey: key.hash) { bytes -= old.bytes }
        bytes += entry.bytes
        seen[key.hash] = nil
        guard bytes > Self.budgetBytes else { return }
        bytes -= GeometryCaches.dropOlderHalf(of: &entries, lastUse: \.lastUse, cost: \.bytes)
    }

    /// The calling thread's cache.
    static var current: CoverageCache { threadLocal.value }
    private static let threadLocal = PerThread { CoverageCache() }
}

/// A span painter that copies what passes through it (before handing it on), for
/// ``CoverageCache``.
struct SpanRecording {
    struct Row { var y: Int32; var firstSpan: Int32; var spanCount: Int32 }
    struct CompactSpan { var x: Int32; var count: Int32; var coverage: Int32 }
    var rows: [Row] = []
    var spans: [CompactSpan] = []
    var coverage: [UInt8] = []

    mutating func record(
        y: Int, spans rowSpans: UnsafeBufferPointer<Span>,
        coverage cov: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        rows.append(
            Row(y: Int32(y), firstSpan: Int32(spans.count), spanCount: Int32(rowSpans.count)))
        for s in rowSpans {
            spans.append(
                CompactSpan(x: Int32(s.x), count: Int32(s.count), coverage: Int32(s.coverage)))
            if s.coverage < 0 {
                coverage.append(
                    contentsOf: UnsafeBufferPointer(start: cov + (s.x - originX), count: s.count))
            }
        }
    }
}

/// Records every row into a ``SpanRecording`` and passes it on to `inner` unchanged.
struct RecordingPainter<Inner: SpanPainter>: SpanPainter {
    var inner: Inner
    var recording = SpanRecording()

    init(inner: Inner) { self.inner = inner }

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        recording.record(y: y, spans: spans, coverage: coverage, originX: originX)
        inner.paintRow(y: y, spans: spans, coverage: coverage, originX: originX)
    }
}
