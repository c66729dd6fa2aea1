import FlipbookGeometry
import Testing

@testable import FlipbookRaster

#if canImport(Glibc)
    import Glibc
#endif

/// The gradient shader's shortcuts (Gradient+Shade.swift) skip work and must never change
/// a pixel: a span reported as one color is that color in every pixel ``shade`` writes,
/// and the radial end bounds are where the table's ends really begin.
struct GradientShadeTests {
    /// A deterministic stream of doubles in 0..<1.
    struct Stream {
        var seed: UInt64
        mutating func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
    }

    /// A gradient whose stops lie inside 0.2…0.8 (so both ends of the table are clamped
    /// regions, as in most Lottie gradients), the last stop transparent half the time,
    /// under a random scale, turn and offset from device pixels to gradient space.
    static func randomGradient(_ r: inout Stream, kind: Gradient.Kind) -> Gradient {
        let n = 2 + Int(r.next() * 3)  // 2…4 stops
        let colors = (0..<n).map { i in
            Color(
                red: r.next(), green: r.next(), blue: r.next(),
                alpha: i == n - 1 && r.next() < 0.5 ? 0 : 1)
        }
        var locations = (0..<n).map { _ in 0.2 + 0.6 * r.next() }.sorted()
        // Half the time (with four stops) a hard stop at each end, so that the clamped
        // entries differ from their neighbours and a pixel given the wrong one shows.
        if n == 4 && r.next() < 0.5 { (locations[1], locations[2]) = (locations[0], locations[3]) }
        let k = 1 / (20 + 200 * r.next()), angle = r.next() * 2 * .pi
        let transform = AffineTransform(
            a: k * cos(angle), b: k * sin(angle), c: -k * sin(angle), d: k * cos(angle),
            tx: -k * 150 * r.next(), ty: -k * 150 * r.next())
        return Gradient(kind: kind, colors: colors, locations: locations, transform: transform)
    }

    @Test(arguments: [Gradient.Kind.axial, .radial])
    func aUniformRunIsThatColorInEveryPixel(kind: Gradient.Kind) {
        var r = Stream(seed: kind == .axial ? 7 : 11)
        var whole = 0, partial = 0, spans = 0
        var out = [UInt32](repeating: 0, count: 400)
        for _ in 0..<300 {
            let g = Self.randomGradient(&r, kind: kind)
            for _ in 0..<20 {
                let x = Int(r.next() * 400) - 100, y = Int(r.next() * 300) - 50
                let count = 1 + Int(r.next() * 399)
                spans += 1
                guard let run = g.uniformRun(x: x, y: y, count: count) else { continue }
                #expect(run.start >= 0 && run.count > 0 && run.end <= count)
                if run.count == count { whole += 1 } else { partial += 1 }
                out.withUnsafeMutableBufferPointer {
                    g.shade(x: x, y: y, count: count, into: $0.baseAddress!)
                }
                #expect(out[run.start..<run.end].allSatisfy { $0 == run.color })
            }
        }
        // The shortcut is taken, not just never wrong: whole spans on more than a tenth,
        // and (radial) runs inside the first radius within longer spans on over 1/20.
        #expect(whole * 10 > spans)
        if kind == .radial { #expect(partial * 20 > spans) }
    }

    /// A radial or focal pixel's entry does not depend on where its span starts: the
    /// painter shades the pixels either side of a uniform run as spans of their own.
    @Test(arguments: [Gradient.Kind.radial, .focal(x: 0.3, y: -0.2)])
    func aSpanShadedInPiecesIsTheSpanShadedWhole(kind: Gradient.Kind) {
        var r = Stream(seed: 19)
        var whole = [UInt32](repeating: 0, count: 400)
        var pieces = [UInt32](repeating: 0, count: 400)
        for _ in 0..<2000 {
            let g = Self.randomGradient(&r, kind: kind)
            let x = Int(r.next() * 400) - 100, y = Int(r.next() * 300) - 50
            let count = 2 + Int(r.next() * 398)
            let cut = 1 + Int(r.next() * Double(count - 1))
            whole.withUnsafeMutableBufferPointer {
                g.shade(x: x, y: y, count: count, into: $0.baseAddress!)
            }
            pieces.withUnsafeMutableBufferPointer {
                g.shade(x: x, y: y, count: cut, into: $0.baseAddress!)
                g.shade(x: x + cut, y: y, count: count - cut, into: $0.baseAddress! + cut)
            }
            #expect(whole[..<count] == pieces[..<count])
        }
    }

    /// A gradient without its shortcut: the painter shades every pixel of every span.
    struct Unshortened: SpanShader {
        let gradient: Gradient
        var shadesOpaque: Bool { gradient.shadesOpaque }
        func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
            gradient.shade(x: x, y: y, count: count, into: out)
        }
    }

