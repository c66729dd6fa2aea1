import FlipbookGeometry

/// A per-thread memo of gradient color tables by their stops (colors and locations,
/// compared in full): a gradient unchanged from the previous frame does not interpolate
/// its 1,024 entries again.
///
/// Rules: a table is a function of the stops alone, so a remembered one is the one
/// ``Gradient/buildTable(_:_:)`` builds; off with the other ``GeometryCaches``; at most
/// ``capacity`` tables (4 KiB each) per thread, all dropped past it.
final class GradientTables {
    private struct Entry {
        let colors: [Color]
        let locations: [Double]
        let table: [UInt32]
        let isOpaque: Bool
    }

    static let capacity = 256
    private var entries: [UInt64: Entry] = [:]

    /// The table for these stops (colors clamped, locations one per color).
    static func table(colors: [Color], locations: [Double]) -> (table: [UInt32], isOpaque: Bool) {
        guard GeometryCaches.isEnabled else { return Gradient.buildTable(colors, locations) }
        return current.table(colors: colors, locations: locations)
    }

    private func table(colors: [Color], locations: [Double]) -> (table: [UInt32], isOpaque: Bool) {
        var h = Hash64()
        for c in colors { h.add(c.red); h.add(c.green); h.add(c.blue); h.add(c.alpha) }
        for l in locations { h.add(l) }
        if let e = entries[h.value], e.colors == colors, e.locations == locations {
            return (e.table, e.isOpaque)
        }
        let built = Gradient.buildTable(colors, locations)
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[h.value] = Entry(
            colors: colors, locations: locations, table: built.table, isOpaque: built.isOpaque)
        return built
    }

    private static var current: GradientTables { threadLocal.value }
    private static let threadLocal = PerThread { GradientTables() }
}
