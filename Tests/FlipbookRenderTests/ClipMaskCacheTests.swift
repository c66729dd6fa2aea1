import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookRender

/// The clip-mask memo hands back exactly the mask rasterizing gives, for every key of a
/// sequence with repeats, evictions and near-identical keys (a transform one ulp apart, a
/// surface a pixel wider); it stores a key from its second sighting, and shares the
/// stored bytes from then on.
struct ClipMaskCacheTests {
    static let turned = AffineTransform(a: 0.46, b: -0.89, c: 0.89, d: 0.46, tx: 40, ty: 180)

    @Test func remembersExactlyWhatRasterizingGives() {
        let cache = ClipMaskCache()
        let rect = Path.rect(Rect(-60, -30, 120, 60))
        let nudged = AffineTransform(a: 0.46.nextUp, b: -0.89, c: 0.89, d: 0.46, tx: 40, ty: 180)
        let keys: [(Path, AffineTransform, Int, Int)] = [
            (rect, Self.turned, 144, 256), (rect, nudged, 144, 256), (rect, Self.turned, 145, 256),
            (.ellipse(in: Rect(0, 0, 100, 50)), .translation(10.5, 20.25), 144, 256),
            (rect, .scale(0.2, 0.2).concatenating(.translation(72, 128)), 144, 256),
        ]
        for round in 0..<4 {
            for (path, t, w, h) in keys {
                let got = cache.mask(path, transform: t, width: w, height: h)
                let fresh = Mask.path(path, transform: t, rule: .nonZero, width: w, height: h)
                #expect(
                    got == fresh && got.openRuns == fresh.openRuns, "round \(round) \(t) \(w)×\(h)")
            }
        }
    }

    @Test func storesFromTheSecondSighting() {
        let cache = ClipMaskCache()
        let rect = Path.rect(Rect(-60, -30, 120, 60))
        func address(_ m: Mask) -> UnsafeRawPointer? { m.data.withUnsafeBytes { $0.baseAddress } }
        let first = cache.mask(rect, transform: Self.turned, width: 144, height: 256)
        let second = cache.mask(rect, transform: Self.turned, width: 144, height: 256)
        let third = cache.mask(rect, transform: Self.turned, width: 144, height: 256)
        #expect(address(first) != address(second), "not stored at its first sighting")
        #expect(address(second) == address(third), "stored at the second, shared at the third")
    }
}
