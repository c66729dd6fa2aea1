import Foundation
import Testing
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline
import Flipbook
@testable import FlipbookRender

/// Image contents through the whole path: a PNG asset written with libpng, loaded by the
/// scene loader, placed by contentsGravity, sampled bilinearly.
@Suite struct ImageContentTests {
    /// A 4×2 image: left half opaque red, right half opaque blue.
    static func writeAsset(in folder: String) throws {
        var straight: [UInt8] = []
        for _ in 0..<2 {
            for x in 0..<4 { straight += x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        }
        try PNGCodec.write(
            Pixmap(width: 4, height: 2, straightRGBA: straight), to: folder + "/pic.png")
    }

    static func render(gravity: String) throws -> Pixmap {
        let folder = NSTemporaryDirectory() + "flipbook-image-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeAsset(in: folder)
        try """
        version: 1
        canvas: { size: [40, 40], snap: none, background: white }
        assets: { pic: pic.png }
        layers:
          - { id: photo, frame: [0, 0, 40, 40], contents: pic, contentsGravity: \(gravity) }
        """.write(toFile: folder + "/scene.yaml", atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: folder + "/scene.yaml")
        return try SceneRenderer(scene: scene).renderFrame(0)
    }

    static func rgb(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] {
        let px = p.pixel(x: x, y: y)
        return [Int(px.r), Int(px.g), Int(px.b)]
    }

    /// resize stretches 4×2 px over 40×40 pt: the left 20 columns are red, the right 20
    /// blue, with a bilinear blend only next to x = 20 (image x = 2 at the seam).
    @Test func resizeFillsTheBounds() throws {
        let out = try Self.render(gravity: "resize")
        #expect(Self.rgb(out, 5, 5) == [255, 0, 0])
        #expect(Self.rgb(out, 35, 35) == [0, 0, 255])
        let seam = Self.rgb(out, 19, 20)
        #expect(seam[0] > 128 && seam[2] > 0 && seam[0] + seam[2] >= 254)
    }

    /// resizeAspect fits 4×2 into 40×40 at scale 10: 40×20 pt centered, rows 10…30; the
    /// rows above and below stay white.
    @Test func resizeAspectLetterboxes() throws {
        let out = try Self.render(gravity: "resizeAspect")
        #expect(Self.rgb(out, 5, 5) == [255, 255, 255])
        #expect(Self.rgb(out, 5, 15) == [255, 0, 0])
        #expect(Self.rgb(out, 35, 25) == [0, 0, 255])
        #expect(Self.rgb(out, 35, 35) == [255, 255, 255])
    }

    /// resizeAspectFill covers 40×40 at scale 20: 80×40 pt centered, so x from −20 to 60;
    /// the seam (image x = 2) lands on x = 20 again and the whole layer is painted.
    @Test func resizeAspectFillCovers() throws {
        let out = try Self.render(gravity: "resizeAspectFill")
        #expect(Self.rgb(out, 1, 1) == [255, 0, 0])
        #expect(Self.rgb(out, 38, 38) == [0, 0, 255])
    }

    /// center keeps the natural size (one point per pixel): a 4×2 patch at (18, 19).
    @Test func centerKeepsNaturalSize() throws {
        let out = try Self.render(gravity: "center")
        #expect(Self.rgb(out, 18, 19) == [255, 0, 0])
        #expect(Self.rgb(out, 21, 20) == [0, 0, 255])
        #expect(Self.rgb(out, 17, 19) == [255, 255, 255])
        #expect(Self.rgb(out, 18, 21) == [255, 255, 255])
    }
}

/// SceneRenderer checks ResourceLimits before loading anything, so library users are
/// protected as the CLI is.
@Suite struct RendererLimitTests {
    @Test func aHugeCanvasIsRefusedBeforeRendering() throws {
        let scene = try SceneLoader.parse(
            "canvas: { size: [100000, 100000] }\nlayers: [{ id: a }]\n", path: nil)
        do {
            _ = try SceneRenderer(scene: scene)
            Issue.record("accepted")
        } catch let error as ResourceLimitError {
            #expect(
                error.description
                    == "the output would be 100000×100000 px; neither side may exceed 65535 px")
        }
    }

    @Test func anImageOverTheLimitIsRefusedFromItsHeader() throws {
        let folder = NSTemporaryDirectory() + "flipbook-limit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ImageContentTests.writeAsset(in: folder)
        try
            "canvas: { size: [2, 2] }\nlayers: [{ id: p, frame: [0, 0, 2, 2], contents: pic.png }]\n"
            .write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: folder + "/s.yaml")
        #expect(throws: Never.self) { try SceneRenderer(scene: scene) }
        do {
            _ = try SceneRenderer(scene: scene, limits: ResourceLimits(maxPixels: 7))
            Issue.record("accepted")
        } catch {
            // A library caller is told the property to raise (the CLI names its flag).
            #expect(
                "\(error)".hasSuffix(
                    "could not be read: the image is 4×2 px (8 pixels), over the limit of 7 pixels; "
                        + "raise ResourceLimits.maxPixels to load it"))
        }
    }
}