    /// The painter's uniform runs (blended as a solid color, the pixels either side shaded
    /// as spans of their own) give the bytes of shading every pixel: under constant and
    /// per-pixel coverage, at full and partial opacity, over translucent pixels.
    @Test func thePainterSplitsSpansWithoutChangingAPixel() {
        var r = Stream(seed: 23)
        let width = 300
        var partialRuns = 0
        for trial in 0..<300 {
            let g = Self.randomGradient(&r, kind: .radial)
            var spans: [Span] = []
            var coverage = [UInt8](repeating: 0, count: width)
            var x = 0
            while x < width {
                let count = min(1 + Int(r.next() * 150), width - x)
                if r.next() < 0.4 {
                    for i in x..<(x + count) { coverage[i] = UInt8(r.next() * 256) }
                    spans.append(Span(x: x, count: count, coverage: -1))
                } else {
                    spans.append(Span(x: x, count: count, coverage: [255, 255, 90][trial % 3]))
                }
                if let run = g.uniformRun(x: x, y: 0, count: count), run.count < count,
                    run.count >= ShaderPainter<Gradient>.shortestSolidPiece
                {
                    partialRuns += 1
                }
                x += count
            }
            let background = (0..<width).map { _ -> UInt32 in
                let a = UInt32(r.next() * 256), c = UInt32(r.next() * Double(a + 1))
                return a << 24 | c << 16 | (a - c) << 8 | c
            }
            let opacity: UInt32 = trial % 4 == 0 ? 160 : 255
            func paint<S: SpanShader>(_ shader: S) -> [UInt32] {
                var pixels = background, cov = coverage
                pixels.withUnsafeMutableBufferPointer { px in
                    spans.withUnsafeBufferPointer { sp in
                        cov.withUnsafeMutableBufferPointer { cv in
                            var painter = ShaderPainter(
                                pixels: px.baseAddress!, width: width, shader: shader,
                                opacity: opacity, scratchCount: width)
                            painter.paintRow(
                                y: 0, spans: sp, coverage: cv.baseAddress!, originX: 0)
                        }
                    }
                }
                return pixels
            }
            #expect(paint(g) == paint(Unshortened(gradient: g)))
        }
        // The split is taken (the test would prove nothing otherwise).
        #expect(partialRuns > 40)
    }

    /// Spans that end a hair inside or outside the first stop's radius, a hard stop there
    /// (black inside, white beyond): the shortcut may decline them, but what it reports
    /// must be what `shade` writes.
    @Test func spansAtTheFirstRadiusKeepTheirPixels() {
        var out = [UInt32](repeating: 0, count: 32)
        var uniform = 0
        let g = Gradient(
            kind: .radial, colors: [.black, .white, .clear], locations: [0.3, 0.3, 0.7],
            transform: AffineTransform(a: 0.01, b: 0, c: 0, d: 0.01, tx: 0, ty: -0.005))
        let edge = g.radialEnds.first.squareRoot()
        for step in -40...40 {
            // Gradient space is device space scaled by 1/100, moved so that row 0 has v = 0:
            // the 32-pixel span from x = 0 runs from u = tx + 0.005 to its end at
            // u = tx + 0.315, placed at the first radius ± a few ulps.
            let tx = edge - 0.315 + Double(step) * 1e-15
            let shifted = Gradient(
                kind: .radial, colors: [.black, .white, .clear], locations: [0.3, 0.3, 0.7],
                transform: AffineTransform(a: 0.01, b: 0, c: 0, d: 0.01, tx: tx, ty: -0.005))
            guard let run = shifted.uniformRun(x: 0, y: 0, count: 32) else { continue }
            uniform += 1
            out.withUnsafeMutableBufferPointer {
                shifted.shade(x: 0, y: 0, count: 32, into: $0.baseAddress!)
            }
            #expect(out[run.start..<run.end].allSatisfy { $0 == run.color })
        }
        #expect(uniform > 0)
    }

    /// The bounds are confirmed table ends, and they sit where the index changes (within a
    /// millionth), so the shortcut covers the clamped regions all but entirely.
    @Test func radialEndsAreTheTableEnds() {
        var r = Stream(seed: 3)
        let top = Gradient.tableSize - 1
        for _ in 0..<500 {
            let origin = r.next(), scale = Double(top) / (0.01 + r.next())
            let (first, last) = Gradient.radialEnds(origin: origin, scale: scale)
            #expect(Gradient.radialIndex(first, origin: origin, scale: scale) == 0)
            #expect(Gradient.radialIndex(last, origin: origin, scale: scale) == top)
            let t0 = origin + 0.5 / scale, t1 = origin + (Double(top) - 0.5) / scale
            #expect(abs(first.squareRoot() - t0) <= 1e-6 * t0)
            #expect(abs(last.squareRoot() - t1) <= 1e-6 * t1)
        }
    }
}
