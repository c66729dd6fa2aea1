import Foundation
import Testing
import Flipbook
import FlipbookScene
import FlipbookCodecs
import FlipbookRaster
@testable import FlipbookPreview

/// The preview's reload rules on real scene files: a good load bumps the generation, a
/// broken one keeps the last good scene and carries the errors, the watcher notices the
/// scene file and its assets, and listeners get every state. (The page and the HTTP
/// routes are driven in Chromium by Tests/Browser.)
@Suite struct PreviewSessionTests {
    static let scene = """
        version: 1
        canvas: { size: [20, 10], scale: 1, fps: 10, duration: 0.5 }
        layers:
          - { id: box, frame: [0, 0, 5, 5], backgroundColor: red }
        """

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "flipbook-preview-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// What the CLI hands the server, minus the limit options: the loader's diagnostics as
    /// the messages.
    static func prepare(_ path: String) -> PreviewPrepare {
        { scale in
            do {
                return .success(
                    try SceneRenderer(scene: SceneLoader.load(path: path), scale: scale))
            } catch {
                return .failure(PreviewProblem(messages: ["\(error)"]))
            }
        }
    }

    @Test func reloadKeepsTheLastGoodSceneUnderErrors() async throws {
        let dir = try Self.folder(), path = dir + "/s.yaml"
        try Self.scene.write(toFile: path, atomically: true, encoding: .utf8)
        let session = PreviewSession(scenePath: path, prepare: Self.prepare(path))
        await session.reload()
        #expect(await session.generation == 1)
        #expect(await session.errors.isEmpty)
        #expect(await session.reloadIfChanged() == false)

        try Self.scene.replacingOccurrences(of: "backgroundColor: red", with: "backgroundColor: 12")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await session.reloadIfChanged())
        #expect(await session.generation == 1)
        let errors = await session.errors
        #expect(errors.count == 1 && errors[0].hasPrefix(path + ":4:"), "\(errors)")
        // The last good scene still renders: 5 frames at 10 fps.
        guard case .success(let renderer)? = await session.renderer(scale: nil) else {
            Issue.record("no renderer kept"); return
        }
        #expect(renderer.frameCount == 5)
        #expect(await session.stateJSON(scale: nil).contains("\"frameCount\":5"))

        try Self.scene.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await session.reloadIfChanged())
        #expect(await session.generation == 2)
        #expect(await session.errors.isEmpty)
    }

    /// A Lottie file saved with `1e308` where an integer goes, or a literal NaN, while the
    /// preview runs (the server trapped converting the first before: exit 132). A literal
    /// NaN is not JSON: the error goes to the banner and the last good animation keeps
    /// playing. `1e308` as a layer type is a layer players pass over (issue 24 §1): the new
    /// file plays without it, its warning at the JSON path in the state.
    @Test(arguments: [#""ty":1e308"#, #""ip":NaN"#])
    func hostileLottieSaveIsAnErrorNotACrash(_ replacement: String) async throws {
        let dir = try Self.folder(), path = dir + "/a.json"
        let good =
            ##"{"v":"5.7.0","fr":10,"ip":0,"op":5,"w":20,"h":10,"layers":[{"ty":1,"ip":0,"op":5,"sw":5,"sh":5,"sc":"#ff0000","ks":{}}]}"##
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let prepare: PreviewPrepare = { scale in
            do {
                return .success(try SceneRenderer(scene: SceneFile.load(path: path), scale: scale))
            } catch {
                return .failure(PreviewProblem(messages: ["\(error)"]))
            }
        }
        let session = PreviewSession(scenePath: path, prepare: prepare)
        await session.reload()
        #expect(await session.generation == 1)
        let hostile =
            replacement.hasPrefix(#""ty""#)
            ? good.replacingOccurrences(of: #""ty":1"#, with: replacement)
            : good.replacingOccurrences(
                of: #""ip":0,"op":5,"sw""#, with: replacement + #","op":5,"sw""#)
        try hostile.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await session.reloadIfChanged())
        let errors = await session.errors
        if replacement.hasPrefix(#""ty""#) {
            #expect(errors.isEmpty, "\(errors)")
            let state = await session.stateJSON(scale: nil)
            #expect(state.contains("layers[0].ty") && state.contains("1e+308"), "\(state)")
        } else {
            #expect(
                errors.count == 1 && errors[0].contains("not valid Lottie JSON: `NaN`"),
                "\(errors)")
        }
        guard case .success(let renderer)? = await session.renderer(scale: nil) else {
            Issue.record("no renderer kept"); return
        }
        #expect(renderer.frameCount == 5)
    }

    /// What a Lottie file renders without reaches the page as `info` prints it: by layer
    /// and feature, with the message; a scene without any has an empty list.
    @Test func sceneWarningsAreInTheState() async throws {
        let dir = try Self.folder(), path = dir + "/a.json"
        let lottie =
            ##"{"v":"5.7.0","fr":10,"ip":0,"op":5,"w":20,"h":10,"layers":[{"ty":1,"nm":"solid","ip":0,"op":5,"sw":5,"sh":5,"sc":"#ff0000","ks":{"o":{"a":0,"k":100,"x":"value"}}}]}"##
        try lottie.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SceneFile.load(path: path)
        #expect(!scene.warnings.isEmpty)
        let session = PreviewSession(
            scenePath: path,
            prepare: { scale in
                Result { try SceneRenderer(scene: SceneFile.load(path: path), scale: scale) }
                    .mapError { PreviewProblem(messages: ["\($0)"]) }
            })
        await session.reload()
        let state =
            try JSONSerialization.jsonObject(with: Data(await session.stateJSON(scale: nil).utf8))
            as? [String: Any]
        let warnings = state?["warnings"] as? [[String: String]]
        #expect(
            warnings
                == scene.warnings.map { w in
                    ["feature": w.feature, "message": w.message].merging(
                        w.layer.map { ["layer": $0] } ?? [:]
                    ) { a, _ in a }
                })
        #expect(
            warnings?.first == [
                "layer": "solid", "feature": "expressions", "message": "layer `solid`: expressions",
            ])

        let yaml = dir + "/s.yaml"
        try Self.scene.write(toFile: yaml, atomically: true, encoding: .utf8)
        let plain = PreviewSession(scenePath: yaml, prepare: Self.prepare(yaml))
        await plain.reload()
        #expect(await plain.stateJSON(scale: nil).contains(#""warnings":[]"#))
    }

    @Test func assetsAreWatchedAndListenersHearEveryState() async throws {
        let dir = try Self.folder(), path = dir + "/s.yaml"
        try PNGCodec.write(
            Pixmap(width: 1, height: 1, straightRGBA: [255, 255, 255, 255]), to: dir + "/dot.png")
        try
            (Self.scene
            + "\n  - { id: dot, frame: [10, 0, 5, 5], contents: dot }\nassets: { dot: dot.png }\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let session = PreviewSession(scenePath: path, prepare: Self.prepare(path))
        await session.reload()
        let loaded = await session.errors
        #expect(loaded.isEmpty, "\(loaded)")
        #expect(await session.watchedFiles().contains { $0.hasSuffix("/dot.png") })
        let (id, stream) = await session.listen()
        var messages = stream.makeAsyncIterator()
        #expect(await messages.next()?.hasPrefix("event: state\ndata: {") == true)
        try FileManager.default.removeItem(atPath: dir + "/dot.png")
        #expect(await session.reloadIfChanged())
        let broken = await messages.next() ?? ""
        #expect(broken.contains("dot.png"), "\(broken)")
        await session.stopListening(id)
        #expect(await messages.next() == nil)
    }
}
