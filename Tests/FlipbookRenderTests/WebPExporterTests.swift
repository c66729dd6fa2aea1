import Foundation
import Testing
import Flipbook
import FlipbookBatch
import FlipbookCodecs
import FlipbookScene

/// `WebPExporter`: a rendered scene written as an animated WebP in segments, read back
/// through libwebp's animation decoder.
@Suite struct WebPExporterTests {
    /// 1025 frames at 25 fps: two segments (1024 + 1 frames); a transparent canvas, so
    /// libwebp crops the second segment's first frame and the exporter must repair it.
    static let scene = """
        version: 1
        canvas: { size: [48, 32], scale: 1, fps: 25, duration: 41, background: clear }
        layers:
          - { id: dot, frame: [2, 2, 12, 12], cornerRadius: 6, backgroundColor: "#00ff0080" }
          - { id: bar, frame: [0, 26, 48, 6], backgroundColor: "#3366ffcc" }
        animations:
          - { layer: dot, keyPath: position.x, from: 8, to: 40, duration: 41, curve: easeInEaseOut }
          - { layer: bar, keyPath: opacity, from: 1, to: 0.1, duration: 41 }
        """

    static func renderer() throws -> SceneRenderer {
        try SceneRenderer(scene: SceneLoader.parse(scene, path: nil))
    }

    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "flipbook-webp-" + UUID().uuidString + ".webp"
    }

    @Test func losslessExportIsExactTimedAndIndependentOfJobs() throws {
        let renderer = try Self.renderer()
        #expect(renderer.frameCount == 1025 && renderer.frameCount > WebPExporter.segmentLength)
        let one = Self.temporaryPath(), two = Self.temporaryPath()
        defer { for p in [one, two] { try? FileManager.default.removeItem(atPath: p) } }
        let options = WebPEncodingOptions(lossless: true)
        let exporter = WebPExporter(
            options: options, chunk: ContentHash.webpChunk(String(repeating: "ab", count: 32)))
        let size = try exporter.export(renderer, frames: 0...1024, to: one, jobs: 1)
        try exporter.export(renderer, frames: 0...1024, to: two, jobs: 2)
        let bytes = try FileIO.readAll(path: one)
        #expect(bytes.count == size)
        #expect(try FileIO.readAll(path: two) == bytes, "the bytes depend on --jobs")
        #expect(ContentHash.stored(inWebP: one) == String(repeating: "ab", count: 32))

        try Self.expectTicks(WebPAnimationReader.decode(bytes), renderer, 0...1024)
    }

    /// Lossy frames, written by the chooser's own assembly: two segments as well, the same
    /// bytes for any `--jobs`, and every 40 ms tick kept (repeats lengthen the frame before).
    @Test func lossyExportIsIndependentOfJobsAndKeepsEveryTick() throws {
        let renderer = try Self.renderer()
        let one = Self.temporaryPath(), two = Self.temporaryPath()
        defer { for p in [one, two] { try? FileManager.default.removeItem(atPath: p) } }
        let exporter = WebPExporter(options: WebPEncodingOptions())
        try exporter.export(renderer, frames: 0...1024, to: one, jobs: 1)
        try exporter.export(renderer, frames: 0...1024, to: two, jobs: 2)
        let bytes = try FileIO.readAll(path: one)
        #expect(try FileIO.readAll(path: two) == bytes, "the bytes depend on --jobs")
        let decoded = try WebPAnimationReader.decode(bytes)
        #expect(decoded.durations.allSatisfy { $0 > 0 && $0 % 40 == 0 })
        #expect(decoded.durations.reduce(0, +) == 1025 * 40)
    }

    /// libwebp merges a frame identical to the one before into its duration (the slow fade
    /// repeats some): every 40 ms tick shows the frame rendered for it.
    /// When every frame is the same, libwebp and libwebpmux write a still image (no
    /// duration): it must show every frame of the range.
    static func expectTicks(
        _ decoded: WebPAnimationDecoded, _ renderer: SceneRenderer, _ range: ClosedRange<Int>
    ) {
        if decoded.durations == [0] {
            for k in range {
                #expect(decoded.frames[0].data == renderer.renderFrame(k).data, "frame \(k)")
            }
            return
        }
        var k = range.lowerBound
        for (frame, duration) in zip(decoded.frames, decoded.durations) {
            #expect(duration % 40 == 0, "\(duration) ms")
            for _ in 0..<duration / 40 {
                #expect(frame.data == renderer.renderFrame(k).data, "frame \(k)")
                k += 1
            }
        }
        #expect(k == range.upperBound + 1)
    }

    @Test func frameRangeStartsAtItsFirstFrame() throws {
        let renderer = try Self.renderer()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WebPExporter(options: WebPEncodingOptions(lossless: true)).export(
            renderer, frames: 10...19, to: path, jobs: 2)
        let decoded = try WebPAnimationReader.decode(FileIO.readAll(path: path))
        Self.expectTicks(decoded, renderer, 10...19)
        #expect(ContentHash.stored(inWebP: path) == nil)
    }
}
