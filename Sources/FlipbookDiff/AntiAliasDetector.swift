/// Decides whether a differing pixel is only anti-aliasing: Vyšniauskas' anti-aliased
/// pixel and intensity slope detector (2009), with pixelmatch's rules.
///
/// A pixel P of image A is anti-aliased when:
/// 1. among its 8 neighbours (fewer at the border, where each missing side counts as one
///    "equal" neighbour), at most 2 have exactly P's brightness — more means P lies in a
///    flat area, not on an edge;
/// 2. some neighbour is strictly darker and some strictly brighter than P (P sits on a
///    brightness slope between them); the darkest and the brightest are remembered (the
///    first found in column-major scan on ties);
/// 3. the darkest or the brightest of those neighbours has "many siblings" — 3 or more of
///    its own 8 neighbours with exactly its color (border sides counting as one) — in
///    both images A and B, i.e. it belongs to a solid region on both sides of the change.
///
/// Brightness is Y of the pixels shown over white, whatever the comparison's backdrop
/// (``PixelMetric/brightnessSlope(center:neighbour:)``, as pixelmatch main); equality for
/// siblings is exact equality of the RGBA word. The diff asks
/// this of both images (A against B, then B against A): a pixel is anti-aliasing if either
/// side says so.
public struct AntiAliasDetector {
    let width: Int
    let height: Int
    let metric: PixelMetric

    public init(width: Int, height: Int, metric: PixelMetric = PixelMetric()) {
        self.width = width
        self.height = height
        self.metric = metric
    }

    /// Whether pixel (x, y) of `image` is anti-aliased, `other` being the image compared
    /// with it. Both buffers hold width × height RGBA words.
    public func isAntiAliased(
        x: Int, y: Int, in image: UnsafeBufferPointer<UInt32>,
        other: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let onBorder = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        // Neighbours with the very same word have the same brightness: when they alone make
        // 3, the pixel is in a flat area (rule 1) and no brightness needs computing.
        if hasManySiblings(x: x, y: y, in: image) { return false }
        var equal = onBorder
        let center = image[y * width + x]
        var darkest = 0.0, brightest = 0.0
        var darkX = 0, darkY = 0, brightX = 0, brightY = 0
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let word = image[ny * width + nx]
                let slope = metric.brightnessSlope(center: center, neighbour: word)
                if slope == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if slope < darkest {
                    darkest = slope; darkX = nx; darkY = ny
                } else if slope > brightest {
                    brightest = slope; brightX = nx; brightY = ny
                }
            }
        }
        guard darkest != 0, brightest != 0 else { return false }
        return
            (hasManySiblings(x: darkX, y: darkY, in: image)
            && hasManySiblings(x: darkX, y: darkY, in: other))
            || (hasManySiblings(x: brightX, y: brightY, in: image)
                && hasManySiblings(x: brightX, y: brightY, in: other))
    }

    /// Whether 3 or more of the 8 neighbours of (x, y) have exactly its color (each image
    /// border touching the pixel counts as one such neighbour).
    public func hasManySiblings(x: Int, y: Int, in image: UnsafeBufferPointer<UInt32>) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let word = image[y * width + x]
        for nx in x0...x2 {
            for ny in y0...y2 where (nx != x || ny != y) && image[ny * width + nx] == word {
                equal += 1
                if equal > 2 { return true }
            }
        }
        return false
    }
}
