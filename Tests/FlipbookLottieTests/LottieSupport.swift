import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookDiff
import FlipbookRaster
import FlipbookScene
import FlipbookTesting

/// Shared by the Lottie suites: where the files are, how a snapshot is rendered, and the
/// issue's agreement metric (pixelmatch threshold 0.1 over white, anti-aliased pixels not counted,
/// at most 1.5 % of pixels different) through FlipbookTesting.
enum LottieSupport {
    static let fixtures = GoldenCheck.folder("Fixtures")
    static let malformed = GoldenCheck.folder("Malformed")
    static let corpusGoldens = GoldenCheck.folder("Corpus")
    /// The 86-file Lottie corpus, vendored in Tests/LottieCorpus (ThorVG's examples, MIT: see its README).
    static let corpus = URL(fileURLWithPath: GoldenCheck.folder("../LottieCorpus"))
        .standardizedFileURL.path

    static let agreement = DiffOptions(
        threshold: 0.1, includeAntiAliased: false, maxDiffRatio: 0.015,
        backdrop: .white)

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Renders `file` at `progress` percent into exactly `width`×`height` pixels, as
    /// `flipbook still --at P% --size WxH` does.
    static func still(_ file: String, progress: Double, width: Int, height: Int) throws -> Pixmap {
        let scene = try SceneFile.load(path: file)
        let seconds = StillTime.progress(progress).seconds(in: scene.canvas)
        return try StillFrame.render(scene, at: seconds, size: (width, height))
    }

    /// Checks a render against an independent golden (never re-recorded from our output:
    /// `record` is off whatever the environment says).
    static func check(_ image: Pixmap, goldenFolder: String, named name: String) throws
        -> GoldenResult
    {
        try GoldenCheck(goldenFolder: goldenFolder, options: agreement, record: false).verify(
            frame: image, named: name)
    }

    static func size(ofPNG path: String) throws -> (Int, Int) {
        let image = try PNGCodec.read(path: path)
        return (image.width, image.height)
    }
}
