import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// A rectangle's mask knows the box of pixels it passes whole (`openBox`): every pixel
/// there is exactly 255 (fractional, integer and off-grid edges, flipped and scaled
/// transforms), rotated or non-rectangular paths know none, any change of the data drops
/// it, and a clip through it paints the bytes the per-pixel clip paints.
struct MaskOpenBoxTests {
    static let rects = [Rect(3.25, 4.5, 20.5, 11.75), Rect(2, 3, 17, 9), Rect(-5.5, -2.25, 19, 40),
                        Rect(10.9, 10.1, 0.6, 7), Rect(0, 0, 32, 24)]
    static let transforms = [AffineTransform.identity, .translation(0.375, -1.5), .scale(1.5, 0.75),
                             AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 31, ty: 0)]

    @Test func openBoxPixelsAreFullyOpen() {
        var checked = 0
        for r in Self.rects {
            for t in Self.transforms {
                let m = Mask.path(.rect(r), transform: t, rule: .nonZero, width: 32, height: 24)
                let box = m.openBox
                for y in box.y0..<max(box.y0, box.y1) {
                    for x in box.x0..<max(box.x0, box.x1) {
                        #expect(m.coverage(x: x, y: y) == 255, "\(r) \(t) at \(x),\(y)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test func onlyAxisAlignedRectanglesHaveOne() {
        let rotated = AffineTransform(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 4, ty: 2)
        #expect(Mask.path(.rect(Rect(2, 2, 20, 12)), transform: rotated, rule: .nonZero, width: 32, height: 24).openBox.isEmpty)
        #expect(Mask.path(.ellipse(in: Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24).openBox.isEmpty)
        #expect(!Mask.path(.rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24).openBox.isEmpty)
        var m = Mask.path(.rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24)
        m.scale(by: 0.5)
        #expect(m.openBox.isEmpty, "scaled coverage is no longer open")
        var a = Mask.path(.rect(Rect(2, 2, 20, 12)), transform: .identity, rule: .nonZero, width: 32, height: 24)
        a.intersect(Mask.path(.rect(Rect(8.5, 0, 30, 9.5)), transform: .identity, rule: .nonZero, width: 32, height: 24))
        #expect(a.openBox == PixelBounds(x0: 9, y0: 2, x1: 22, y1: 9))
    }

    /// Fills through a rectangle clip with its open box and with the box dropped (the
    /// per-pixel path): the same bytes, for solid and translucent paints.
    @Test func clipThroughOpenBoxPaintsTheSameBytes() {
        for r in Self.rects {
            let clip = Mask.path(.rect(r), transform: .identity, rule: .nonZero, width: 32, height: 24)
            var plain = clip
            plain.data = clip.data   // any change of the data drops the box
            #expect(plain.openBox.isEmpty && !clip.openBox.isEmpty || clip.openBox.isEmpty)
            for color in [Color(red: 0.2, green: 0.6, blue: 0.9), Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.55)] {
                var a = Pixmap(width: 32, height: 24), b = Pixmap(width: 32, height: 24)
                let shape = Path.ellipse(in: Rect(1.5, 0.75, 29, 22.5))
                a.fill(shape, transform: .identity, rule: .nonZero, paint: .solid(color), clip: clip)
                b.fill(shape, transform: .identity, rule: .nonZero, paint: .solid(color), clip: plain)
                #expect(a.data == b.data, "\(r)")
            }
        }
    }
}
