import FlipbookGeometry

/// A per-thread memo of recent stroke outlines, keyed by the stroked path, the style and
/// the tolerance (compared in full), so that a stroke unchanged from the previous frame
/// is not dashed, flattened and offset again.
///
/// Rules: caps and joins are compared, not hashed; off with the coverage cache
/// (``GeometryCaches``). An outline is a plain value computed from its key alone, so a remembered one
/// is the outline ``Stroker/outline(of:style:tolerance:)`` would build. At most
/// ``budgetElements`` path elements per thread (past it the least recently used half is
/// dropped).
///
/// Admission: an outline built for the first time is kept only until the next one is
/// built, unless it is asked for again before then (a stroke drawn twice in one frame);
/// its key is then remembered, and an outline built for a remembered key (a static
/// stroke, met again in the next frame) is kept. Why: most strokes of an animated
/// character change every frame, and keeping each of their outlines until the budget
/// filled meant megabytes of fresh pages per render that were never read again (lolo_walk
/// at 256×256: 92 % of the page faults, about a tenth of its render time). Dropped at
/// once, they are freed and the next outline reuses their memory.
final class OutlineCache {
    private struct Key: Equatable {
        let path: Path
        let style: StrokeStyle
        let tolerance: Double
        let hash: UInt64
    }

    private final class Entry {
        let key: Key
        let outline: Path
        var lastUse: Int
        init(key: Key, outline: Path, lastUse: Int) {
            self.key = key; self.outline = outline; self.lastUse = lastUse
        }
        var elements: Int { key.path.elements.count + outline.elements.count + 8 }
    }

    /// Most path elements (sources and outlines, about 56 bytes each) one thread keeps.
    static let budgetElements = 40_000

    private var entries: [UInt64: Entry] = [:]
    private var elements = 0
    /// The entry built last for a key not met before, while nothing asked for it again.
    private var pending: Entry?
    /// Keys (hashes) whose outline was built and dropped unused; cleared at ``seenLimit``.
    private var seen: Set<UInt64> = []
    private static let seenLimit = 4096
    private var clock = 0

    /// The outline for (`path`, `style`, `tolerance`), from memory or built by `build`.
    func outline(of path: Path, style: StrokeStyle, tolerance: Double, build: () -> Path) -> Path {
        var h = Hash64()
        h.add(path)
        h.add(style.width); h.add(style.miterLimit); h.add(style.dashPhase); h.add(tolerance)
        for d in style.dashes { h.add(d) }
        let key = Key(path: path, style: style, tolerance: tolerance, hash: h.value)
        clock += 1
        if let e = entries[key.hash], e.key == key {
            e.lastUse = clock
            if e === pending { pending = nil }
            return e.outline
        }
        let outline = build()
        let entry = Entry(key: key, outline: outline, lastUse: clock)
        guard entry.elements <= Self.budgetElements / 4 else { return outline }
        if let unused = pending, entries[unused.key.hash] === unused {
            entries[unused.key.hash] = nil
            elements -= unused.elements
            if seen.count >= Self.seenLimit { seen.removeAll(keepingCapacity: true) }
            seen.insert(unused.key.hash)
        }
        pending = seen.remove(key.hash) == nil ? entry : nil
        if let old = entries.updateValue(entry, forKey: key.hash) { elements -= old.elements }
        elements += entry.elements
        if elements > Self.budgetElements {
            elements -= GeometryCaches.dropOlderHalf(
                of: &entries, lastUse: \.lastUse, cost: \.elements)
        }
        return outline
    }

    /// The calling thread's cache.
    static var current: OutlineCache { threadLocal.value }
    private static let threadLocal = PerThread { OutlineCache() }
}
