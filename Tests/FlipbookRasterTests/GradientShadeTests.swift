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
    func aUniformSpanIsThatColorInEveryPixel(kind: Gradient.Kind) {
        var r = Stream(seed: kind == .axial ? 7 : 11)
        var uniform = 0, spans = 0
        var out = [UInt32](repeating: 0, count: 400)
        for _ in 0..<300 {
            let g = Self.randomGradient(&r, kind: kind)
            for _ in 0..<20 {
                let x = Int(r.next() * 400) - 100, y = Int(r.next() * 300) - 50
                let count = 1 + Int(r.next() * 399)
                spans += 1
                guard let color = g.uniformColor(x: x, y: y, count: count) else { continue }
                uniform += 1
                out.withUnsafeMutableBufferPointer {
                    g.shade(x: x, y: y, count: count, into: $0.baseAddress!)
                }
                #expect(out[..<count].allSatisfy { $0 == color })
            }
        }
        // The shortcut is taken, not just never wrong: on more than a tenth of the spans.
        #expect(uniform * 10 > spans)
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
            guard let color = shifted.uniformColor(x: 0, y: 0, count: 32) else { continue }
            uniform += 1
            out.withUnsafeMutableBufferPointer {
                shifted.shade(x: 0, y: 0, count: 32, into: $0.baseAddress!)
            }
            #expect(out.allSatisfy { $0 == color })
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
