import FlipbookGeometry

/// Drawing onto a ``Pixmap``: path fills with any ``Paint``, whole-pixmap fills and
/// compositing another pixmap.
///
/// Rules:
/// - Everything is premultiplied source-over (see ``Compositing``), except
///   `fill(_ color:)` which replaces every pixel.
/// - A fill's coverage is multiplied by `opacity` and by the optional clip mask (which
///   must be on this pixmap's grid); work is bounded to the path's device box, the
///   pixmap and the mask's non-zero box.
/// - Opaque solid color at full coverage is stored directly (32-bit fill).
extension Pixmap {
    /// Fills `path` (mapped through `transform` into pixels) with `paint`.
    public mutating func fill(
        _ path: Path, transform: AffineTransform, rule: FillRule,
        paint: Paint, opacity: Double = 1, clip: Mask? = nil
    ) {
        let op = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        guard op > 0, width > 0, height > 0 else { return }
        var box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        if let clip {
            precondition(
                clip.width == width && clip.height == height,
                "clip mask size differs from the pixmap")
            box = box.intersection(clip.bounds)
        }
        guard !box.isEmpty,
            let area = Rasterizer.deviceBounds(of: path, transform: transform, within: box)
        else { return }
        let opacity255 = UInt32((op * 255).rounded())
        guard opacity255 > 0 else { return }
        let w = width
        data.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { pixels in
                let base = pixels.baseAddress!
                switch paint {
                case .solid(let color):
                    let c = color.clamped
                    let premul = Gradient.premultiplied(
                        Color(
                            red: c.red, green: c.green, blue: c.blue,
                            alpha: c.alpha * op))
                    guard premul >> 24 != 0 else { return }
                    var painter = SolidPainter(pixels: base, width: w, color: premul)
                    Rasterizer.rasterize(
                        path, transform: transform, rule: rule, area: area,
                        clip: clip, rows: writableRows, painter: &painter)
                case .gradient(let g):
                    var painter = ShaderPainter(
                        pixels: base, width: w, shader: g,
                        opacity: opacity255, scratchCount: area.width)
                    Rasterizer.rasterize(
                        path, transform: transform, rule: rule, area: area,
                        clip: clip, rows: writableRows, painter: &painter)
                case .image(let image):
                    if GeometryCaches.isEnabled,
                        let entry = ImageCache.current.entry(for: image, area: area)
                    {
                        var painter = CachedImagePainter(
                            pixels: base, width: w, entry: entry, opacity: opacity255)
                        Rasterizer.rasterize(
                            path, transform: transform, rule: rule, area: area,
                            clip: clip, rows: writableRows, painter: &painter)
                        return
                    }
                    var painter = ShaderPainter(
                        pixels: base, width: w, shader: image,
                        opacity: opacity255, scratchCount: area.width)
                    Rasterizer.rasterize(
                        path, transform: transform, rule: rule, area: area,
                        clip: clip, rows: writableRows, painter: &painter)
                }
            }
        }
    }

    /// Replaces every pixel with `color`.
    public mutating func fill(_ color: Color) {
        let value = Gradient.premultiplied(color)
        data.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { pixels in
                if let base = pixels.baseAddress {
                    Compositing.fill(base, count: pixels.count, color: value)
                }
            }
        }
    }

    /// Composites `source` over this pixmap with its top-left at (x, y), scaled by
    /// `opacity` and by `mask` (on this pixmap's grid). Parts outside are clipped.
    public mutating func draw(
        _ source: Pixmap, x: Int, y: Int, opacity: Double = 1, mask: Mask? = nil
    ) {
        let op = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        let opacity255 = UInt32((op * 255).rounded())
        guard opacity255 > 0 else { return }
        var box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
            .intersection(PixelBounds(x0: x, y0: y, x1: x + source.width, y1: y + source.height))
        if let mask {
            precondition(
                mask.width == width && mask.height == height, "mask size differs from the pixmap")
            box = box.intersection(mask.bounds)
        }
        if let rows = writableRows {
            box = box.intersection(
                PixelBounds(x0: box.x0, y0: rows.lowerBound, x1: box.x1, y1: rows.upperBound))
        }
        guard !box.isEmpty else { return }
        let (w, sw) = (width, source.width)
        let emptyMask: [UInt8] = []
        let maskData = mask?.data ?? emptyMask
        let hasMask = mask != nil
        var scratch = [UInt8](repeating: 0, count: box.width)
        data.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { dst in
                source.data.withUnsafeBufferPointer { sbytes in
                    sbytes.withMemoryRebound(to: UInt32.self) { src in
                        maskData.withUnsafeBufferPointer { m in
                            scratch.withUnsafeMutableBufferPointer { cov in
                                let count = box.width
                                let c = cov.baseAddress!
                                for row in box.y0..<box.y1 {
                                    // A stop request (Ctrl-C), polled every 64 rows, leaves the
                                    // composite unfinished; the frame is then discarded.
                                    if (row - box.y0) & 63 == 63
                                        && RenderCancellation.shared.isCancelled
                                    {
                                        return
                                    }
                                    let d = dst.baseAddress! + row * w + box.x0
                                    let s = src.baseAddress! + (row - y) * sw + (box.x0 - x)
                                    if !hasMask {
                                        Compositing.blend(d, s, count: count, coverage: opacity255)
                                        continue
                                    }
                                    let mrow = m.baseAddress! + row * w + box.x0
                                    if opacity255 == 255 {
                                        Compositing.blend(d, s, count: count, coverage: mrow)
                                    } else {
                                        for i in 0..<count {
                                            c[i] = UInt8(
                                                truncatingIfNeeded: Compositing.div255(
                                                    UInt32(mrow[i]) &* opacity255))
                                        }
                                        Compositing.blend(
                                            d, s, count: count, coverage: UnsafePointer(c))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
