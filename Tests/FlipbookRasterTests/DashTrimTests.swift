import Testing
import FlipbookTesting
import FlipbookGeometry
@testable import FlipbookRaster

/// Dashes and strokeStart/strokeEnd trims, checked against intervals computed by hand.
struct DashTrimTests {
    func strokeAlpha(_ path: Path, _ style: StrokeStyle, width: Int = 48, height: Int = 16)
        -> Pixmap
    {
        var p = Pixmap(width: width, height: height)
        p.fill(
            Stroker.outline(of: path, style: style), transform: .identity, rule: .nonZero,
            paint: .solid(.black))
        return p
    }

    /// Coverage of a 2-px butt stroke of y = 8 (rows 7 and 8 exactly) along the given
    /// x intervals: overlap length of the pixel's column with the intervals.
    func expectedRows(_ intervals: [(Double, Double)]) -> (Int, Int) -> Double {
        { x, y in
            guard y == 7 || y == 8 else { return 0 }
            return intervals.reduce(0) { $0 + overlap(Double(x), Double(x + 1), $1.0, $1.1) }
        }
    }

    /// Pattern [6, 4] with phase 3 on x = 2…46: the pattern starts 3 into the first dash,
    /// so the dashes are [2, 5], then every 10 from 9: [9, 15], [19, 25], [29, 35], [39, 45].
    @Test func dashesWithPhase() throws {
        let line = Path([.move(Point(2, 8)), .line(Point(46, 8))])
        let p = strokeAlpha(line, StrokeStyle(width: 2, dashes: [6, 4], dashPhase: 3))
        let on: [(Double, Double)] = [(2, 5), (9, 15), (19, 25), (29, 35), (39, 45)]
        let err = maxAlphaError(p, expected: expectedRows(on))
        #expect(err <= 0.5)
        try expectFrame(p, match: "Goldens", named: "dash-phase", options: .rasterGolden)
    }

    /// An odd pattern repeats doubled, as CoreGraphics does: [5] is 5 on, 5 off; [4, 2, 3]
    /// is 4 on 2 off 3 on 4 off 2 on 3 off. Negative phase wraps: −2 ≡ 8 in a 10 cycle.
    @Test func oddPatternsRepeatDoubled() {
        let line = Path([.move(Point(2, 8)), .line(Point(46, 8))])
        let five = strokeAlpha(line, StrokeStyle(width: 2, dashes: [5]))
        let fiveOn: [(Double, Double)] = [(2, 7), (12, 17), (22, 27), (32, 37), (42, 46)]
        #expect(maxAlphaError(five, expected: expectedRows(fiveOn)) <= 0.5)
        let three = strokeAlpha(line, StrokeStyle(width: 2, dashes: [4, 2, 3]))
        // On: [0,4], [6,9], [13,15], then +18: [18,22], [24,27], [31,33], [36,40], [42,44] (+2 offset).
        let starts: [Double] = [0, 6, 13, 18, 24, 31, 36, 42]
        let ends: [Double] = [4, 9, 15, 22, 27, 33, 40, 44]
        let on: [(Double, Double)] = zip(starts, ends).map {
            (a: Double, b: Double) -> (Double, Double) in (a + 2, b + 2)
        }
        #expect(maxAlphaError(three, expected: expectedRows(on)) <= 0.5)
        let negative = strokeAlpha(line, StrokeStyle(width: 2, dashes: [5], dashPhase: -2))
        // Phase 8 of [5 on, 5 off]: 2 more off, then on at 2…7 from the start (x 4…9).
        let negativeOn: [(Double, Double)] = [(4, 9), (14, 19), (24, 29), (34, 39), (44, 46)]
        #expect(maxAlphaError(negative, expected: expectedRows(negativeOn)) <= 0.5)
        let zeros = strokeAlpha(line, StrokeStyle(width: 2, dashes: [0, 0]))
        #expect(maxAlphaError(zeros, expected: expectedRows([(2, 46)])) <= 0.5)
    }

