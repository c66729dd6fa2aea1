import Foundation
import Testing
import Flipbook
import FlipbookCodecs
import FlipbookRaster
import FlipbookScene

/// Renders frames of the scenes in `scenes/` and compares them with golden PNGs in
/// `Tests/SeedSceneTests/Goldens/`.
///
/// - A golden guards a frame against unintended change; what makes it *right* is checked
///   separately, by each scene's tests, from the tutorial's numbers.
/// - `RECORD_GOLDENS=1 swift test` rewrites the goldens (review the images before committing).
/// - A mismatch writes `<name>-actual.png` and `<name>-diff.png` (differing pixels in red
///   over a faded copy of the golden) to `.build/golden-diffs/` and names them in the failure.
enum SceneGolden {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Loads `scenes/<name>.yaml` once per call.
    static func load(_ name: String) throws -> Scene {
        try SceneLoader.load(path: packageRoot + "/scenes/\(name).yaml")
    }

    /// Frame at `seconds`, at `scale` (the scene's when nil).
    static func render(_ scene: Scene, at seconds: Double, scale: Double? = nil) throws -> Pixmap {
        try SceneRenderer(scene: scene, scale: scale).renderFrame(at: seconds)
    }

    /// Compares `pixmap` with the golden `name`: at most `maxDifferingPixels` pixels may
    /// differ by more than `tolerance` in any channel (anti-aliasing and gradient rounding
    /// may move a level or two between compilers; shapes and positions may not).
    static func check(_ pixmap: Pixmap, named name: String, tolerance: Int = 2, maxDifferingPixels: Int = 0,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = packageRoot + "/Tests/SeedSceneTests/Goldens/\(name).png"
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try PNGCodec.write(pixmap, to: path)
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing golden \(path); record it with RECORD_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        let golden = try PNGCodec.read(path: path)
        guard golden.width == pixmap.width, golden.height == pixmap.height else {
            Issue.record("\(name): size \(pixmap.width)×\(pixmap.height), golden \(golden.width)×\(golden.height)",
                         sourceLocation: sourceLocation)
            return
        }
        var diff = Pixmap(width: golden.width, height: golden.height)
        var differing = 0
        var worst = 0
        for i in stride(from: 0, to: golden.data.count, by: 4) {
            var delta = 0
            for c in 0..<4 { delta = max(delta, abs(Int(golden.data[i + c]) - Int(pixmap.data[i + c]))) }
            worst = max(worst, delta)
            if delta > tolerance {
                differing += 1
                diff.data.replaceSubrange(i..<i + 4, with: [255, 0, 0, 255])
            } else {
                // A faded copy of the golden, so the red marks have context.
                let faded = (0..<3).map { UInt8(255 - (255 - Int(golden.data[i + $0])) / 4) }
                diff.data.replaceSubrange(i..<i + 4, with: faded + [255])
            }
        }
        guard differing > maxDifferingPixels else { return }
        let folder = packageRoot + "/.build/golden-diffs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGCodec.write(pixmap, to: "\(folder)/\(name)-actual.png")
        try PNGCodec.write(diff, to: "\(folder)/\(name)-diff.png")
        Issue.record("""
            \(name): \(differing) pixels differ by more than \(tolerance) (worst \(worst)); \
            see \(folder)/\(name)-diff.png and \(name)-actual.png
            """, sourceLocation: sourceLocation)
    }

    /// The straight-alpha color of a pixel as 0…255 integers.
    static func rgb(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] {
        let px = p.pixel(x: x, y: y)
        return [Int(px.r), Int(px.g), Int(px.b)]
    }

    /// Columns of row `y` whose color is within `tolerance` of `color`: the horizontal
    /// extent of something drawn in that color.
    static func columns(_ p: Pixmap, row y: Int, matching color: [Int], tolerance: Int = 8) -> ClosedRange<Int>? {
        let xs = (0..<p.width).filter { x in zip(rgb(p, x, y), color).allSatisfy { abs($0 - $1) <= tolerance } }
        guard let first = xs.first, let last = xs.last else { return nil }
        return first...last
    }
}
