/// The consumers of the rasterizer's output: spans of one row, painted onto pixmap
/// pixels (solid color or shaded source) or written into a mask.
///
/// Rules: a span either has one coverage for all its pixels (`coverage >= 0`, so long
/// interior runs are painted with span-wide fast paths) or refers to per-pixel values in
/// the row's coverage buffer; painters never see pixels outside the spans, and they are
/// specialized generics (no dynamic dispatch per span or pixel).

/// A run of pixels in one row: `coverage >= 0` is one coverage for the whole run,
/// `coverage < 0` means per-pixel values in the row's coverage buffer.
struct Span {
    var x: Int
    var count: Int
    var coverage: Int
}

/// Consumes the rasterizer's output row by row.
protocol SpanPainter {
    /// `coverage[x - originX]` holds per-pixel values for variable spans.
    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int)
}

/// Paints spans with one premultiplied color.
struct SolidPainter: SpanPainter {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let color: UInt32

    init(pixels: UnsafeMutablePointer<UInt32>, width: Int, color: UInt32) {
        self.pixels = pixels; self.width = width; self.color = color
    }

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        let row = pixels + y * width
        for s in spans {
            if s.coverage >= 0 {
                Compositing.blendSolid(
                    row + s.x, count: s.count, color: color, coverage: UInt32(s.coverage))
            } else {
                Compositing.blendSolid(
                    row + s.x, count: s.count, color: color,
                    coverage: coverage + (s.x - originX))
            }
        }
    }
}

/// Paints spans with pixels from a gradient or image, shaded one span at a time.
struct ShaderPainter<Shader: SpanShader>: SpanPainter {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let shader: Shader
    let opacity: UInt32
    var scratch: [UInt32]

    init(
        pixels: UnsafeMutablePointer<UInt32>, width: Int, shader: Shader, opacity: UInt32,
        scratchCount: Int
    ) {
        self.pixels = pixels; self.width = width; self.shader = shader; self.opacity = opacity
        scratch = [UInt32](repeating: 0, count: max(scratchCount, 1))
    }

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        let row = pixels + y * width
        let (shader, opacity) = (self.shader, self.opacity)
        scratch.withUnsafeMutableBufferPointer { buf in
            let tmp = buf.baseAddress!
            for s in spans {
                let dst = row + s.x
                // One color for the whole span: blended as a solid color, which gives the
                // same bytes as blending that color shaded pixel by pixel; a transparent
                // one changes nothing.
                let uniform = shader.uniformColor(x: s.x, y: y, count: s.count)
                if uniform == 0 { continue }
                if s.coverage >= 0 {
                    let c =
                        opacity == 255
                        ? UInt32(s.coverage) : Compositing.div255(UInt32(s.coverage) * opacity)
                    if c == 0 { continue }
                    if let uniform {
                        Compositing.blendSolid(dst, count: s.count, color: uniform, coverage: c)
                        continue
                    }
                    if c == 255 && shader.shadesOpaque {
                        shader.shade(x: s.x, y: y, count: s.count, into: dst)
                        continue
                    }
                    shader.shade(x: s.x, y: y, count: s.count, into: tmp)
                    Compositing.blend(dst, tmp, count: s.count, coverage: c)
                } else {
                    let cov = coverage + (s.x - originX)
                    if opacity != 255 {
                        for i in 0..<s.count {
                            cov[i] = UInt8(Compositing.div255(UInt32(cov[i]) * opacity))
                        }
                    }
                    if let uniform {
                        Compositing.blendSolid(
                            dst, count: s.count, color: uniform, coverage: UnsafePointer(cov))
                        continue
                    }
                    shader.shade(x: s.x, y: y, count: s.count, into: tmp)
                    Compositing.blend(dst, tmp, count: s.count, coverage: UnsafePointer(cov))
                }
            }
        }
    }
}

/// Writes rasterized coverage into mask bytes and records where it wrote, and per row the
/// longest run it wrote as exactly 255 (see ``Mask/openRuns``).
struct MaskPainter: SpanPainter {
    let width: Int
    var data: UnsafeMutablePointer<UInt8>? = nil
    /// Two entries per row of the mask, zero-initialised (an empty run).
    var runs: UnsafeMutablePointer<Int32>? = nil
    var written = PixelBounds.empty
    var foundRun = false

    init(width: Int) { self.width = width }

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        guard let data else { return }
        let row = data + y * width
        var lo = Int.max, hi = Int.min
        var openX = 0, openEnd = 0
        for s in spans {
            if s.coverage >= 0 {
                (row + s.x).update(repeating: UInt8(s.coverage), count: s.count)
                if s.coverage == 0 { continue }
                lo = min(lo, s.x); hi = max(hi, s.x + s.count)
                if s.coverage == 255, s.count > openEnd - openX {
                    (openX, openEnd) = (s.x, s.x + s.count)
                }
            } else {
                for x in s.x..<(s.x + s.count) {
                    let c = coverage[x - originX]
                    row[x] = c
                    if c != 0 { lo = min(lo, x); hi = max(hi, x + 1) }
                }
            }
        }
        if lo < hi { written = written.union(PixelBounds(x0: lo, y0: y, x1: hi, y1: y + 1)) }
        guard let runs, openEnd > openX else { return }
        // Edge pixels that came out whole (a pixel-aligned edge) belong to the run too.
        while openX > lo && row[openX - 1] == 255 { openX -= 1 }
        while openEnd < hi && row[openEnd] == 255 { openEnd += 1 }
        runs[2 * y] = Int32(openX)
        runs[2 * y + 1] = Int32(openEnd)
        foundRun = true
    }
}
