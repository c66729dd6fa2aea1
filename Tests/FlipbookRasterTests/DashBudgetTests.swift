import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// An absurdly fine dash pattern is cut off at Dasher.maxDashes instead of producing
/// billions of dashes.
struct DashBudgetTests {
    @Test func aNanometreDashPatternStopsAtTheBudget() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.line(to: Point(50, 50))
        let dashed = Dasher.dash(path, pattern: [1e-9, 1e-9], phase: 0)
        let dashes = dashed.elements.filter { if case .move = $0 { true } else { false } }.count
        #expect(dashes == Dasher.maxDashes)
    }
}
