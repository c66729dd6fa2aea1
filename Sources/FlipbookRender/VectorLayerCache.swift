import FlipbookRaster
import FlipbookTimeline

/// A per-thread memo of what ``VectorRenderer`` built for a layer's vector artwork,
/// by layer id: when a frame's evaluated artwork equals what was built last time for that
/// id (compared in full), the same layers are handed back instead of rebuilt.
///
/// Why: most of a Lottie file's artwork is static or only moves as a whole (its layer's
/// transform animates, not its shapes), yet the stack of groups, modifiers and styles
/// was turned into layers again every frame.
///
/// Rules: the layers are a pure function of (artwork, id), so a remembered result is the
/// one building gives; off with the other ``GeometryCaches``. At most ``capacity`` ids
/// are kept per thread (all dropped past it: a layer tree that large rebuilds anyway).
final class VectorLayerCache {
    private struct Entry {
        let nodes: [VectorNode]
        let artwork: VectorRenderer.Artwork
    }

    static let capacity = 2048
    private var entries: [String: Entry] = [:]

    /// The back-to-front drawings and layers for `nodes` of the layer `id`.
    func artwork(_ nodes: [VectorNode], id: String) -> VectorRenderer.Artwork {
        if let e = entries[id], e.nodes == nodes { return e.artwork }
        let artwork = VectorRenderer.artwork(nodes, id: id)
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[id] = Entry(nodes: nodes, artwork: artwork)
        return artwork
    }

    /// The artwork for `nodes` of the layer `id`, through the calling thread's cache.
    static func artwork(_ nodes: [VectorNode], id: String) -> VectorRenderer.Artwork {
        GeometryCaches.isEnabled
            ? current.artwork(nodes, id: id) : VectorRenderer.artwork(nodes, id: id)
    }

    /// The calling thread's cache.
    static var current: VectorLayerCache { threadLocal.value }
    private static let threadLocal = PerThread { VectorLayerCache() }
}
