import FlipbookGeometry
import Testing

@Suite struct SVGPathParserTests {
    func parse(_ d: String) throws -> [PathElement] { try SVGPathParser.parse(d).elements }

    @Test func absoluteLinesAndClose() throws {
        #expect(
            try parse("M10 20 L30 40 H50 V60 Z") == [
                .move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)),
                .line(Point(50, 60)), .close,
            ])
    }

    @Test func relativeCommandsRestartFromSubpathStartAfterClose() throws {
        #expect(
            try parse("m10 10 l5 5 h5 v5 z l5 0 m1 1") == [
                .move(Point(10, 10)), .line(Point(15, 15)), .line(Point(20, 15)),
                .line(Point(20, 20)), .close,
                .move(Point(10, 10)), .line(Point(15, 10)), .move(Point(16, 11)),
            ])
    }

    @Test func implicitRepeatsAndMovetoPairsAreLines() throws {
        #expect(
            try parse("M0 0 10 10 20,20") == [
                .move(.zero), .line(Point(10, 10)), .line(Point(20, 20)),
            ])
        #expect(try parse("m1 1 2 2") == [.move(Point(1, 1)), .line(Point(3, 3))])
        #expect(
            try parse("M0 0 L1 1 2 2") == [.move(.zero), .line(Point(1, 1)), .line(Point(2, 2))])
    }

    @Test func numberSpellings() throws {
        #expect(try parse("M.5.5L-1-2") == [.move(Point(0.5, 0.5)), .line(Point(-1, -2))])
        #expect(
            try parse("M1e-3 2E2l+1,-.5") == [.move(Point(0.001, 200)), .line(Point(1.001, 199.5))])
        #expect(try parse("M 1. 2.") == [.move(Point(1, 2))])
        #expect(try parse("") == [])
        #expect(try parse("  \n ") == [])
    }

    @Test func cubicsAndSmoothReflection() throws {
        #expect(
            try parse("M0 0 C10 0 20 10 20 20 S30 40 40 40 s10 0 10 10") == [
                .move(.zero),
                .cubic(Point(10, 0), Point(20, 10), Point(20, 20)),
                .cubic(Point(20, 30), Point(30, 40), Point(40, 40)),
                .cubic(Point(50, 40), Point(50, 40), Point(50, 50)),
            ])
        // S after a non-cubic uses the current point as its first control.
        #expect(
            try parse("M0 0 L5 5 S10 10 20 20") == [
                .move(.zero), .line(Point(5, 5)), .cubic(Point(5, 5), Point(10, 10), Point(20, 20)),
            ])
        #expect(
            try parse("M1 1 c1 0 2 1 2 2") == [
                .move(Point(1, 1)), .cubic(Point(2, 1), Point(3, 2), Point(3, 3)),
            ])
    }

    @Test func quadraticsAndSmoothReflection() throws {
        #expect(
            try parse("M0 0 Q10 0 10 10 T10 20 t0 10") == [
                .move(.zero), .quad(Point(10, 0), Point(10, 10)),
                .quad(Point(10, 20), Point(10, 20)),
                .quad(Point(10, 20), Point(10, 30)),
            ])
        #expect(try parse("M0 0 q5 0 5 5") == [.move(.zero), .quad(Point(5, 0), Point(5, 5))])
        #expect(try parse("M0 0 T10 0") == [.move(.zero), .quad(.zero, Point(10, 0))])
    }

    /// The end of every cubic an arc produced, and the point halfway along the arc.
    func arcEnds(_ d: String) throws -> [Point] {
        try parse(d).compactMap { if case .cubic(_, _, let p) = $0 { p } else { nil } }
    }

    @Test func halfCircleArcWithSweepGoesUpOnScreen() throws {
        let ends = try arcEnds("M0 0 A10 10 0 0 1 20 0")
        #expect(ends.count == 2)
        #expect(ends.last == Point(20, 0))
        #expect(abs(ends[0].x - 10) < 1e-9 && abs(ends[0].y + 10) < 1e-9)
        let down = try arcEnds("M0 0 A10 10 0 0 0 20 0")
        #expect(abs(down[0].y - 10) < 1e-9)
    }

    @Test func arcFlagsWithoutSeparatorsAndRelativeEnd() throws {
        let elements = try parse("M5 5a1 1 0 00 1 1")
        #expect(elements.count == 2)
        #expect(
            elements.last.map {
                if case .cubic(_, _, let p) = $0 { p == Point(6, 6) } else { false }
            } == true)
        #expect(try parse("M0 0a1 1 0 1110 0").count >= 2)
    }

    @Test func tooSmallRadiiScaleUp() throws {
        // Radius 1 cannot reach 10 away: scaled to 5, the arc is a half circle.
        let ends = try arcEnds("M0 0 A1 1 0 0 1 10 0")
        #expect(ends.count == 2)
        #expect(abs(ends[0].x - 5) < 1e-9 && abs(ends[0].y + 5) < 1e-9)
        #expect(ends[1] == Point(10, 0))
    }

    @Test func largeArcAndRotatedEllipse() throws {
        // Large arc with sweep from (0, 10) to (10, 0): three quarters of the circle of
        // radius 10 about the origin, through (−10, 0) and (0, −10).
        let ends = try arcEnds("M0 10 A10 10 0 1 1 10 0")
        #expect(ends.count == 3)
        #expect(abs(ends[0].x + 10) < 1e-9 && abs(ends[0].y) < 1e-9)
        #expect(abs(ends[1].x) < 1e-9 && abs(ends[1].y + 10) < 1e-9)
        #expect(ends.last == Point(10, 0))
        // A rotated ellipse still ends exactly on the end point.
        #expect(try arcEnds("M0 0 A20 10 30 0 1 15 5").last == Point(15, 5))
    }

    @Test func degenerateArcs() throws {
        #expect(try parse("M0 0 A0 5 0 0 1 10 0") == [.move(.zero), .line(Point(10, 0))])
        #expect(try parse("M3 3 A5 5 0 0 1 3 3") == [.move(Point(3, 3))])
    }

    @Test(arguments: [
        (
            "L10 10", SVGPathError.missingMoveTo(offset: 0),
            "path data must start with M or m at offset 0"
        ),
        ("  10 10", .missingMoveTo(offset: 2), "path data must start with M or m at offset 2"),
        ("M10", .expectedNumber(offset: 3), "expected a number at offset 3"),
        (
            "M0 0 A1 1 0 2 1 5 5", .expectedArcFlag(offset: 12),
            "expected an arc flag (0 or 1) at offset 12"
        ),
        ("M0 0 X", .unexpected("X", offset: 5), "unexpected `X` at offset 5"),
        ("M0 0 L1 e", .expectedNumber(offset: 8), "expected a number at offset 8"),
        ("M0 0 Z 5", .unexpected("5", offset: 7), "unexpected `5` at offset 7"),
        ("M0 0 L1,,2", .expectedNumber(offset: 8), "expected a number at offset 8"),
        ("M0 0 L1e999 0", .numberOutOfRange(offset: 6), "number out of range at offset 6"),
    ])
    func errors(_ d: String, _ expected: SVGPathError, _ text: String) {
        #expect(throws: expected) { try SVGPathParser.parse(d) }
        #expect(expected.description == text)
    }
}
