import FlipbookGeometry

extension Pixmap {
    /// Scales every pixel (all four premultiplied channels) by the mask's coverage at the
    /// same position, with exact rounding: what a layer mask does to its layer. The mask
    /// must have the pixmap's size; pixels outside its bounds become transparent.
    public mutating func multiply(by mask: Mask) {
        precondition(
            mask.width == width && mask.height == height, "mask size differs from the pixmap")
        let w = width
        let inside = mask.bounds
        data.withUnsafeMutableBufferPointer { bytes in
            mask.data.withUnsafeBufferPointer { coverage in
                guard let px = bytes.baseAddress, let cov = coverage.baseAddress else { return }
                let pixels = UnsafeMutableRawPointer(px)
                for y in 0..<height {
                    // A stop request (Ctrl-C), polled every 64 rows, leaves the pixels
                    // partly multiplied; the frame is then discarded.
                    if y & 63 == 63 && RenderCancellation.shared.isCancelled { return }
                    let row = y * w
                    guard y >= inside.y0, y < inside.y1 else {
                        (px + row * 4).update(repeating: 0, count: w * 4)
                        continue
                    }
                    // Outside the mask's columns the coverage is 0: cleared whole.
                    (px + row * 4).update(repeating: 0, count: inside.x0 * 4)
                    (px + (row + inside.x1) * 4).update(repeating: 0, count: (w - inside.x1) * 4)
                    Self.multiplyRow(
                        pixels + (row + inside.x0) * 4, by: cov + row + inside.x0,
                        count: inside.x1 - inside.x0)
                }
            }
        }
    }

    /// `count` pixels times their coverage bytes/255, four at a time in 16-bit lanes
    /// (``Compositing/scale4(_:_:)``: per channel div255(channel · coverage), the scalar
    /// rule, so the same bytes); groups of four at full coverage are skipped.
    @inline(__always)
    private static func multiplyRow(
        _ pixels: UnsafeMutableRawPointer, by coverage: UnsafePointer<UInt8>, count: Int
    ) {
        var x = 0
        let full = SIMD4<UInt32>(repeating: 255)
        while x + 4 <= count {
            let c = Compositing.coverage4(coverage, at: x)
            if c != full {
                let p = pixels.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self)
                pixels.storeBytes(
                    of: Compositing.scale4(p, Compositing.lanes(c)), toByteOffset: x * 4,
                    as: SIMD4<UInt32>.self)
            }
            x += 4
        }
        while x < count {
            let c = UInt32(coverage[x])
            if c != 255 {
                let p = pixels.load(fromByteOffset: x * 4, as: UInt32.self)
                pixels.storeBytes(
                    of: Compositing.scale(p, c), toByteOffset: x * 4, as: UInt32.self)
            }
            x += 1
        }
    }
}
