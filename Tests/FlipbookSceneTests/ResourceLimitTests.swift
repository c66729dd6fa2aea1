import Foundation
@testable import FlipbookScene
import Testing

/// ResourceLimits: counted from the scene alone, every broken limit reported, counts
/// that cannot overflow.
@Suite struct ResourceLimitTests {
    /// Names settings as `flipbook`'s flags do, so the messages read as users see them.
    static let flags = LimitNaming { setting in
        let names: [ResourceLimits.Setting: String] = [
            .maxPixels: "--max-pixels", .maxFrames: "--max-frames",
            .maxLayers: "--max-layers", .maxPathElements: "--max-path-elements",
            .maxMemory: "--max-memory", .maxKeyframes: "--max-keyframes",
            .maxGradientStops: "--max-gradient-stops", .maxTextLength: "--max-text-length",
            .jobs: "--jobs", .size: "--size", .maxSize: "--max-size", .quality: "--quality",
            .lossy: "--lossy",
        ]
        return names[setting]!
    }

    func limits(
        _ body: String, header: String = header, _ limits: ResourceLimits = .default,
        scale: Double? = nil, fps: Double? = nil, framesInFlight: Int = 2
    ) throws -> [String] {
        limits.violations(
            of: try scene(body, header: header), scale: scale, fps: fps,
            framesInFlight: framesInFlight
        )
        .map { $0.message(naming: Self.flags) }
    }

    @Test func aSceneWithinTheDefaultsPasses() throws {
        #expect(try limits("layers: [{ id: a }]").isEmpty)
    }

    @Test func replicatorsMultiplyThroughNesting() throws {
        let s = try scene(
            """
            layers:
              - id: outer
                instanceCount: 10
                mask: { rect: [0, 0, 1, 1] }
                sublayers:
                  - { id: inner, instanceCount: 20, sublayers: [{ id: dot }, { id: dot2 }] }
                  - { id: plain }
            """)
        // outer + its mask + 10 × (inner + 20 × 2 + plain)
        #expect(ResourceLimits.expandedLayerCount(s.layers) == 2 + 10 * (1 + 40 + 1))
    }

    @Test func layerCountsSaturateInsteadOfOverflowing() throws {
        var body = "layers:\n"
        var indent = "  "
        for i in 0..<8 {
            body +=
                "\(indent)- id: r\(i)\n\(indent)  instanceCount: 100000\n\(indent)  sublayers:\n"
            indent += "    "
        }
        body += "\(indent)- { id: leaf }\n"
        #expect(ResourceLimits.expandedLayerCount(try scene(body).layers) == .max)
        #expect(
            try limits(body) == [
                "the scene has more than \(Int.max) layers with replicator instances expanded, over the limit of 10000; "
                    + "lower instanceCount or raise --max-layers"
            ])
    }

    @Test func scaleAndFpsOverridesCount() throws {
        let header = "canvas: { size: [1000, 1000], fps: 10, duration: 10 }\n"
        #expect(try limits("layers: []", header: header).isEmpty)
        #expect(
            try limits("layers: []", header: header, scale: 9) == [
                "the output would be 9000×9000 px (81 Mpx), over the limit of 67108864 pixels; "
                    + "lower canvas.size or the scale, or raise --max-pixels"
            ])
        #expect(
            try limits("layers: []", header: header, fps: 2000) == [
                "the scene has 20000 frames (10 s at 2000 fps), over the limit of 10000; "
                    + "shorten canvas.duration or raise --max-frames"
            ])
    }

    @Test func memoryCountsFramesInFlight() throws {
        let header = "canvas: { size: [4096, 4096] }\n"  // 64 MiB a frame
        #expect(try limits("layers: []", header: header).isEmpty)
        #expect(
            try limits("layers: []", header: header, framesInFlight: 66) == [
                "rendering needs about 4.1 GiB (66 frames of 64 MiB in flight), over the limit of 2 GiB; "
                    + "lower --jobs, the size or the scale, or raise --max-memory"
            ])
    }

    @Test func violationsAreDataNamedByTheCaller() throws {
        let header = "canvas: { size: [100, 100], fps: 10, duration: 2 }\n"
        let found = ResourceLimits(maxFrames: 5).violations(
            of: try scene("layers: []", header: header))
        #expect(found == [LimitViolation(.frames(count: 20, duration: 2, fps: 10), limit: 5)])
        #expect(found.first?.setting == .maxFrames)
        #expect(
            found.first?.message(naming: .properties)
                == "the scene has 20 frames (2 s at 10 fps), over the limit of 5; shorten canvas.duration or raise "
                + "ResourceLimits.maxFrames")
    }

    @Test func pathElementsAreSummedOverLayers() throws {
        let body = """
            layers:
              - { id: a, path: "M0 0 L1 1 L2 2 Z" }
              - { id: b, instanceCount: 5, sublayers: [{ id: c, path: "M0 0 C1 1 2 2 3 3" }] }
            """
        #expect(ResourceLimits.pathElementCount(try scene(body).layers) == 6)
        #expect(
            try limits(body, ResourceLimits(maxPathElements: 5)) == [
                "the scene's paths have 6 elements, over the limit of 5; simplify them or raise --max-path-elements"
            ])
    }

    @Test func absurdNumbersDoNotTrap() throws {
        let header = "canvas: { size: [1e300, 1e300], scale: 1e10, fps: 1e300, duration: 1e300 }\n"
        let s = try scene("layers: []", header: header)
        #expect(s.canvas.frameCount == 1 << 62)
        #expect(s.canvas.pixelSize().width == 1 << 62)
        #expect(try limits("layers: []", header: header).count == 2)
        // sides and frames stay finite checks
        #expect(ResourceLimits.unlimited.violations(of: s).count == 2)
    }

    @Test func imagesAreCheckedBySize() {
        #expect(ResourceLimits.default.imageViolation(width: 8192, height: 8192) == nil)
        #expect(
            ResourceLimits.default.imageViolation(width: 8193, height: 8192)
                == LimitViolation(.imagePixels(width: 8193, height: 8192), limit: 8192 * 8192))
        #expect(
            ResourceLimits(maxMemory: 1 << 20).imageViolation(width: 1024, height: 1024)?.message(
                naming: Self.flags)
                == "the image is 1024×1024 px and would take 4 MiB, over the limit of 1 MiB; raise --max-memory to load it"
        )
    }
}

