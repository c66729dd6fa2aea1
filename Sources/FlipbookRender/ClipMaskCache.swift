import FlipbookGeometry
import FlipbookRaster

/// A per-thread memo of the masks that clip layers to their bounds, by (bounds path,
/// device transform, surface size): a precomposition that does not move clips every
/// frame with the same mask, which was cleared and rasterized again each time (a full
/// surface of bytes per clipped layer per frame).
///
/// Rules: a mask is a pure function of its key, compared in full, so a remembered mask
/// is the one rasterizing gives (bytes never depend on the cache; off with the other
/// ``GeometryCaches``). A key is kept from its second sighting on (a moving layer's
/// masks are never stored), most recent first, within ``budget`` bytes per thread.
final class ClipMaskCache {
    private struct Key: Equatable {
        let path: Path
        let transform: AffineTransform
        let width: Int
        let height: Int
    }

    static let budget = 4 << 20
    /// Keys seen once and not stored yet (the last few misses).
    private static let seenCount = 16

    private var entries: [(key: Key, mask: Mask)] = []
    private var bytes = 0
    private var seen: [Key] = []

    /// The mask of `path` through `transform` on a `width`×`height` surface.
    func mask(_ path: Path, transform: AffineTransform, width: Int, height: Int) -> Mask {
        let key = Key(path: path, transform: transform, width: width, height: height)
        if let i = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: i)
            entries.insert(entry, at: 0)
            return entry.mask
        }
        let mask = Mask.path(
            path, transform: transform, rule: .nonZero, width: width, height: height)
        let size = width * height
        // A mask rasterized while a stop was requested may be incomplete: not remembered.
        guard size <= Self.budget, !RenderCancellation.shared.isCancelled else { return mask }
        if let i = seen.firstIndex(of: key) {
            seen.remove(at: i)
            while bytes + size > Self.budget, let last = entries.popLast() {
                bytes -= last.mask.width * last.mask.height
            }
            entries.insert((key, mask), at: 0)
            bytes += size
        } else {
            if seen.count >= Self.seenCount { seen.removeFirst() }
            seen.append(key)
        }
        return mask
    }

    /// The clip mask for `path`, through the calling thread's cache.
    static func mask(_ path: Path, transform: AffineTransform, width: Int, height: Int) -> Mask {
        guard GeometryCaches.isEnabled else {
            return Mask.path(
                path, transform: transform, rule: .nonZero, width: width, height: height)
        }
        return threadLocal.value.mask(path, transform: transform, width: width, height: height)
    }

    private static let threadLocal = PerThread { ClipMaskCache() }
}
