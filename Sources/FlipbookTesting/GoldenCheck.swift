import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookDiff
import FlipbookRaster
import FlipbookScene

/// Snapshot testing of scenes against golden frames: the core of `flipbook check` and of
/// test suites, independent of any test framework (failures come back as a
/// ``GoldenResult`` whose `failureMessage` a test records, e.g. with Swift Testing's
/// `Issue.record`).
///
/// Layout: the golden of frame i is `goldenFolder/frame-NNNN.png` (the names
/// `flipbook render --format png` writes); a frame rendered at an arbitrary time has a
/// golden named by the caller (`goldenFolder/<name>.png`).
///
/// Rules:
/// - comparing: each rendered frame with its golden, by ``SequenceComparator``'s rules
///   (``DiffOptions`` threshold, anti-aliasing, ignore regions, tolerance); a missing
///   golden fails; when the whole scene is checked, goldens `frame-NNNN.png` beyond the
///   scene's last frame make the frame counts differ and fail;
/// - recording (`record`, or the environment variable `FLIPBOOK_RECORD=1`): the rendered
///   frames are written as goldens (folder created, files replaced) and nothing fails;
///   when the whole scene is recorded, stale `frame-NNNN.png` beyond its last frame are
///   removed;
/// - diff images (expected | highlighted difference | actual) go to `diffFolder`, named
///   `diff-NNNN.png` by frame index (`<name>.png` for named frames).
public struct GoldenCheck: Sendable {
    public var goldenFolder: String
    /// Where diff images are written; nil writes none.
    public var diffFolder: String?
    public var options: DiffOptions
    public var record: Bool

    /// `diffFolder` defaults to `$FLIPBOOK_DIFF_DIR/<golden folder name>` when that
    /// variable is set, else to `<temporary folder>/flipbook-diffs/<golden folder name>`.
    public init(goldenFolder: String, diffFolder: String? = nil, options: DiffOptions = DiffOptions(),
                record: Bool = GoldenCheck.recordRequested) {
        self.goldenFolder = goldenFolder
        let leaf = URL(fileURLWithPath: goldenFolder).lastPathComponent
        let base = ProcessInfo.processInfo.environment["FLIPBOOK_DIFF_DIR"]
            ?? (NSTemporaryDirectory() + "flipbook-diffs")
        self.diffFolder = diffFolder ?? (base + "/" + leaf)
        self.options = options
        self.record = record
    }

