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

    /// Scales every pixel by the alpha of `matte`'s pixel at the same position: the bytes
    /// `multiply(by: Mask(alphaOf: matte))` gives (per channel div255(channel · alpha)), in
    /// one pass and without building the mask (an alpha matte, every frame).
    package mutating func multiply(byAlphaOf matte: Pixmap) {
        precondition(
            matte.width == width && matte.height == height, "matte size differs from the pixmap")
        let w = width
        data.withUnsafeMutableBufferPointer { bytes in
            matte.data.withUnsafeBufferPointer { matteBytes in
                guard let px = bytes.baseAddress, let mp = matteBytes.baseAddress else { return }
                let pixels = UnsafeMutableRawPointer(px), alphas = UnsafeRawPointer(mp)
                let full = SIMD8<UInt32>(repeating: 255)
                for y in 0..<height {
                    // A stop request (Ctrl-C), polled every 64 rows, leaves the pixels
                    // partly multiplied; the frame is then discarded.
                    if y & 63 == 63 && RenderCancellation.shared.isCancelled { return }
                    let row = y * w * 4
                    var x = 0
                    // Eight pixels at a time: a matte is mostly runs of 0 or 255, which
                    // take one test each (and no multiply).
                    while x + 8 <= w {
                        let offset = row + x * 4
                        let a =
                            alphas.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt32>.self)
                            &>> 24
                        if a == .zero {
                            pixels.storeBytes(
                                of: .zero, toByteOffset: offset, as: SIMD8<UInt32>.self)
                        } else if a != full {
                            for half in 0..<2 {
                                let at = offset + 16 * half
                                let p = pixels.loadUnaligned(
                                    fromByteOffset: at, as: SIMD4<UInt32>.self)
                                let f = half == 0 ? a.lowHalf : a.highHalf
                                pixels.storeBytes(
                                    of: Compositing.scale4(p, Compositing.lanes(f)),
                                    toByteOffset: at, as: SIMD4<UInt32>.self)
                            }
                        }
                        x += 8
                    }
                    while x < w {
                        let offset = row + x * 4
                        let a = alphas.load(fromByteOffset: offset, as: UInt32.self) >> 24
                        if a != 255 {
                            let p = pixels.load(fromByteOffset: offset, as: UInt32.self)
                            pixels.storeBytes(
                                of: Compositing.scale(p, a), toByteOffset: offset, as: UInt32.self)
                        }
                        x += 1
                    }
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
