/// The caches that carry computed geometry from one frame to the next on a thread
/// (``CoverageCache``, ``OutlineCache``, ``GradientTables``, ``ImageCache``, the
/// renderer's vector artwork): each hands back exactly what it would compute, so they
/// change speed, never bytes.
package enum GeometryCaches {
    /// Drops the least recently used half of a cache's `entries` (one more than half, so at
    /// least one; never `kept`, the entry just stored) and returns what they cost: the
    /// eviction every bounded cache here uses once past its budget.
    static func dropOlderHalf<Key: Hashable, Entry: AnyObject>(
        of entries: inout [Key: Entry], keeping kept: Entry? = nil,
        lastUse: (Entry) -> Int, cost: (Entry) -> Int
    ) -> Int {
        let byAge = entries.filter { $0.value !== kept }.sorted {
            lastUse($0.value) < lastUse($1.value)
        }
        var freed = 0
        for (key, old) in byAge.prefix(byAge.count / 2 + 1) {
            entries[key] = nil
            freed += cost(old)
        }
        return freed
    }

    /// Whether the caches are used (default true): an option for measuring without them,
    /// like tiny-skia's `force_hq_pipeline`. Set it before rendering starts; the library reads
    /// no environment (`flipbook` maps FLIPBOOK_COVERAGE_CACHE onto it).
    nonisolated(unsafe) package static var isEnabled = true
}
