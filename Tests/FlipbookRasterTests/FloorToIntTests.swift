import Testing
@testable import FlipbookRaster

/// The edge walk's floor (``CoverageAccumulator/floorToInt(_:)``, a rounding by adding
/// 1.5 · 2⁵² instead of libm's `floor` and a checked conversion) must be the floor exactly
/// wherever the walk uses it: every coordinate inside a work box of ±2³⁰.
struct FloorToIntTests {
    /// Integers, halves (where rounding to nearest even goes up or down) and the doubles
    /// just either side of each, across the coordinate range and at its ends.
    @Test func equalsTheFloorOnEdgeCases() {
        let limit = Double(CoverageAccumulator.coordinateLimit)
        var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for base in [0.0, 1, 2, 3, 255, 256, 1_000_001, limit - 1, limit] {
            for whole in [base, -base] {
                for v in [whole, whole + 0.5, whole - 0.5, whole + 0.25, whole - 0.75] {
                    values += [v, v.nextUp, v.nextDown]
                }
            }
        }
        for v in values where abs(v) <= limit {
            #expect(CoverageAccumulator.floorToInt(v) == Int(v.rounded(.down)), "\(v)")
        }
    }

    /// Random coordinates at every scale inside the range, with fractions of all sizes.
    @Test func equalsTheFloorOnRandomValues() {
        var rng = CellOrderTests.Generator(state: 24)
        let limit = Double(CoverageAccumulator.coordinateLimit)
        var wrong: [Double] = []
        for _ in 0..<200_000 {
            let scale = Double(
                sign: .plus, exponent: Int.random(in: -20...29, using: &rng), significand: 1)
            let v = Double.random(in: -scale...scale, using: &rng)
            if abs(v) <= limit && CoverageAccumulator.floorToInt(v) != Int(v.rounded(.down)) {
                wrong.append(v)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}
