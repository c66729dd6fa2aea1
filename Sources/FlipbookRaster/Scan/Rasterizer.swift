import FlipbookGeometry

/// Entry point from a path to spans: bounds the work, flattens and accumulates.
///
/// Rules:
/// - The work area is the transformed path's control-point box, rounded out to whole
///   pixels and intersected with the target (and the clip mask's bounds): nothing
///   outside it is touched.
/// - Curves are flattened in device space to within ``tolerance`` (1/128 px) of the curve.
///   A chord's distance from the curve shows up almost one-to-one as lost coverage in the
///   edge pixels (0.1 px would be up to 25/255, a visibly thinner curve); 1/128 px keeps
///   that under 2/255, and only costs ~3.6× more (cheap) chords, not more pixel work.
enum Rasterizer {
    static let tolerance = 1.0 / 128

    /// The pixels the path can touch inside `box`, or nil when there are none.
    static func deviceBounds(
        of path: Path, transform t: AffineTransform,
        within box: PixelBounds
    ) -> PixelBounds? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        @inline(__always) func add(_ p: Point) {
            let q = t.apply(p)
            minX = min(minX, q.x); maxX = max(maxX, q.x)
            minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        for e in path.elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        guard minX <= maxX, minY <= maxY, minX.isFinite, minY.isFinite,
            maxX.isFinite, maxY.isFinite
        else { return nil }
        let clampToInt = { (v: Double) -> Int in Int(min(max(v, -1e9), 1e9)) }
        let r = PixelBounds(
            x0: clampToInt(minX.rounded(.down)), y0: clampToInt(minY.rounded(.down)),
            x1: clampToInt(maxX.rounded(.up)), y1: clampToInt(maxY.rounded(.up))
        )
        .intersection(box)
        return r.isEmpty ? nil : r
    }

    /// Hands the spans of `path` inside `area` to `painter`: multiplied by `clip` when
    /// there is one, only rows in `rows` when given. Replays a recent identical fill from
    /// the thread's ``CoverageCache`` instead of sweeping again.
    static func rasterize<P: SpanPainter>(
        _ path: Path, transform: AffineTransform,
        rule: FillRule, area: PixelBounds, clip: Mask?,
        rows: Range<Int>? = nil, painter: inout P
    ) {
        guard let rows else {
            rasterize(
                path, transform: transform, rule: rule, area: area, clip: clip, painter: &painter)
            return
        }
        var window = RowWindowPainter(inner: painter, rows: rows)
        rasterize(path, transform: transform, rule: rule, area: area, clip: clip, painter: &window)
        painter = window.inner
    }

    private static func rasterize<P: SpanPainter>(
        _ path: Path, transform: AffineTransform,
        rule: FillRule, area: PixelBounds, clip: Mask?,
        painter: inout P
    ) {
        let scratch = RasterScratch.acquire()
        defer { scratch.release() }
        scratch.reserve(rows: 0, width: area.width)
        // A fill lying wholly where the clip passes everything would be handed on
        // untouched row by row (see ``ClipPainter``): it skips the clip.
        guard let clip, !clip.isOpen(area) else {
            rasterize(
                path, transform: transform, rule: rule, area: area, scratch: scratch,
                painter: &painter)
            return
        }
        var clipped = ClipPainter(inner: painter, clip: clip, out: scratch.clippedSpans)
        rasterize(
            path, transform: transform, rule: rule, area: area, scratch: scratch, painter: &clipped)
        painter = clipped.inner
    }

    private static func rasterize<P: SpanPainter>(
        _ path: Path, transform: AffineTransform,
        rule: FillRule, area: PixelBounds, scratch: RasterScratch,
        painter: inout P
    ) {
        let cache = GeometryCaches.isEnabled ? CoverageCache.current : nil
        let key = cache.map { _ in
            CoverageCache.Key(path: path, transform: transform, rule: rule, area: area)
        }
        if let cache, let key, let entry = cache.entry(for: key) {
            entry.replay(scratch: scratch, painter: &painter)
            return
        }
        var acc = CoverageAccumulator(
            x0: area.x0, y0: area.y0, x1: area.x1, y1: area.y1, scratch: scratch)
        PathFlattener.flatten(
            path, transform: transform, tolerance: tolerance, cull: acc.cullBox, into: &acc)
        guard let cache, let key, cache.admits(key) else {
            acc.sweep(rule: rule, painter: &painter)
            return
        }
        var recorder = RecordingPainter(inner: painter)
        acc.sweep(rule: rule, painter: &recorder)
        painter = recorder.inner
        // A sweep cut short by a stop request is not remembered.
        if !RenderCancellation.shared.isCancelled { cache.store(key, recorder.recording) }
    }
}
