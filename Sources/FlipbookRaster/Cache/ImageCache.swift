import FlipbookGeometry

/// A per-thread memo of recent image fills' shaded pixels: the premultiplied bilinear
/// samples of one image through one transform over one work area, with each row's runs
/// of transparent, opaque and mixed pixels.
///
/// Why: a Lottie file's image layers mostly stand still (or only fade), and resampling
/// a 372×372 image with fractional offsets every frame cost more than everything else in
/// the frame. A fill whose image, transform and work area equal a recent fill's blends
/// from the stored pixels instead, skipping transparent runs and copying opaque ones.
///
/// Rules:
/// - The key is compared in full: the image's storage (the entry keeps the ``Pixmap``,
///   so its buffer cannot be freed and its address reused while the entry lives), its
///   size, the transform's six numbers and the work area. ``ImagePattern`` shades a pixel
///   the same whatever span it belongs to, so blending from stored pixels gives exactly
///   the bytes shading the spans gives: output does not depend on what the cache holds.
/// - Admission on third sight (a moving image costs a hash per fill, not a copy), at most
///   ``budgetBytes`` per thread, least recently used half dropped past it.
/// - Off with the other ``GeometryCaches`` (``GeometryCaches/isEnabled``, to measure without it).
final class ImageCache {
    struct Key: Equatable {
        let image: Pixmap
        let storage: UInt
        let transform: AffineTransform
        let area: PixelBounds
        let hash: UInt64

        init(pattern: ImagePattern, area: PixelBounds) {
            image = pattern.image; transform = pattern.transform; self.area = area
            storage = image.data.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            var h = Hash64()
            h.add(UInt64(storage)); h.add(UInt64(image.width)); h.add(UInt64(image.height))
            h.add(transform)
            h.add(area)
            hash = h.value
        }

        static func == (l: Key, r: Key) -> Bool {
            l.hash == r.hash && l.storage == r.storage && l.image.width == r.image.width
                && l.image.height == r.image.height && l.area == r.area
                && l.transform == r.transform
        }
    }

    /// A run of pixels in one stored row, `[x, end)` in device columns.
    struct Run {
        static let transparent: UInt8 = 0, opaque: UInt8 = 1, mixed: UInt8 = 2
        var x: Int32
        var end: Int32
        var kind: UInt8
    }

    /// The shaded pixels of one key's work area (row-major, `area.width` per row) and
    /// each row's runs (`runs[rowStart[r] ..< rowStart[r + 1]]` for row `area.y0 + r`).
    final class Entry {
        let key: Key
        let pixels: UnsafeMutablePointer<UInt32>
        let runs: [Run]
        let rowStart: [Int32]
        var lastUse: Int

        init(key: Key, lastUse: Int) {
            self.key = key
            self.lastUse = lastUse
            let a = key.area
            pixels = .allocate(capacity: a.width * a.height)
            var runs: [Run] = [], rowStart: [Int32] = []
            rowStart.reserveCapacity(a.height + 1)
            let pattern = ImagePattern(image: key.image, transform: key.transform)
            for y in a.y0..<a.y1 {
                let row = pixels + (y - a.y0) * a.width
                pattern.shade(x: a.x0, y: y, count: a.width, into: row)
                rowStart.append(Int32(runs.count))
                Self.appendRuns(row, x0: a.x0, count: a.width, to: &runs)
            }
            rowStart.append(Int32(runs.count))
            self.runs = runs
            self.rowStart = rowStart
        }

        deinit { pixels.deallocate() }

        var bytes: Int {
            key.area.width * key.area.height * 4 + runs.count * MemoryLayout<Run>.stride + rowStart
                .count * 4 + 256
        }