    /// Zero-length dashes with round caps are dots: [0, 10] on x = 4…44 with width 4 puts
    /// disks of radius 2 at x = 4, 14, 24, 34 (and 44 is the end, where the next "on"
    /// would start: CoreGraphics draws nothing beyond the path).
    @Test func zeroLengthDashesAreDots() {
        let line = Path([.move(Point(4, 8)), .line(Point(44, 8))])
        let p = strokeAlpha(line, StrokeStyle(width: 4, cap: .round, dashes: [0, 10]))
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                let centers: [Double] = [4, 14, 24, 34]
                return centers.contains { (cx: Double) -> Bool in
                    let (dx, dy) = (px - cx, py - 8)
                    return dx * dx + dy * dy <= 4
                }
            }
        }
        #expect(err <= 2)
    }

    /// Zero-length dashes with square caps turn with the path: on the 45° line from
    /// (6, 6) with pattern [0, 12] and width 4 the dots are squares of side 4 rotated by
    /// 45°, centered every 12 along the line (|u|, |v| ≤ 2 in the line's frame).
    @Test func zeroLengthDashesWithSquareCapsFollowTangent() {
        let s = 0.5.squareRoot()
        let line = Path([.move(Point(6, 6)), .line(Point(6 + 30 * s, 6 + 30 * s))])
        let p = strokeAlpha(
            line, StrokeStyle(width: 4, cap: .square, dashes: [0, 12]), width: 32, height: 32)
        let err = maxAlphaError(p) { x, y in
            supersampled(x: x, y: y) { px, py in
                let (dx, dy) = (px - 6, py - 6)
                let along = (dx + dy) * s, across = (dy - dx) * s
                let nearest = (along / 12).rounded() * 12
                return nearest <= 30 && abs(along - nearest) <= 2 && abs(across) <= 2
            }
        }
        #expect(err <= 2)
    }

    /// A dash through the start of a closed path is one dash with a join: rect
    /// (8, 8, 32, 16) has perimeter 96 starting at its top-left corner; pattern [10, 6]
    /// with phase 4 is on over [0, 6] and [12 + 16k, 22 + 16k], so the last dash [92, 96]
    /// (the left edge from y = 12 up to the corner) continues into [0, 6] (the top edge to
    /// x = 14). With a miter join the outer corner square [6, 8]² is filled; separate
    /// butt-ended dashes would leave it empty.
    @Test func dashThroughClosedStartIsJoined() throws {
        let p = strokeAlpha(
            .rect(Rect(8, 8, 32, 16)), StrokeStyle(width: 4, dashes: [10, 6], dashPhase: 4),
            width: 48, height: 32)
        #expect(p.pixel(x: 6, y: 6).a == 255 && p.pixel(x: 7, y: 7).a == 255)
        #expect(p.pixel(x: 13, y: 7).a == 255 && p.pixel(x: 14, y: 7).a == 0)
        #expect(p.pixel(x: 7, y: 11).a == 255 && p.pixel(x: 7, y: 12).a == 0)
        // A dash longer than the whole closed path keeps it closed: the plain ring.
        let whole = strokeAlpha(
            .rect(Rect(8, 8, 16, 16)), StrokeStyle(width: 4, dashes: [200, 10]), width: 32,
            height: 32)
        let ring = maxAlphaError(whole) { x, y in
            let outer = x >= 6 && x < 26 && y >= 6 && y < 26
            let inner = x >= 10 && x < 22 && y >= 10 && y < 22
            return outer && !inner ? 1 : 0
        }
        #expect(ring == 0)
        try expectFrame(p, match: "Goldens", named: "dash-closed-rect", options: .rasterGolden)
    }

    /// Trimming two 20-long lines (total 40) to 0.25…0.75 keeps lengths 10…30: the second
    /// half of the first line and the first half of the second.
    @Test func trimSpansSubpaths() {
        let path = Path([
            .move(Point(4, 4)), .line(Point(24, 4)), .move(Point(4, 10)), .line(Point(24, 10)),
        ])
        let t = PathTrimmer.trim(path, from: 0.25, to: 0.75)
        #expect(
            t.elements == [
                .move(Point(14, 4)), .line(Point(24, 4)), .move(Point(4, 10)), .line(Point(14, 10)),
            ])
        #expect(PathTrimmer.trim(path, from: 0.6, to: 0.6).isEmpty)
        #expect(PathTrimmer.trim(path, from: 0.8, to: 0.3).isEmpty)
        #expect(PathTrimmer.trim(path, from: -1, to: 2) == path)
    }

    /// A closed rect's length includes the closing edge: rect 20×10 has length 60; 0…0.5
    /// is 30 long: the top edge (20) and the right edge (10), clockwise from top-left.
    @Test func trimClosedRectIsOpenPiece() {
        let t = PathTrimmer.trim(.rect(Rect(4, 4, 20, 10)), from: 0, to: 0.5)
        #expect(t.elements == [.move(Point(4, 4)), .line(Point(24, 4)), .line(Point(24, 14))])
        // The closing edge is trimmable too: 0.9…1 is the last 6 of the left edge going up.
        let tail = PathTrimmer.trim(.rect(Rect(4, 4, 20, 10)), from: 0.9, to: 1)
        #expect(tail.elements.count == 2)
        if case .move(let a) = tail.elements[0], case .line(let b) = tail.elements[1] {
            #expect(abs(a.x - 4) < 1e-9 && abs(a.y - 10) < 1e-9 && b == Point(4, 4))
        }
    }

    /// A circle's quarter by length: ellipse paths start at 3 o'clock and run clockwise
    /// on screen, so strokeEnd 0.25 ends at 6 o'clock, and every point of the trimmed
    /// curve stays on the circle. The measured length is 2πr to 1e-4.
    @Test func trimCircleQuarter() {
        let (c, r) = (Point(20, 20), 10.0)
        let circle = Path.ellipse(in: Rect(c.x - r, c.y - r, 2 * r, 2 * r))
        #expect(abs(PathMeasure(circle).totalLength - 2 * .pi * r) < 1e-4 * r)
        let q = PathTrimmer.trim(circle, from: 0, to: 0.25)
        var collector = PolylineCollector()
        PathFlattener.flatten(q, transform: .identity, tolerance: 0.001, into: &collector)
        let pts = collector.contours.flatMap(\.points)
        #expect(abs(pts.first!.x - 30) < 1e-6 && abs(pts.first!.y - 20) < 1e-6)
        #expect(abs(pts.last!.x - 20) < 1e-3 && abs(pts.last!.y - 30) < 1e-3)
        for p in pts { #expect(abs((p - c).length - r) < 2e-3) }
        // strokeStart 0.125 … strokeEnd 0.375: from 45° to 135°.
        let mid = PathTrimmer.trim(circle, from: 0.125, to: 0.375)
        if case .move(let s) = mid.elements.first {
            #expect(
                abs(s.x - (20 + r / 2.0.squareRoot())) < 2e-3
                    && abs(s.y - (20 + r / 2.0.squareRoot())) < 2e-3)
        }
    }

    /// Rendered trim: a 2-px butt stroke of x = 4…44 trimmed to 0.25…0.5 covers x 14…24.
    @Test func trimRendered() throws {
        let line = Path([.move(Point(4, 8)), .line(Point(44, 8))])
        let t = PathTrimmer.trim(line, from: 0.25, to: 0.5)
        let p = strokeAlpha(t, StrokeStyle(width: 2))
        #expect(maxAlphaError(p, expected: expectedRows([(14, 24)])) <= 0.5)
        try expectFrame(p, match: "Goldens", named: "trim-line", options: .rasterGolden)
    }
}
