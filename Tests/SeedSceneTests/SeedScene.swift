import Foundation
import FlipbookTesting
import Flipbook
import FlipbookRaster
import FlipbookScene

/// The seed scenes in `scenes/`, rendered and sampled for their tests.
///
/// Golden frames (`Tests/SeedSceneTests/Goldens/<name>.png`, checked with FlipbookTesting's
/// `expectFrame` and ``GoldenOptions/seedGolden``) guard a frame against unintended change;
/// what makes it *right* is checked separately, by each scene's tests, from the tutorial's
/// numbers. `FLIPBOOK_RECORD=1 swift test` rewrites them (review the images before committing).
enum SeedScene {
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

    /// The straight-alpha color of a pixel as 0…255 integers.
    static func rgb(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] {
        let px = p.pixel(x: x, y: y)
        return [Int(px.r), Int(px.g), Int(px.b)]
    }

    /// Columns of row `y` whose color is within `tolerance` of `color`: the horizontal
    /// extent of something drawn in that color.
    static func columns(_ p: Pixmap, row y: Int, matching color: [Int], tolerance: Int = 8)
        -> ClosedRange<Int>?
    {
        let xs = (0..<p.width).filter { x in
            zip(rgb(p, x, y), color).allSatisfy { abs($0 - $1) <= tolerance }
        }
        guard let first = xs.first, let last = xs.last else { return nil }
        return first...last
    }
}

extension GoldenOptions {
    /// Every premultiplied channel within 2 levels of the golden, no pixel beyond:
    /// anti-aliasing and gradient rounding may move a level or two between compilers;
    /// shapes and positions may not.
    static let seedGolden = GoldenOptions(comparison: .channels(tolerance: 2))
}
