import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// Path builders: start points, directions and accuracy, by hand.
struct PathBuilderTests {
    func points(_ p: Path) -> [Point] {
        var c = PolylineCollector()
        PathFlattener.flatten(p, transform: .identity, tolerance: 0.0005, into: &c)
        return c.contours.flatMap { $0.points }
    }

    /// Shoelace area: positive means clockwise on screen (y down).
    func signedArea(_ pts: [Point]) -> Double {
        var a = 0.0
        for i in 0..<pts.count {
            let (u, v) = (pts[i], pts[(i + 1) % pts.count])
            a += u.x * v.y - v.x * u.y
        }
        return a / 2
    }

    /// rect: top-left, top-right, bottom-right, bottom-left (clockwise on screen).
    @Test func rectIsClockwiseFromTopLeft() {
        let p = Path.rect(Rect(10, 20, -4, 6))
        #expect(
            p.elements == [
                .move(Point(6, 20)), .line(Point(10, 20)), .line(Point(10, 26)),
                .line(Point(6, 26)), .close,
            ])
    }

    /// Rounded rect: starts just after the top-left corner, runs clockwise, clamps the
    /// radius to half the shorter side (a 20×10 rect with radius 50 is a stadium with
    /// radius 5), and its area is w·h − (4 − π)·r² (less the chords' loss when measured
    /// on the 0.0005-flattened outline: ≤ ⅔·0.0005·perimeter of the arcs ≈ 0.013).
    @Test func roundedRectStartDirectionClampAndArea() {
        let p = Path.roundedRect(Rect(0, 0, 40, 30), cornerRadius: 6)
        #expect(p.elements.first == .move(Point(6, 0)))
        let pts = points(p)
        #expect(abs(signedArea(pts) - (40 * 30 - (4 - .pi) * 36)) < 0.02)
        let stadium = points(.roundedRect(Rect(0, 0, 20, 10), cornerRadius: 50))
        #expect(abs(signedArea(stadium) - (20 * 10 - (4 - .pi) * 25)) < 0.02)
        #expect(
            stadium.allSatisfy {
                $0.x >= -1e-9 && $0.x <= 20 + 1e-9 && $0.y >= -1e-9 && $0.y <= 10 + 1e-9
            })
    }

    /// Ellipse: starts at 3 o'clock, goes clockwise on screen (next through 6 o'clock),
    /// every point within 1e-5·r of the true ellipse (8 cubics).
    @Test func ellipseStartDirectionAccuracy() {
        let p = Path.ellipse(in: Rect(0, 0, 200, 100))
        #expect(p.elements.first == .move(Point(200, 50)))
        let pts = points(p)
        #expect(signedArea(pts) > 0)
        for q in pts {
            let e =
                ((q.x - 100) / 100) * ((q.x - 100) / 100) + ((q.y - 50) / 50) * ((q.y - 50) / 50)
            #expect(abs(e - 1) < 4e-5)
        }
    }

    /// Arcs, UIBezierPath semantics with y down: clockwise = increasing angle. From 0° to
    /// 90° clockwise is a quarter through 45° (bottom-right); counterclockwise is the
    /// other three quarters through 180°. 0 → 360 clockwise is a full circle; equal
    /// angles draw nothing but the move.
    @Test func arcDirectionAndSweep() {
        let c = Point(50, 50)
        let cw = points(
            .arc(center: c, radius: 10, startDegrees: 0, endDegrees: 90, clockwise: true))
        #expect(cw.first! == Point(60, 50))
        #expect(abs(cw.last!.x - 50) < 1e-9 && abs(cw.last!.y - 60) < 1e-9)
        #expect(cw.allSatisfy { $0.x >= 50 - 1e-9 && $0.y >= 50 - 1e-9 })
        let ccw = points(
            .arc(center: c, radius: 10, startDegrees: 0, endDegrees: 90, clockwise: false))
        #expect(ccw.contains { $0.x < 41 })  // passes 180° (x = 40)
        #expect(!ccw.contains { $0.x > 51 && $0.y > 51 })
        let full = Path.arc(
            center: c, radius: 10, startDegrees: 0, endDegrees: 360, clockwise: true)
        #expect(full.elements.count == 9)  // move + 8 cubics of 45°
        let none = Path.arc(
            center: c, radius: 10, startDegrees: 30, endDegrees: 30, clockwise: true)
        #expect(none.elements.count == 1)
        for q in points(full) { #expect(abs((q - c).length - 10) < 1e-4) }
    }

    /// addArc joins with a line when the path already has a current point.
    @Test func addArcConnectsWithLine() {
        var p = Path()
        p.move(to: Point(0, 0))
        p.addArc(
            center: Point(10, 10), radius: 5, startDegrees: 180, endDegrees: 270, clockwise: true)
        #expect(p.elements[1] == .line(Point(5, 10)))
        if case .cubic(_, _, let end) = p.elements.last! {
            #expect(abs(end.x - 10) < 1e-9 && abs(end.y - 5) < 1e-9)
        }
    }
}