        /// Splits a row into runs by alpha; transparent or opaque stretches shorter than
        /// eight pixels join the mixed runs around them (not worth a run of their own).
        private static func appendRuns(
            _ row: UnsafePointer<UInt32>, x0: Int, count: Int, to runs: inout [Run]
        ) {
            let first = runs.count
            var i = 0
            while i < count {
                let a = row[i] >> 24
                let kind = a == 0 ? Run.transparent : a == 255 ? Run.opaque : Run.mixed
                var j = i + 1
                switch kind {
                case Run.transparent: while j < count && row[j] == 0 { j += 1 }
                case Run.opaque: while j < count && row[j] >> 24 == 255 { j += 1 }
                default: while j < count && row[j] >> 24 != 0 && row[j] >> 24 != 255 { j += 1 }
                }
                let k = kind != Run.mixed && j - i < 8 ? Run.mixed : kind
                if k == Run.mixed, runs.count > first, runs[runs.count - 1].kind == Run.mixed {
                    runs[runs.count - 1].end = Int32(x0 + j)
                } else {
                    runs.append(Run(x: Int32(x0 + i), end: Int32(x0 + j), kind: k))
                }
                i = j
            }
        }
    }

    /// Most bytes of shaded pixels one thread keeps; an entry may take half of it.
    static let budgetBytes = 8 << 20
    private static let seenLimit = 1024

    private var entries: [UInt64: Entry] = [:]
    private var seen: [UInt64: UInt8] = [:]
    private var bytes = 0
    private var clock = 0

    /// The stored pixels for `pattern` over `area`: a recent entry, or a new one when
    /// this is the third recent sight of the key; nil otherwise (shade the spans).
    func entry(for pattern: ImagePattern, area: PixelBounds) -> Entry? {
        guard pattern.image.width > 0, pattern.image.height > 0, !area.isEmpty,
            area.width * area.height * 4 <= Self.budgetBytes / 2
        else { return nil }
        clock += 1
        let key = Key(pattern: pattern, area: area)
        if let e = entries[key.hash], e.key == key {
            e.lastUse = clock
            return e
        }
        let sights = seen[key.hash, default: 0]
        guard sights >= 2 else {
            if seen.count >= Self.seenLimit { seen.removeAll(keepingCapacity: true) }
            seen[key.hash] = sights + 1
            return nil
        }
        seen[key.hash] = nil
        let entry = Entry(key: key, lastUse: clock)
        if let old = entries.updateValue(entry, forKey: key.hash) { bytes -= old.bytes }
        bytes += entry.bytes
        if bytes > Self.budgetBytes {
            bytes -= GeometryCaches.dropOlderHalf(
                of: &entries, keeping: entry, lastUse: \.lastUse, cost: \.bytes)
        }
        return entry
    }

    /// The calling thread's cache.
    static var current: ImageCache { threadLocal.value }
    private static let threadLocal = PerThread { ImageCache() }
}

/// Paints spans with an image's stored pixels (``ImageCache``): transparent runs are
/// skipped, opaque runs at full coverage copied, the rest blended as ``ShaderPainter``
/// blends (same arithmetic, same bytes).
struct CachedImagePainter: SpanPainter {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let entry: ImageCache.Entry
    let opacity: UInt32

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        let area = entry.key.area
        let row = pixels + y * width
        let source = entry.pixels + (y - area.y0) * area.width - area.x0
        let opacity = self.opacity
        entry.runs.withUnsafeBufferPointer { runs in
            let first = Int(entry.rowStart[y - area.y0]),
                last = Int(entry.rowStart[y - area.y0 + 1])
            for s in spans {
                let end = s.x + s.count
                var constant = -1
                if s.coverage >= 0 {
                    constant = Int(
                        opacity == 255
                            ? UInt32(s.coverage) : Compositing.div255(UInt32(s.coverage) * opacity))
                    if constant == 0 { continue }
                } else if opacity != 255 {
                    let cov = coverage + (s.x - originX)
                    for i in 0..<s.count {
                        cov[i] = UInt8(Compositing.div255(UInt32(cov[i]) * opacity))
                    }
                }
                for r in first..<last {
                    let run = runs[r]
                    let a = max(s.x, Int(run.x)), b = min(end, Int(run.end))
                    if a >= b {
                        if Int(run.x) >= end { break }
                        continue
                    }
                    if run.kind == ImageCache.Run.transparent { continue }
                    if constant < 0 {
                        Compositing.blend(
                            row + a, source + a, count: b - a,
                            coverage: UnsafePointer(coverage + (a - originX)))
                    } else if constant == 255 && run.kind == ImageCache.Run.opaque {
                        (row + a).update(from: source + a, count: b - a)
                    } else {
                        Compositing.blend(
                            row + a, source + a, count: b - a, coverage: UInt32(constant))
                    }
                }
            }
        }
    }
}
