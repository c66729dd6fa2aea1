import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// The sweep sums each row's cells by x, newest first among cells at one x: the order it
/// has always taken them in (a row's cells walked newest first and sorted stably by x), so
/// every coverage sum is the same and no output byte moves. Each row's list must run
/// newest first, and the sweep's coverage must be those sums, whether a row's touched x's
/// lie in one word of the sweep's row of bits or across several. Checked on random paths
/// that cross the work box's sides and revisit cells (tiny contours, several contours over
/// one area), in narrow boxes (rows in one word) and wide ones (rows across words).
struct CellOrderTests {
    /// Knuth's MMIX linear congruential generator, high bits first: a fixed sequence per
    /// seed (a failing case can be run again), plenty for random test shapes.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let high = state >> 32
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return high << 32 | state >> 32
        }
    }

    /// Per-pixel coverage handed over by a sweep, by row.
    struct GridPainter: SpanPainter {
        let x0: Int, y0: Int, width: Int
        var grid: [[Int]]

        mutating func paintRow(
            y: Int, spans: UnsafeBufferPointer<Span>,
            coverage: UnsafeMutablePointer<UInt8>, originX: Int
        ) {
            for s in spans {
                for x in s.x..<(s.x + s.count) {
                    grid[y - y0][x - x0] = s.coverage >= 0 ? s.coverage : Int(coverage[x - originX])
                }
            }
        }
    }

    static func randomPath(_ rng: inout Generator, box: PixelBounds) -> Path {
        var path = Path()
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            // Some contours are smaller than a pixel or two: their cells repeat at one x.
            let spread = Bool.random(using: &rng) ? 1.5 : Double(box.width + 12)
            let cx = Double.random(in: Double(box.x0 - 6)...Double(box.x1 + 6), using: &rng)
            let cy = Double.random(in: Double(box.y0 - 6)...Double(box.y1 + 6), using: &rng)
            func point(_ rng: inout Generator) -> Point {
                Point(
                    cx + Double.random(in: -spread...spread, using: &rng),
                    cy + Double.random(in: -spread...spread, using: &rng))
            }
            path.move(to: point(&rng))
            for _ in 0..<Int.random(in: 2...12, using: &rng) {
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let (c1, c2, p) = (point(&rng), point(&rng), point(&rng))
                    path.cubic(to: p, control1: c1, control2: c2)
                } else {
                    path.line(to: point(&rng))
                }
            }
            path.close()
        }
        return path
    }

    /// How many rows of each kind a seed's path gave: touched x's within one 64-pixel word
    /// of the row of bits, or across several.
    @discardableResult
    static func check(seed: Int) -> (oneWord: Int, severalWords: Int) {
        var rng = Generator(state: UInt64(seed))
        let x0 = Int.random(in: -20...20, using: &rng), y0 = Int.random(in: -20...20, using: &rng)
        // Half the boxes wide, where rows of a few small contours lie far apart.
        let width =
            seed % 2 == 0
            ? Int.random(in: 1...40, using: &rng) : Int.random(in: 150...400, using: &rng)
        let box = PixelBounds(
            x0: x0, y0: y0, x1: x0 + width, y1: y0 + Int.random(in: 1...40, using: &rng))
        let path = Self.randomPath(&rng, box: box)
        let rule: FillRule = Bool.random(using: &rng) ? .nonZero : .evenOdd
        return check(path, box: box, rule: rule)
    }

    /// Checks one fill as the type's comment says.
    @discardableResult
    static func check(
        _ path: Path, box: PixelBounds, rule: FillRule
    ) -> (oneWord: Int, severalWords: Int) {
        let scratch = RasterScratch.acquire()
        defer { scratch.release() }
        var acc = CoverageAccumulator(
            x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1, scratch: scratch)
        PathFlattener.flatten(
            path, transform: .identity, tolerance: Rasterizer.tolerance, cull: acc.cullBox,
            into: &acc)

        var listed = Set<Int>()
        var kinds = (oneWord: 0, severalWords: 0)
        var expected = [[Int]](
            repeating: [Int](repeating: 0, count: box.width), count: box.height)
        for y in box.y0..<box.y1 {
            let list = acc.rowList(y)
            for i in list { #expect(listed.insert(i).inserted, "cell \(i) listed twice") }
            #expect(list.allSatisfy { (box.x0..<box.x1).contains(Int(acc.cell($0).x)) })
            #expect(list == list.sorted(by: >), "row \(y) not newest first")
            // The order sums are taken in: newest first, then by x keeping that order.
            let former = list.sorted {
                (acc.cell($0).x, -$0) < (acc.cell($1).x, -$1)
            }
            let xs = Set(list.map { Int(acc.cell($0).x) })
            if let lo = xs.min(), let hi = xs.max() {
                if (lo - box.x0) >> 6 == (hi - box.x0) >> 6 {
                    kinds.oneWord += 1
                } else {
                    kinds.severalWords += 1
                }
            }
            // The former sweep's sums over that order, pixel by pixel.
            var winding: Float = 0
            var k = 0
            var x = box.x0
            while x < box.x1 {
                var area: Float = 0, cover: Float = 0, first = true
                while k < former.count && Int(acc.cell(former[k]).x) == x {
                    let c = acc.cell(former[k])
                    if first {
                        (area, cover, first) = (c.area, c.cover, false)
                    } else {
                        area += c.area; cover += c.cover
                    }
                    k += 1
                }
                expected[y - box.y0][x - box.x0] = CoverageAccumulator.coverage(
                    winding + area, rule)
                winding += cover
                x += 1
            }
        }
        #expect(listed.count == acc.count)

        var painter = GridPainter(
            x0: box.x0, y0: box.y0, width: box.width,
            grid: [[Int]](repeating: [Int](repeating: 0, count: box.width), count: box.height))
        acc.sweep(rule: rule, painter: &painter)
        #expect(painter.grid == expected)
        return kinds
    }

    @Test(arguments: 0..<60)
    func rowsAreSweptByXNewestFirst(seed: Int) { Self.check(seed: seed) }

    /// The seeds above give rows of both kinds, not only one.
    @Test func theSeedsGiveRowsOfBothKinds() {
        let kinds = (0..<60).map { Self.check(seed: $0) }
        #expect(kinds.map(\.oneWord).reduce(0, +) > 100)
        #expect(kinds.map(\.severalWords).reduce(0, +) > 100)
    }

    /// A cell whose sums cancel to exactly zero (a contour out and back inside one pixel,
    /// drawn after a square whose edge crosses that pixel): the pixel's bit is set twice
    /// as its sum leaves zero, in a row across several words, and it is swept once.
    @Test func aSumBackAtZeroIsSweptOnce() {
        var path = Path()
        for left in [10.25, 280.25] {
            path.move(to: Point(left, 2.25))
            path.line(to: Point(left + 4.5, 2.25))
            path.line(to: Point(left + 4.5, 6.75))
            path.line(to: Point(left, 6.75))
            path.close()
        }
        path.move(to: Point(10.5, 3.2))
        path.line(to: Point(10.9, 3.7))
        path.close()
        let box = PixelBounds(x0: 0, y0: 0, x1: 300, y1: 10)
        let kinds = Self.check(path, box: box, rule: .nonZero)
        #expect(kinds.severalWords > 0)
    }
}
