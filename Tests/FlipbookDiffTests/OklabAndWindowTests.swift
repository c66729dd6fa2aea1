import Testing
@testable import FlipbookDiff

/// The OKLab distance's normalization and the window count on hand-made inputs.
@Suite struct OklabAndWindowTests {
    /// Lr(0) = 0 and Lr(1) = (k3 − k1 + √((k3 − k1)² + 4·k2·k3)) / 2 = 0.999996…, so black↔white
    /// spans nearly all of Lr; the division makes it exactly 1.
    @Test func blackToWhiteIsOne() {
        #expect(OklabDelta.toe(0) == 0)
        #expect(abs(OklabDelta.toe(1) - 1) < 1e-5)
        #expect(abs(OklabDelta.between((0, 0, 0), (255, 255, 255)) - 1) < 1e-12)
        let x = (12.0, 200.0, 77.0), y = (90.0, 3.0, 250.0)
        #expect(OklabDelta.between(x, y) == OklabDelta.between(y, x))
        #expect(OklabDelta.between(x, x) == 0)
    }

    /// A dense 3×3 block and two scattered pixels in a 10×10 frame.
    @Test func windowCountsTheDensestSquare() {
        var classes = [UInt8](repeating: PixelClass.same.rawValue, count: 100)
        for y in 4..<7 { for x in 2..<5 { classes[y * 10 + x] = PixelClass.differing.rawValue } }
        classes[0] = PixelClass.differing.rawValue
        classes[99] = PixelClass.differing.rawValue
        classes[98] = PixelClass.antiAliased.rawValue   // not counted
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 1) == 1)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 2) == 4)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 3) == 9)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 10) == 11)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 500) == 11)
    }
}
