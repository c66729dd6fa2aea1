import Foundation
import Testing
@testable import FlipbookDiff

/// The OKLab distance's normalization and the window count on hand-made inputs.
@Suite struct OklabAndWindowTests {
    /// Lr(0) = 0 and Lr(1) = (k3 − k1 + √((k3 − k1)² + 4·k2·k3)) / 2 = 0.999996…, so black↔white
    /// spans nearly all of Lr (pixelmatch does not divide by it); the tables reproduce the
    /// exact values to well within 1e-6.
    @Test func blackToWhiteIsNearlyOne() {
        #expect(OklabDelta.toe(0) == 0)
        #expect(abs(OklabDelta.toe(1) - 1) < 1e-5)
        #expect(abs(OklabDelta.blackToWhite - OklabDelta.toe(1)) < 1e-6)
        let x = (12.0, 200.0, 77.0), y = (90.0, 3.0, 250.0)
        #expect(OklabDelta.between(x, y) == OklabDelta.between(y, x))
        #expect(OklabDelta.between(x, x) == 0)
    }

    /// The tables interpolate linearly: between entries the linearized channel and the cube
    /// root stay within 1e-5 of the exact functions.
    @Test func tablesFollowTheExactFunctions() {
        for c in stride(from: 0.0, through: 255, by: 0.37) {
            let v = c / 255
            let exact = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            #expect(abs(OklabDelta.linear(c) - exact) < 1e-5, "linear(\(c))")
        }
        for x in stride(from: 0.01, through: 1, by: 0.0123) {
            #expect(abs(OklabDelta.cubeRoot(x) - cbrt(x)) < 1e-5, "cbrt(\(x))")
        }
    }

    /// pixelmatch's threshold test without a square root: equal pixels' distance 0 is
    /// within any positive threshold, but at threshold 0 even a zero distance is "over".
    @Test func thresholdZeroFlagsEveryComparedPair() {
        let a = (10.0, 20.0, 30.0)
        #expect(!OklabDelta.exceeds(a, a, threshold: 0.01))
        #expect(OklabDelta.exceeds(a, a, threshold: 0))
    }

    /// A dense 3×3 block and two scattered pixels in a 10×10 frame.
    @Test func windowCountsTheDensestSquare() {
        var classes = [UInt8](repeating: PixelClass.same.rawValue, count: 100)
        for y in 4..<7 { for x in 2..<5 { classes[y * 10 + x] = PixelClass.differing.rawValue } }
        classes[0] = PixelClass.differing.rawValue
        classes[99] = PixelClass.differing.rawValue
        classes[98] = PixelClass.antiAliased.rawValue  // not counted
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 1) == 1)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 2) == 4)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 3) == 9)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 10) == 11)
        #expect(WindowCount.largest(classes, width: 10, height: 10, window: 500) == 11)
    }
}
