import Testing
import FlipbookGeometry
import FlipbookScene
@testable import FlipbookRender

/// Zig-zag and offset path on paths whose results can be worked out by hand (lottie-web's
/// ZigZagModifier and OffsetPathModifier rules, see ZigZagModifier.swift and
/// OffsetPathModifier.swift).
@Suite struct ShapeModifierGeometryTests {
    /// A clockwise (on screen) 40 × 40 square from (30, 30).
    static var square: Path {
        var p = Path()
        p.move(to: Point(30, 30))
        p.line(to: Point(70, 30))
        p.line(to: Point(70, 70))
        p.line(to: Point(30, 70))
        p.close()
        return p
    }

    static func points(_ c: BezierContours) -> [Point] {
        c.contours.flatMap { $0.vertices.map(\.point) }
    }

    static func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test func zigZagOnAnOpenLineAlternatesAndKeepsTheEnds() {
        var line = Path()
        line.move(to: Point(10, 30))
        line.line(to: Point(90, 30))
        let out = BezierContours(line).zigZagged(size: 3, ridges: 3, smooth: false)
        // Ends stay (their chord is empty); ridges at t = 1/4, 2/4, 3/4: up, down, up.
        let expected = [Point(10, 30), Point(30, 27), Point(50, 33), Point(70, 27), Point(90, 30)]
        #expect(out.contours.count == 1 && out.contours[0].closed == false)
        #expect(
            zip(Self.points(out), expected).allSatisfy { Self.close($0, $1) }
                && Self.points(out).count == 5)
    }

    @Test func zigZagOnAClosedSquareAddsACornerOnTheStartAgain() {
        let out = BezierContours(Self.square).zigZagged(size: 2, ridges: 1, smooth: false)
        let v = Self.points(out)
        // 4 corners + 4 ridges + the first corner repeated (lottie-web appends it).
        #expect(v.count == 9)
        // Corner 0 at (30, 30): chord from (30, 70) to (70, 30) points up-right; pushed to its right
        // (direction -1), which for a clockwise square is inward (+√2, +√2).
        #expect(Self.close(v[0], Point(30 + 2 / 2.0.squareRoot(), 30 + 2 / 2.0.squareRoot())))
        // The ridge on the top edge's middle goes to the left of travel: up.
        #expect(Self.close(v[1], Point(50, 28)))
        // Two points per segment: the sides alternate the same way on every segment, so the
        // last corner lands on the first one.
        #expect(Self.close(v[8], v[0]))
    }

    @Test func smoothZigZagHandlesLieAlongTheTangent() {
        var line = Path()
        line.move(to: Point(0, 0))
        line.line(to: Point(60, 0))
        let out = BezierContours(line).zigZagged(size: 5, ridges: 2, smooth: true)
        let ridge = out.contours[0].vertices[1]
        // Handle length: chord / ((ridges + 1) · 2) = 10, horizontal.
        #expect(Self.close(ridge.point, Point(20, -5)))
        #expect(
            Self.close(ridge.inHandle, Point(10, -5)) && Self.close(ridge.outHandle, Point(30, -5)))
    }

    @Test func offsetGrowsASquareWithMiters() {
        let out = BezierContours(Self.square).offset(by: 10, join: .miter, miterLimit: 4)
        let v = Self.points(out)
        for corner in [Point(20, 20), Point(80, 20), Point(80, 80), Point(20, 80)] {
            #expect(v.contains { Self.close($0, corner, 1e-6) }, "missing mitered corner \(corner)")
        }
        #expect(
            v.allSatisfy {
                $0.x >= 20 - 1e-6 && $0.x <= 80 + 1e-6 && $0.y >= 20 - 1e-6 && $0.y <= 80 + 1e-6
            })
    }

    @Test func offsetBevelsWhenTheMiterIsTooLong() {
        // A miter of a right angle reaches √2 · amount: beyond a limit of 1.2.
        let out = BezierContours(Self.square).offset(by: 10, join: .miter, miterLimit: 1.2)
        #expect(!Self.points(out).contains { Self.close($0, Point(20, 20), 1e-6) })
        #expect(Self.points(out).contains { Self.close($0, Point(30, 20), 1e-6) })
    }

    @Test func offsetGrowsACounterClockwiseSquareToo() {
        var ccw = Path()
        ccw.move(to: Point(30, 30))
        ccw.line(to: Point(30, 70))
        ccw.line(to: Point(70, 70))
        ccw.line(to: Point(70, 30))
        ccw.close()
        let v = Self.points(BezierContours(ccw).offset(by: 10, join: .miter, miterLimit: 4))
        #expect(v.contains { Self.close($0, Point(20, 20), 1e-6) })
    }

    @Test func negativeOffsetShrinksTheSquare() {
        let v = Self.points(
            BezierContours(Self.square).offset(by: -10, join: .miter, miterLimit: 4))
        // The inner edges are cut where they cross: the corners of the 20 × 20 square inside.
        #expect(
            v.allSatisfy {
                $0.x >= 40 - 1e-6 && $0.x <= 60 + 1e-6 && $0.y >= 40 - 1e-6 && $0.y <= 60 + 1e-6
            }, "\(v)")
        for corner in [Point(40, 40), Point(60, 40), Point(60, 60), Point(40, 60)] {
            #expect(v.contains { Self.close($0, corner, 1e-6) }, "missing corner \(corner)")
        }
    }
}
