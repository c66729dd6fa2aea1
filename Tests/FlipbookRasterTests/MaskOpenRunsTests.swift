import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// A mask made from a path knows, per row, a run of pixels it passes whole (`openRuns`):
/// every pixel there is exactly 255 (rectangles with fractional, integer and off-grid
/// edges, flipped, scaled and turned; ellipses), an axis-aligned rectangle's whole
/// interior is known, any change of the data drops the runs, and a clip through them
/// (rows handed on untouched, fills inside skipping the clip) paints the bytes the
/// per-pixel clip paints.
struct MaskOpenRunsTests {
    static let rects = [
        Rect(3.25, 4.5, 20.5, 11.75), Rect(2, 3, 17, 9), Rect(-5.5, -2.25, 19, 40),
        Rect(10.9, 10.1, 0.6, 7), Rect(0, 0, 32, 24),
    ]
    static let transforms = [
        AffineTransform.identity, .translation(0.375, -1.5), .scale(1.5, 0.75),
        AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 31, ty: 0),
        AffineTransform(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 4, ty: 2),
        AffineTransform(a: 0.5, b: -0.87, c: 0.87, d: 0.5, tx: 2, ty: 20),
    ]
    static let paths = rects.map { Path.rect($0) } + [Path.ellipse(in: Rect(1.5, 2.25, 27, 19))]

    static func run(_ m: Mask, _ y: Int) -> Range<Int> {
        let x0 = Int(m.openRuns[2 * y]), x1 = Int(m.openRuns[2 * y + 1])
        return x0..<max(x0, x1)
    }

    @Test func openRunPixelsAreFullyOpen() {
        var checked = 0
        for path in Self.paths {
            for t in Self.transforms {
                let m = Mask.path(path, transform: t, rule: .nonZero, width: 32, height: 24)
                guard !m.openRuns.isEmpty else { continue }
                for y in 0..<24 {
                    for x in Self.run(m, y) {
                        #expect(m.coverage(x: x, y: y) == 255, "\(path) \(t) at \(x),\(y)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 3000)
    }

    /// An axis-aligned rectangle's whole pixels are all in its runs (the interior
    /// [⌈minX⌉, ⌊maxX⌋) × [⌈minY⌉, ⌊maxY⌋)), so a clip to a layer's bounds skips nothing
    /// it could skip.
    @Test func rectangleInteriorIsKnown() {
        for r in Self.rects {
            for t in Self.transforms.prefix(4) {
                let m = Mask.path(.rect(r), transform: t, rule: .nonZero, width: 32, height: 24)
                let a = t.apply(Point(r.minX, r.minY)), b = t.apply(Point(r.maxX, r.maxY))
                let x0 = max(0, Int(min(a.x, b.x).rounded(.up))),
                    x1 = min(32, Int(max(a.x, b.x).rounded(.down)))
                let y0 = max(0, Int(min(a.y, b.y).rounded(.up))),
                    y1 = min(24, Int(max(a.y, b.y).rounded(.down)))
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    #expect(m.isOpen(row: y, from: x0, to: x1), "\(r) \(t) row \(y)")
                }
            }
        }
    }

    @Test func changesDropOrIntersectTheRuns() {
        let rotated = AffineTransform(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 4, ty: 2)
        #expect(
            Mask.path(
                .rect(Rect(2, 2, 20, 12)), transform: rotated, rule: .nonZero, width: 32, height: 24
            ).isOpen(row: 8, from: 10, to: 16))
        #expect(
            !Mask.path(
                .rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32,
                height: 24
            ).isOpen(row: 1, from: 4, to: 6))
        var m = Mask.path(
            .rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24)
        m.scale(by: 0.5)
        #expect(m.openRuns.isEmpty, "scaled coverage is no longer open")
        var a = Mask.path(
            .rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24)
        a.intersect(
            Mask.path(
                .rect(Rect(8.5, 0, 30, 9.5)), transform: .identity, rule: .nonZero, width: 32,
                height: 24))
        #expect(a.isOpen(PixelBounds(x0: 9, y0: 2, x1: 22, y1: 9)))
        #expect(!a.isOpen(PixelBounds(x0: 8, y0: 2, x1: 22, y1: 9)))
        #expect(!a.isOpen(PixelBounds(x0: 9, y0: 2, x1: 22, y1: 10)))
    }

    /// Fills through clips with their runs and with the runs dropped (the per-pixel path):
    /// the same bytes, for solid and translucent paints, for shapes inside the open part
    /// (the clip skipped), across its edge and outside it.
    @Test func clipThroughOpenRunsPaintsTheSameBytes() {
        let shapes = [
            Path.ellipse(in: Rect(1.5, 0.75, 29, 22.5)), Path.ellipse(in: Rect(12.5, 9.25, 5, 4)),
            Path.rect(Rect(14, 10, 3, 3)), Path.rect(Rect(0.5, 0.5, 6, 30)),
        ]
        var skipped = 0
        for path in Self.paths {
            for t in Self.transforms {
                let clip = Mask.path(path, transform: t, rule: .nonZero, width: 32, height: 24)
                var plain = clip
                plain.data = clip.data  // any change of the data drops the runs
                #expect(plain.openRuns.isEmpty)
                for shape in shapes {
                    if let area = Rasterizer.deviceBounds(
                        of: shape, transform: .identity,
                        within: PixelBounds(x0: 0, y0: 0, x1: 32, y1: 24)),
                        clip.isOpen(area)
                    {
                        skipped += 1
                    }
                    for color in [
                        Color(red: 0.2, green: 0.6, blue: 0.9),
                        Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.55),
                    ] {
                        var a = Pixmap(width: 32, height: 24), b = Pixmap(width: 32, height: 24)
                        a.fill(
                            shape, transform: .identity, rule: .nonZero, paint: .solid(color),
                            clip: clip)
                        b.fill(
                            shape, transform: .identity, rule: .nonZero, paint: .solid(color),
                            clip: plain)
                        #expect(a.data == b.data, "\(path) \(t) \(shape)")
                    }
                }
            }
        }
        #expect(skipped > 5, "some fills lie wholly in the open part")
    }
}