    /// Whether `FLIPBOOK_RECORD` is set to 1, true or yes.
    public static var recordRequested: Bool {
        ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment["FLIPBOOK_RECORD"]?.lowercased() ?? "")
    }

    /// A folder named relative to the folder of a source file: `folder("Goldens/login")`
    /// called from a test file resolves beside that file.
    public static func folder(_ relative: String, besideFile file: String = #filePath) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(relative).path
    }

    /// Renders the scene file's frames (all, or `frames`) and checks them.
    public func verify(scene path: String, scale: Double? = nil, fps: Double? = nil,
                       frames: ClosedRange<Int>? = nil) throws -> GoldenResult {
        let renderer = try SceneRenderer(scene: SceneFile.load(path: path), scale: scale, fps: fps)
        return try verify(renderer: renderer, frames: frames, label: path)
    }

    /// Renders frames of a prepared renderer (all, or `frames` clamped to the scene) and
    /// checks them.
    public func verify(renderer: SceneRenderer, frames: ClosedRange<Int>? = nil,
                       label: String = "scene") throws -> GoldenResult {
        let whole = 0...(renderer.frameCount - 1)
        let range = frames.map { $0.clamped(to: whole) } ?? whole
        var rendered: [Pixmap] = []
        try OrderedParallelMap.run(count: range.count, jobs: ProcessorCount.online,
                                   produce: { renderer.renderFrame(range.lowerBound + $0) },
                                   consume: { _, frame in rendered.append(frame) })
        let indexed = zip(range, rendered).map { (index: $0, image: $1) }
        return try verify(frames: indexed, wholeCount: range == whole ? renderer.frameCount : nil, label: label)
    }

    /// Renders the scene at `seconds` and checks it against `goldenFolder/<name>.png`
    /// (default name: `at-<seconds with 3 decimals>s`).
    public func verify(scene path: String, at seconds: Double, named name: String? = nil,
                       scale: Double? = nil) throws -> GoldenResult {
        let renderer = try SceneRenderer(scene: SceneFile.load(path: path), scale: scale)
        return try verify(frame: renderer.renderFrame(at: seconds),
                          named: name ?? String(format: "at-%.3fs", seconds), label: path)
    }

    /// Checks one image against `goldenFolder/<name>.png`.
    public func verify(frame: Pixmap, named name: String, label: String = "frame") throws -> GoldenResult {
        let file = name.hasSuffix(".png") ? name : name + ".png"
        let stem = String(file.dropLast(4))
        return try compare([(file: file, diffName: stem + ".png", image: frame)], extraGoldens: [], label: label)
    }

    /// Checks frames given with their frame indices against `frame-NNNN.png` goldens.
    /// `wholeCount`, when the frames are a whole scene, makes goldens beyond it count.
    public func verify(frames: [(index: Int, image: Pixmap)], wholeCount: Int? = nil,
                       label: String = "frames") throws -> GoldenResult {
        let items = frames.map { (file: PNGSequenceExporter.fileName(ofFrame: $0.index),
                                  diffName: SequenceComparator.diffImageName(index: $0.index), image: $0.image) }
        var extra: [String] = []
        if let wholeCount {
            extra = existingGoldenIndices().filter { $0 >= wholeCount }.map(PNGSequenceExporter.fileName(ofFrame:))
        }
        return try compare(items, extraGoldens: extra, label: label)
    }

    /// Frame indices of the `frame-NNNN.png` files in the golden folder.
    func existingGoldenIndices() -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: goldenFolder)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
            return Int(name.dropFirst(6).dropLast(4))
        }.sorted()
    }

    private func compare(_ items: [(file: String, diffName: String, image: Pixmap)], extraGoldens: [String],
                         label: String) throws -> GoldenResult {
        if record { return try write(items, stale: extraGoldens, label: label) }
        var outcomes: [FrameOutcome] = []
        var missing: [String] = []
        var found = 0
        if let diffFolder { try? FileManager.default.createDirectory(atPath: diffFolder, withIntermediateDirectories: true) }
        for item in items {
            let path = goldenFolder + "/" + item.file
            guard FileManager.default.fileExists(atPath: path) else { missing.append(path); continue }
            let golden: Pixmap
            do { golden = try PNGCodec.read(path: path) } catch { throw GoldenError(message: error.message) }
            found += 1
            var outcome = SequenceComparator.comparePair(
                index: outcomes.count, expected: NamedFrame(image: golden, name: item.file),
                actual: NamedFrame(image: item.image, name: item.file), options: options,
                diffFolder: diffFolder, diffImageName: item.diffName)
            if let index = Int(item.file.dropFirst(6).dropLast(4)), item.file.hasPrefix("frame-") {
                outcome.index = index
            }
            outcomes.append(outcome)
        }
        let diff = SequenceDiff(expectedSource: goldenFolder, actualSource: label,
                                expectedCount: found + extraGoldens.count, actualCount: found + missing.count,
                                options: options, frames: outcomes, missing: missing)
        return GoldenResult(diff: diff, recorded: [], goldenFolder: goldenFolder, label: label)
    }

    private func write(_ items: [(file: String, diffName: String, image: Pixmap)], stale: [String],
                       label: String) throws -> GoldenResult {
        do {
            try FileManager.default.createDirectory(atPath: goldenFolder, withIntermediateDirectories: true)
        } catch { throw GoldenError(message: "\(goldenFolder): \(error.localizedDescription)") }
        var written: [String] = []
        for item in items {
            let path = goldenFolder + "/" + item.file
            do { try PNGCodec.write(item.image, to: path) } catch { throw GoldenError(message: error.message) }
            written.append(path)
        }
        for name in stale { try? FileManager.default.removeItem(atPath: goldenFolder + "/" + name) }
        let diff = SequenceDiff(expectedSource: goldenFolder, actualSource: label, expectedCount: items.count,
                                actualCount: items.count, options: options, frames: [])
        return GoldenResult(diff: diff, recorded: written, goldenFolder: goldenFolder, label: label)
    }
}

/// A golden that exists but cannot be read, or one that cannot be written.
public struct GoldenError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
