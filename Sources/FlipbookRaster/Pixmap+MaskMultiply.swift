import FlipbookGeometry

extension Pixmap {
    /// Scales every pixel (all four premultiplied channels) by the mask's coverage at the
    /// same position, with exact rounding: what a layer mask does to its layer. The mask
    /// must have the pixmap's size; pixels outside its bounds become transparent.
    public mutating func multiply(by mask: Mask) {
        precondition(mask.width == width && mask.height == height, "mask size differs from the pixmap")
        let w = width
        let inside = mask.bounds
        data.withUnsafeMutableBufferPointer { bytes in
            mask.data.withUnsafeBufferPointer { coverage in
                for y in 0..<height {
                    // A stop request (Ctrl-C), polled every 64 rows, leaves the pixels
                    // partly multiplied; the frame is then discarded.
                    if y & 63 == 63 && RenderCancellation.shared.isCancelled { return }
                    let row = y * w
                    guard y >= inside.y0, y < inside.y1 else {
                        for i in (row * 4)..<((row + w) * 4) { bytes[i] = 0 }
                        continue
                    }
                    for x in 0..<w {
                        let c = UInt32(coverage[row + x])
                        let i = (row + x) * 4
                        if c == 255 { continue }
                        if c == 0 {
                            bytes[i] = 0; bytes[i + 1] = 0; bytes[i + 2] = 0; bytes[i + 3] = 0
                            continue
                        }
                        for k in 0..<4 {
                            bytes[i + k] = UInt8(truncatingIfNeeded: Compositing.div255(UInt32(bytes[i + k]) &* c))
                        }
                    }
                }
            }
        }
    }
}
