import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// Blur radii, gradients and curves from hostile numbers: bounded work, no trap, and the
/// bytes of ordinary inputs unchanged.
@Suite struct HostileNumberRasterTests {
    /// A 48×40 mask with a filled ellipse and a soft-edged bar: varied coverage.
    static func sample(width: Int = 48, height: Int = 40) -> Mask {
        var path = Path.ellipse(in: Rect(6, 5, 20, 14))
        path.elements += Path.rect(Rect(20.5, 22.25, 17, 6.5)).elements
        return Mask.path(path, transform: .identity, rule: .nonZero, width: width, height: height)
    }

    static func region(_ m: Mask, _ rx: [Int], _ ry: [Int]) -> PixelBounds {
        let (x, y) = (rx.reduce(0, +), ry.reduce(0, +))
        return PixelBounds(
            x0: m.bounds.x0 - x, y0: m.bounds.y0 - y, x1: m.bounds.x1 + x, y1: m.bounds.y1 + y)
    }

    /// The prefix-sum path (large radii) against the running sums (every radius that fits
    /// in memory) on the same boxes: the same three-box filter, so within one level.
    @Test(arguments: [
        (0.7, 0.7, 0, 0), (3, 3, 2, -1), (9.5, 2, 0, 0), (25, 25, 7, 5), (60, 0, -3, 0),
        (0, 140, 0, 9),
    ])
    func prefixSumsAgreeWithRunningSums(_ sx: Double, _ sy: Double, _ dx: Int, _ dy: Int) {
        let mask = Self.sample()
        let rx = sx > 0.2 ? Mask.boxRadii(sigma: sx) : [],
            ry = sy > 0.2 ? Mask.boxRadii(sigma: sy) : []
        let region = Self.region(mask, rx, ry)
        let running = mask.blurredByRunningSums(
            radiiX: rx, radiiY: ry, region: region, dx: dx, dy: dy)
        let prefix = mask.blurredByPrefixSums(
            radiiX: rx, radiiY: ry, region: region, dx: dx, dy: dy)
        let worst = zip(running.data, prefix.data).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "σ (\(sx), \(sy)): \(worst) levels apart")
        #expect(running.data.contains { $0 > 0 })
    }

    /// A softness of 1e4…1e308 on a 100×100 surface: the exact blur is under a quarter
    /// level everywhere (checked here by the running sums where they fit), so the result
    /// is empty, found without the 360 GB buffer the radius asked for or a trap on its size.
    @Test func hugeRadiiGiveTheEmptyMaskTheRunningSumsGive() {
        let mask = Self.sample(width: 100, height: 100)
        // σ = 400 still fits the running sums (a 2,440² region): all zero there too.
        let rx = Mask.boxRadii(sigma: 400)
        let reference = mask.blurredByRunningSums(
            radiiX: rx, radiiY: rx, region: Self.region(mask, rx, rx), dx: 0, dy: 0)
        #expect(reference.bounds.isEmpty)
        #expect(
            Mask.vanishes(
                sum: mask.coverageSum, Mask.firstBoxWidth(sigma: 400),
                Mask.firstBoxWidth(sigma: 400)))
        // Below that σ the blur shows: the rule does not empty what the running sums fill.
        #expect(!mask.blurred(sigma: 150).bounds.isEmpty)
        for sigma in [400, 1e4, 3e4, 1e5, 1e308, .infinity] {
            #expect(mask.blurred(sigma: sigma, dx: 3, dy: -2).bounds.isEmpty, "σ \(sigma)")
        }
        #expect(mask.blurred(sigma: .nan).data == mask.data)
    }

    /// A σ large for the surface but not vanishing (a wide blur along x only): computed by
    /// prefix sums in the grid's memory, within a level of the running sums' 12,000 px region.
    @Test func largeRadiusStaysOnTheGrid() {
        let mask = Self.sample(width: 64, height: 40)
        let rx = Mask.boxRadii(sigma: 2_000)
        let region = Self.region(mask, rx, [])
        #expect(Double(region.width * region.height) > 4 * 65_536)  // the prefix-sum path
        let out = mask.blurredSeparable(sigmaX: 2_000, sigmaY: 0)
        let reference = mask.blurredByRunningSums(
            radiiX: rx, radiiY: [], region: region, dx: 0, dy: 0)
        let worst = zip(out.data, reference.data).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
        #expect(out.data.contains { $0 > 0 })
    }

    /// Gradient tables built in one pass equal the stop-by-stop interpolation at every
    /// entry, hard stops included; 1,000,000 stops build in a pass where the scan from the
    /// first stop per entry made 5·10⁸ steps.
    @Test func gradientTableInOnePass() {
        var colors: [Color] = [], locations: [Double] = []
        let n = 1_000_000
        for i in 0..<n {
            colors.append(
                Color(
                    red: Double(i % 7) / 7, green: Double(i % 5) / 5, blue: Double(i % 3) / 3,
                    alpha: i % 11 == 0 ? 0.5 : 1))
            locations.append(Double(i / 2 * 2) / Double(n))  // pairs at one place: hard stops
        }
        let clock = ContinuousClock()
        let start = clock.now
        let (table, _) = Gradient.buildTable(colors, locations)
        // A hang guard, not a speed measurement (that is the benchmarks' job): generous enough
        // for a debug build on a loaded CI machine, far below the scan's 5·10⁸ steps per table.
        #expect(clock.now - start < .seconds(30))
        let (lo, hi) = (locations[0], locations[locations.count - 1])
        for i in stride(from: 0, to: Gradient.tableSize, by: 7) {
            let t = lo + (hi - lo) * Double(i) / Double(Gradient.tableSize - 1)
            #expect(
                table[i] == Gradient.premultiplied(Gradient.interpolate(colors, locations, t)),
                "entry \(i)")
        }
    }

    /// A gradient whose transform holds NaN (inf − inf from a hostile scale) shades with
    /// its first color instead of trapping on the table index.
    @Test(arguments: [Gradient.Kind.axial, .radial, .focal(x: 0.2, y: 0)])
    func notANumberParameterShadesTheFirstColor(_ kind: Gradient.Kind) {
        let g = Gradient(
            kind: kind,
            colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)],
            locations: nil,
            transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: .infinity, ty: 0))
        var p = Pixmap(width: 8, height: 8)
        p.fill(.rect(Rect(0, 0, 8, 8)), transform: .identity, rule: .nonZero, paint: .gradient(g))
        #expect(Array(p.data[0..<4]) == [255, 0, 0, 255])
    }

    /// A curve 1e20 px long asks for more chords than Int holds: capped, not trapped.
    @Test func hugeCurveFlattensWithinTheChordCap() {
        #expect(
            PathFlattener.chordCount(1e40, 0.75, Rasterizer.tolerance) == PathFlattener.maxChords)
        var path = Path()
        path.move(to: Point(0, 0))
        path.cubic(to: Point(8, 8), control1: Point(1e20, -1e20), control2: Point(-1e20, 1e20))
        path.close()
        var p = Pixmap(width: 8, height: 8)
        p.fill(path, transform: .identity, rule: .nonZero, paint: .solid(.black))
        #expect(p.width == 8)
    }

    /// Image contents translated by a whole 1e20 px or infinity: the integer fast path
    /// would convert them to Int; the general path clamps.
    @Test(arguments: [1e20, -1e300, .infinity])
    func imageTranslatedAbsurdlyFar(_ offset: Double) {
        let image = Pixmap(width: 2, height: 2, filledWithPremultiplied: 0xFF00_00FF)
        let pattern = ImagePattern(image: image, transform: .translation(offset, offset))
        var p = Pixmap(width: 4, height: 4)
        p.fill(
            .rect(Rect(0, 0, 4, 4)), transform: .identity, rule: .nonZero, paint: .image(pattern))
        #expect(p.width == 4)
    }
}
