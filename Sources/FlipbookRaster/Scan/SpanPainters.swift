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
    /// Where shaded pixels wait to be blended. A class rather than an array, so that a
    /// row reaches it without a closure, and so without copying `shader` (a gradient's
    /// table reference retained and released every row).
    private let shaded: ShadedRow

    init(
        pixels: UnsafeMutablePointer<UInt32>, width: Int, shader: Shader, opacity: UInt32,
        scratchCount: Int
    ) {
        self.pixels = pixels; self.width = width; self.shader = shader; self.opacity = opacity
        shaded = ShadedRow(count: scratchCount)
    }

    /// Runs of one color shorter than this are shaded with the rest of their span: two
    /// more calls cost more than they save.
    static var shortestSolidPiece: Int { 8 }

    /// Spans shorter than this are shaded without looking for such a run (the anti-aliased
    /// pixels of an edge, most spans of a gradient fill): shading them costs less than the
    /// look (a radial one solves for where the span meets the first stop's circle), and
    /// gives the same bytes.
    static var shortestProbedSpan: Int { 4 }

    mutating func paintRow(
        y: Int, spans: UnsafeBufferPointer<Span>,
        coverage: UnsafeMutablePointer<UInt8>, originX: Int
    ) {
        let row = pixels + y * width
        for s in spans {
            let cover: SpanCoverage
            if s.coverage >= 0 {
                let c =
                    opacity == 255
                    ? UInt32(s.coverage) : Compositing.div255(UInt32(s.coverage) * opacity)
                if c == 0 { continue }
                cover = .constant(c)
            } else {
                let cov = coverage + (s.x - originX)
                if opacity != 255 {
                    for i in 0..<s.count {
                        cov[i] = UInt8(Compositing.div255(UInt32(cov[i]) * opacity))
                    }
                }
                cover = .perPixel(cov)
            }
            // Pixels of one color are blended as a solid color, which gives the same bytes
            // as blending that color shaded pixel by pixel; a transparent one changes
            // nothing. The pixels either side are shaded as spans of their own.
            var run =
                s.count < Self.shortestProbedSpan
                ? nil : shader.uniformRun(x: s.x, y: y, count: s.count)
            if let r = run, r.count < s.count, r.count < Self.shortestSolidPiece { run = nil }
            guard let run else {
                paintShaded(row, x: s.x, y: y, count: s.count, coverage: cover)
                continue
            }
            paintShaded(row, x: s.x, y: y, count: run.start, coverage: cover)
            if run.color != 0 {
                let dst = row + s.x + run.start
                switch cover.advanced(by: run.start) {
                case .constant(let c):
                    Compositing.blendSolid(dst, count: run.count, color: run.color, coverage: c)
                case .perPixel(let cov):
                    Compositing.blendSolid(
                        dst, count: run.count, color: run.color, coverage: UnsafePointer(cov))
                }
            }
            paintShaded(
                row, x: s.x + run.end, y: y, count: s.count - run.end,
                coverage: cover.advanced(by: run.end))
        }
    }

    /// A span's coverage, scaled by the painter's opacity: one value, or per pixel
    /// (`[0]` for the span's first pixel).
    private enum SpanCoverage {
        case constant(UInt32)
        case perPixel(UnsafeMutablePointer<UInt8>)

        /// The coverage of the pixels from the `n`-th on.
        @inline(__always)
        func advanced(by n: Int) -> SpanCoverage {
            if case .perPixel(let cov) = self { return .perPixel(cov + n) }
            return self
        }
    }

    /// Shades `count` pixels from (x, y) and blends them at `coverage`: straight into the
    /// row when they are opaque and fully covered.
    @inline(__always)
    private func paintShaded(
        _ row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: SpanCoverage
    ) {
        guard count > 0 else { return }
        switch coverage {
        case .constant(let c):
            if c == 255 && shader.shadesOpaque {
                shader.shade(x: x, y: y, count: count, into: row + x)
                return
            }
            shader.shade(x: x, y: y, count: count, into: shaded.pixels)
            Compositing.blend(row + x, shaded.pixels, count: count, coverage: c)
        case .perPixel(let cov):
            shader.shade(x: x, y: y, count: count, into: shaded.pixels)
            Compositing.blend(row + x, shaded.pixels, count: count, coverage: UnsafePointer(cov))
        }
    }
}

/// One row of shaded pixels: heap memory freed with the last painter holding it.
final class ShadedRow {
    let pixels: UnsafeMutablePointer<UInt32>

    init(count: Int) {
        pixels = .allocate(capacity: max(count, 1))
        pixels.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { pixels.deallocate() }
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
