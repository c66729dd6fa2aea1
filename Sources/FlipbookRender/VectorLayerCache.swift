import FlipbookRaster
import FlipbookTimeline

/// A per-thread memo of the layers ``VectorRenderer`` built for a layer's vector artwork,
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
        let layers: [RenderLayer]
    }

    static let capacity = 2048
    private var entries: [String: Entry] = [:]

    /// The back-to-front layers for `nodes` of the layer `id`.
    func layers(_ nodes: [VectorNode], id: String) -> [RenderLayer] {
        if let e = entries[id], e.nodes == nodes { return e.layers }
        let layers = VectorRenderer.layers(nodes, id: id)
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[id] = Entry(nodes: nodes, layers: layers)
        return layers
    }

    /// The layers for `nodes` of the layer `id`, through the calling thread's cache.
    static func layers(_ nodes: [VectorNode], id: String) -> [RenderLayer] {
        GeometryCaches.isEnabled ? current.layers(nodes, id: id) : VectorRenderer.layers(nodes, id: id)
    }

    /// The calling thread's cache.
    static var current: VectorLayerCache { threadLocal.value }
    private static let threadLocal = PerThread { VectorLayerCache() }
}
