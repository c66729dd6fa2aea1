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
                    for x in inside.x0..<inside.x1 {
                        let c = UInt32(cov[row + x])
                        if c == 255 { continue }
                        let i = (row + x) * 4
                        // A transparent pixel stays so whatever the coverage.
                        if c == 0 || pixels.load(fromByteOffset: i, as: UInt32.self) == 0 {
                            pixels.storeBytes(of: 0, toByteOffset: i, as: UInt32.self)
                            continue
                        }
                        for k in 0..<4 {
                            px[i + k] = UInt8(
                                truncatingIfNeeded: Compositing.div255(UInt32(px[i + k]) &* c))
                        }
                    }
                }
            }
        }
    }
}
