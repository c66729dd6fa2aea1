import Foundation
import XCTest
@_exported import FlipbookGoldens
import FlipbookRaster

// Golden tests in one line for XCTest (docs/testing.md), the counterparts of
// FlipbookTesting's calls for Swift Testing; this module does not import Testing.
//
//     func testLogin() throws {
//         try assertFrames(of: "scenes/login.yaml", match: "Goldens/login")
//     }
//
// Relative paths resolve beside the calling test file. A failure is reported with XCTFail at
// the call's line; its message names the diff images and the HTML report. Where XCTest has
// attachments (Apple platforms; swift-corelibs-xctest on Linux has none) the expected,
// actual and difference images of the first failing frames are attached as well. Recording:
// `record: true`, or FLIPBOOK_RECORD=1 for the whole run; `record: false` never records.

/// Renders every frame of a scene file (or `frames`) and asserts each matches
/// `golden/frame-NNNN.png`. YAML and JSON scenes and Lottie files alike.
@discardableResult
public func assertFrames(
    of scene: String, match golden: String, frames: ClosedRange<Int>? = nil,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws -> GoldenResult {
    let result = try GoldenExpectation.frames(
        of: scene, golden: golden, frames: frames, options: options,
        record: record, besideFile: "\(file)")
    reportFailure(of: result, file: file, line: line)
    return result
}

/// Renders a scene file at `seconds` and asserts the frame matches `golden/<name>.png`
/// (default name `at-<seconds, 3 decimals>s`).
@discardableResult
public func assertFrame(
    of scene: String, at seconds: Double, match golden: String, named name: String? = nil,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws -> GoldenResult {
    let result = try GoldenExpectation.frame(
        of: scene, at: seconds, golden: golden, named: name, options: options,
        record: record, besideFile: "\(file)")
    reportFailure(of: result, file: file, line: line)
    return result
}

/// Asserts an image matches `golden/<name>.png`.
@discardableResult
public func assertFrame(
    _ image: Pixmap, match golden: String, named name: String,
    options: GoldenOptions = GoldenOptions(), record: Bool? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws -> GoldenResult {
    let result = try GoldenExpectation.frame(
        image, golden: golden, named: name, options: options, record: record,
        besideFile: "\(file)")
    reportFailure(of: result, file: file, line: line)
    return result
}

/// Reports a failing result at `file`:`line`: its images as attachments where XCTest has
/// them, then the failure with its message.
func reportFailure(of result: GoldenResult, file: StaticString, line: UInt) {
    guard let message = result.failureMessage else { return }
    #if canImport(Darwin)
        // Activities belong to the main thread, where XCTest runs synchronous tests; elsewhere the
        // message, the diff images and the report still say everything.
        let files = GoldenExpectation.attachments(of: result)
        if !files.isEmpty, Thread.isMainThread {
            MainActor.assumeIsolated {
                XCTContext.runActivity(named: "golden frames of \(result.label)") { activity in
                    for png in files {
                        let attachment = XCTAttachment(
                            data: Data(png.bytes), uniformTypeIdentifier: "public.png")
                        attachment.name = png.name
                        attachment.lifetime = .keepAlways
                        activity.add(attachment)
                    }
                }
            }
        }
    #endif
    XCTFail(message, file: file, line: line)
}
