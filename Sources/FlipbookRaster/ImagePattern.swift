import FlipbookGeometry

/// An image used as paint: bilinear samples of a premultiplied ``Pixmap``.
///
/// Rules:
/// - `transform` maps device pixel coordinates to image pixel coordinates; a device
///   pixel is sampled at its center (x + 0.5, y + 0.5) and image pixel (i, j) has its
///   center at (i + 0.5, j + 0.5).
/// - Bilinear weights are applied to premultiplied pixels, so transparent neighbours add
///   no dark fringe; weights are 8-bit fixed point (1/256), the result rounds.
/// - Outside the image the nearest edge pixel repeats (clamp-to-edge); callers clip with
///   the destination rectangle.
/// - An exact integer translation copies pixels without filtering.
public struct ImagePattern: Sendable {
    public let image: Pixmap
    public let transform: AffineTransform
    let isOpaque: Bool

    public init(image: Pixmap, transform: AffineTransform) {
        self.image = image
        self.transform = transform
        var opaque = image.width > 0 && image.height > 0
        if opaque {
            var i = 3
            while i < image.data.count {
                if image.data[i] != 255 { opaque = false; break }
                i += 4
            }
        }
        isOpaque = opaque
    }
}

extension ImagePattern: SpanShader {
    var shadesOpaque: Bool { isOpaque }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let (w, h) = (image.width, image.height)
        guard w > 0, h > 0 else {
            out.update(repeating: 0, count: count)
            return
        }
        let t = transform
        image.data.withUnsafeBufferPointer { bytes in bytes.withMemoryRebound(to: UInt32.self) { src in
            if t.a == 1, t.b == 0, t.c == 0, t.d == 1,
               t.tx == t.tx.rounded(), t.ty == t.ty.rounded() {
                // Pure integer translation: pixel centers land on pixel centers.
                let row = min(max(y + Int(t.ty), 0), h - 1) * w
                let dx = Int(t.tx)
                for i in 0..<count {
                    out[i] = src[row + min(max(x + i + dx, 0), w - 1)]
                }
                return
            }
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            // Sample positions in the "pixel index" space (centers at integers).
            var u = t.a * px + t.c * py + t.tx - 0.5
            var v = t.b * px + t.d * py + t.ty - 0.5
            let maxX = w - 1, maxY = h - 1
            for i in 0..<count {
                let fu = u.rounded(.down), fv = v.rounded(.down)
                let wx = UInt32(((u - fu) * 256).rounded())
                let wy = UInt32(((v - fv) * 256).rounded())
                let ix = Int(max(min(fu, Double(maxX + 1)), -1))
                let iy = Int(max(min(fv, Double(maxY + 1)), -1))
                let x0 = min(max(ix, 0), maxX), x1 = min(max(ix + 1, 0), maxX)
                let y0 = min(max(iy, 0), maxY), y1 = min(max(iy + 1, 0), maxY)
                let top = Self.lerp(src[y0 * w + x0], src[y0 * w + x1], wx)
                let bottom = Self.lerp(src[y1 * w + x0], src[y1 * w + x1], wx)
                out[i] = Self.lerp(top, bottom, wy)
                u += t.a; v += t.b
            }
        } }
    }

    /// p + (q − p)·w/256 per channel, rounded (w in 0…256).
    @inline(__always)
    static func lerp(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        if w == 0 { return p }
        if w >= 256 { return q }
        let iw = 256 - w
        let rb = ((p & 0x00FF_00FF) &* iw &+ (q & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
        let ag = (((p >> 8) & 0x00FF_00FF) &* iw &+ ((q >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080)
        return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
    }
}
