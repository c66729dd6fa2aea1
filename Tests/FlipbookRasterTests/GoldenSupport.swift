import Foundation
import Testing
import FlipbookCodecs
import FlipbookGeometry
@testable import FlipbookRaster

/// Golden-image infrastructure. Goldens are regression guards only: every golden test
/// first checks its image against an independent expectation computed in the test.
///
/// - Files: Tests/FlipbookRasterTests/Goldens/<name>.png (found via #filePath).
/// - Comparison: both images go through a PNG round trip (PNG stores straight alpha), then
///   every premultiplied channel must be within 2.
/// - On a mismatch the actual image and a diff image (red where channels differ by more
///   than the tolerance, a faded copy elsewhere) are written to
///   $TMPDIR/flipbook-golden-diffs/ and their paths printed.
/// - `RECORD_GOLDENS=1 swift test` rewrites the goldens.
enum Golden {
    static let tolerance = 2

    static var directory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens").path
    }

    static func check(_ image: Pixmap, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = "\(directory)/\(name).png"
        do {
            let actual = try PNGCodec.decode(try PNGCodec.encode(image))
            if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
                try PNGCodec.write(image, to: path)
                return
            }
            guard FileManager.default.fileExists(atPath: path) else {
                Issue.record("missing golden \(path); run with RECORD_GOLDENS=1", sourceLocation: sourceLocation)
                return
            }
            let expected = try PNGCodec.read(path: path)
            guard expected.width == actual.width, expected.height == actual.height else {
                Issue.record("golden \(name) is \(expected.width)×\(expected.height), image is \(actual.width)×\(actual.height)",
                             sourceLocation: sourceLocation)
                return
            }
            var worst = 0
            var diff = Pixmap(width: actual.width, height: actual.height)
            for i in stride(from: 0, to: actual.data.count, by: 4) {
                var d = 0
                for c in 0..<4 { d = max(d, abs(Int(actual.data[i + c]) - Int(expected.data[i + c]))) }
                worst = max(worst, d)
                if d > tolerance {
                    diff.data[i] = 255; diff.data[i + 3] = 255
                } else {
                    for c in 0..<4 { diff.data[i + c] = actual.data[i + c] / 4 }
                }
            }
            if worst > tolerance {
                let dir = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/flipbook-golden-diffs"
                try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try? PNGCodec.write(actual, to: "\(dir)/\(name)-actual.png")
                try? PNGCodec.write(diff, to: "\(dir)/\(name)-diff.png")
                print("golden \(name) differs by up to \(worst); see \(dir)/\(name)-diff.png and -actual.png")
                Issue.record("golden \(name) differs by up to \(worst) (tolerance \(tolerance)); diff at \(dir)/\(name)-diff.png",
                             sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("golden \(name): \(error)", sourceLocation: sourceLocation)
        }
    }
}
