import Foundation
import XCTest
import FlipbookXCTest

/// The same golden check from XCTest, with the goldens of BoxSceneTests (why they are right:
/// see BoxSceneTests.swift and make_goldens.py).
final class BoxSceneXCTests: XCTestCase {
    /// Failures reported while ``capturingFailures`` is set, instead of failing the test.
    private var captured: [(description: String, line: Int)] = []
    private var capturingFailures = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        guard capturingFailures else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber,
                expected: expected)
        }
        captured.append((description, lineNumber))
    }

    func testBoxMatchesItsGoldens() throws {
        try assertFrames(
            of: "../BoxSceneTests/Scenes/box.yaml", match: "../BoxSceneTests/Goldens/box",
            options: GoldenOptions(comparison: .exact))
    }

    /// A frame of another time fails, reported at the call's line with the diff and report.
    func testMismatchIsReportedAtTheCall() throws {
        capturingFailures = true
        let line = #line + 1
        let result = try assertFrame(
            of: "../BoxSceneTests/Scenes/box.yaml", at: 0.1,
            match: "../BoxSceneTests/Goldens/box", named: "frame-0000", record: false)
        capturingFailures = false
        XCTAssertFalse(result.passed)
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(captured.first?.description.contains("frame-0000.png") == true)
        XCTAssertTrue(captured.first?.description.contains("HTML report: ") == true)
    }
}