/// Asset, image and font paths that leave the scene's folder.
@Suite struct OutsideAssetTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "flipbook-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: path + "/scene/art", withIntermediateDirectories: true)
        for file in ["/outside.png", "/scene/art/inside.png"] {
            FileManager.default.createFile(atPath: path + file, contents: Data([1]))
        }
        try FileManager.default.createSymbolicLink(
            atPath: path + "/scene/art/link.png", withDestinationPath: "../../outside.png")
        try FileManager.default.createSymbolicLink(
            atPath: path + "/scene/inner.png", withDestinationPath: "art/inside.png")
        return path
    }

    func problems(_ body: String, in folder: String, allow: Bool = false) -> [String] {
        let file = folder + "/scene/s.yaml"
        try? ("canvas: { size: [10, 10] }\n" + body).write(
            toFile: file, atomically: true, encoding: .utf8)
        do {
            _ = try SceneLoader.load(path: file, options: .init(allowOutsideAssets: allow))
            return []
        } catch {
            return error.diagnostics.map {
                $0.description.replacingOccurrences(of: folder, with: "$T")
            }
        }
    }

    @Test func pathsInsideTheFolderAreFine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(
            problems(
                "assets: { a: art/inside.png, b: ./art/../art/inside.png, c: inner.png }",
                in: folder) == [])
    }

    @Test func dotDotAbsoluteAndSymlinksAreRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path.replacingOccurrences(
            of: folder, with: "$T")
        let outside = real.hasPrefix("$T") ? "$T/outside.png" : real + "/outside.png"
        let absolute = folder + "/outside.png"
        #expect(
            problems(
                "assets: { a: ../outside.png, b: \(absolute) }\nlayers: [{ id: l, contents: art/link.png }]",
                in: folder) == [
                    "$T/scene/s.yaml:2:14: assets.a: asset `a`: `../outside.png` leads outside the scene's folder (to `\(outside)`); pass --allow-outside-assets to allow it",
                    "$T/scene/s.yaml:2:33: assets.b: asset `b`: `$T/outside.png` leads outside the scene's folder (to `\(outside)`); pass --allow-outside-assets to allow it",
                    "$T/scene/s.yaml:3:29: layers[0] (l).contents: image `art/link.png`: `art/link.png` leads outside the scene's folder (to `\(outside)`); pass --allow-outside-assets to allow it",
                ])
        #expect(
            problems(
                "assets: { a: ../outside.png, b: \(absolute) }\nlayers: [{ id: l, contents: art/link.png }]",
                in: folder, allow: true) == [])
    }

    @Test func fontFilesToo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/font.ttf", contents: Data([1]))
        let found = problems(
            "layers: [{ id: t, text: { string: hi, font: ../font.ttf } }]", in: folder)
        #expect(
            found.count == 1
                && found[0].contains(
                    "font `../font.ttf`: `../font.ttf` leads outside the scene's folder")
        )
    }
}
