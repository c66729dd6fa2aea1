import FlipbookGeometry

/// Mask arithmetic for After Effects' layer masks and track mattes.
///
/// Rules: coverages are fractions a, b in 0…1 stored as 8-bit levels; add is the union
/// a + b − ab, subtract a(1 − b), intersect ab, lighten max, darken min, difference
/// |a − b|; results are rounded to the nearest level (div255 for products).
extension Mask {
    public enum Combination: Sendable { case add, subtract, intersect, lighten, darken, difference }

    /// A mask letting everything through.
    public static func full(width: Int, height: Int) -> Mask {
        var m = Mask(width: width, height: height)
        m.data = [UInt8](repeating: 255, count: width * height)
        m.bounds =
            width > 0 && height > 0 ? PixelBounds(x0: 0, y0: 0, x1: width, y1: height) : .empty
        return m
    }

    /// 1 − coverage everywhere.
    public func inverted() -> Mask {
        var m = self
        for i in m.data.indices { m.data[i] = 255 &- m.data[i] }
        m.bounds = m.tightBounds(within: PixelBounds(x0: 0, y0: 0, x1: width, y1: height))
        return m
    }

    /// The Rec. 601 luma of a pixmap's colors over black (premultiplied, so transparent
    /// pixels count as black): After Effects' luma matte.
    public init(luminanceOf pixmap: Pixmap) {
        self.init(width: pixmap.width, height: pixmap.height)
        let n = width * height
        pixmap.data.withUnsafeBufferPointer { src in
            for i in 0..<n {
                let r = Double(src[4 * i]), g = Double(src[4 * i + 1]), b = Double(src[4 * i + 2])
                data[i] = UInt8(min(255, (0.299 * r + 0.587 * g + 0.114 * b).rounded()))
            }
        }
        bounds = tightBounds(within: PixelBounds(x0: 0, y0: 0, x1: width, y1: height))
    }

    /// Combines `other` (same size) into this mask.
    public mutating func combine(_ other: Mask, _ op: Combination) {
        precondition(other.width == width && other.height == height, "mask sizes differ")
        data.withUnsafeMutableBufferPointer { a in
            other.data.withUnsafeBufferPointer { b in
                for i in 0..<a.count {
                    let x = UInt32(a[i]), y = UInt32(b[i])
                    let v: UInt32
                    switch op {
                    case .add: v = x + y - Compositing.div255(x * y)
                    case .subtract: v = Compositing.div255(x * (255 - y))
                    case .intersect: v = Compositing.div255(x * y)
                    case .lighten: v = max(x, y)
                    case .darken: v = min(x, y)
                    case .difference: v = x > y ? x - y : y - x
                    }
                    a[i] = UInt8(v)
                }
            }
        }
        bounds = tightBounds(within: PixelBounds(x0: 0, y0: 0, x1: width, y1: height))
    }
}

extension Pixmap {
    /// The pixmap blurred by a Gaussian of σx, σy pixels (each premultiplied channel on
    /// its own, as the mask blur does it; σ = 0 leaves that axis alone).
    public func blurred(sigmaX: Double, sigmaY: Double) -> Pixmap {
        var out = self
        for channel in 0..<4 {
            // A stop request (Ctrl-C) leaves the blur unfinished; the frame is discarded.
            if RenderCancellation.shared.isCancelled { return out }
            var m = Mask(width: width, height: height)
            for i in 0..<(width * height) { m.data[i] = data[4 * i + channel] }
            m.bounds = m.tightBounds(within: PixelBounds(x0: 0, y0: 0, x1: width, y1: height))
            let b = m.blurredSeparable(sigmaX: sigmaX, sigmaY: sigmaY)
            for i in 0..<(width * height) { out.data[4 * i + channel] = b.data[i] }
        }
        // Blurring channels apart can leave a color a level above its alpha.
        for i in stride(from: 0, to: out.data.count, by: 4) {
            let a = out.data[i + 3]
            out.data[i] = min(out.data[i], a); out.data[i + 1] = min(out.data[i + 1], a);
            out.data[i + 2] = min(out.data[i + 2], a)
        }
        return out
    }
}
