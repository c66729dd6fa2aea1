import Foundation
@testable import FlipbookScene
import Testing

/// Scenes read from disk: asset resolution, JSON, unreadable files.
@Suite struct FileLoadingTests {
    /// A fresh folder holding `art/owl.png` (the loader only checks that it exists).
    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("art"), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: dir.appendingPathComponent("art/owl.png"))
        return dir
    }

    let yaml = """
        version: 1
        canvas: { size: [200, 100], scale: 2, background: "#102030" }
        assets:
          owl: art/owl.png
        layers:
          - id: pic
            frame: [10, 10, 50, 50]
            contents: owl
            contentsGravity: resizeAspectFill
          - id: direct
            contents: art/../art/owl.png
          - id: bar
            rect: [0, 0, 20, 4]
            cornerRadius: 2
            fillColor: [1, 0.5, 0]
            transform: { translation: [{ follow: pic.position.x, map: [[0, 0], [100, 50]] }, 0] }
        animations:
          - { layer: bar, keyPath: strokeEnd, values: [0, 1], duration: 2, repeat: infinity }
          - at: 0.5
            duration: 1
            spring: { dampingRatio: 0.7, initialVelocity: 1 }
            set: { pic.frame: [0, 0, 100, 100], bar.fillColor: red }
        """

    let json = """
        {
          "version": 1,
          "canvas": { "size": [200, 100], "scale": 2, "background": "#102030" },
          "assets": { "owl": "art/owl.png" },
          "layers": [
            { "id": "pic", "frame": [10, 10, 50, 50], "contents": "owl", "contentsGravity": "resizeAspectFill" },
            { "id": "direct", "contents": "art/../art/owl.png" },
            { "id": "bar", "rect": [0, 0, 20, 4], "cornerRadius": 2, "fillColor": [1, 0.5, 0],
              "transform": { "translation": [{ "follow": "pic.position.x", "map": [[0, 0], [100, 50]] }, 0] } }
          ],
          "animations": [
            { "layer": "bar", "keyPath": "strokeEnd", "values": [0, 1], "duration": 2, "repeat": "infinity" },
            { "at": 0.5, "duration": 1, "spring": { "dampingRatio": 0.7, "initialVelocity": 1 },
              "set": { "pic.frame": [0, 0, 100, 100], "bar.fillColor": "red" } }
          ]
        }
        """

    @Test func assetsResolveAgainstTheScenesFolder() throws {
        let dir = try folder()
        let file = dir.appendingPathComponent("scene.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let s = try SceneLoader.load(path: file.path)
        let owl = dir.appendingPathComponent("art/owl.png").standardizedFileURL.path
        #expect(s.assets == ["owl": owl, "art/../art/owl.png": owl])
        guard case .image(let image) = s.layers[0].content,
            case .image(let direct) = s.layers[1].content
        else {
            Issue.record("not images")
            return
        }
        #expect(image.asset == "owl" && image.gravity == .resizeAspectFill)
        #expect(direct.asset == "art/../art/owl.png" && direct.gravity == .resize)
        #expect(s.name == "scene")
        // the spring ends at 0.5 + 1; the endless keyframes do not count
        #expect(s.canvas.duration == 1.5)
    }

    @Test func jsonLoadsLikeYAML() throws {
        let dir = try folder()
        let yamlFile = dir.appendingPathComponent("a.yaml"),
            jsonFile = dir.appendingPathComponent("a.json")
        try yaml.write(to: yamlFile, atomically: true, encoding: .utf8)
        try json.write(to: jsonFile, atomically: true, encoding: .utf8)
        let a = try SceneLoader.load(path: yamlFile.path)
        let b = try SceneLoader.load(path: jsonFile.path)
        #expect("\(a.canvas)" == "\(b.canvas)")
        #expect(a.assets == b.assets)
        func unlined(_ list: [Layer]) -> String {
            "\(list.map { var l = $0; l.line = nil; return l })"
        }
        #expect(unlined(a.layers) == unlined(b.layers))
        #expect(a.animations.count == 2)
        // Lines differ between the two files; everything else must match.
        func stripped(_ list: [Animation]) -> String {
            "\(list.map { var x = $0; x.line = nil; x.targets = x.targets.map { var t = $0; t.line = nil; return t }; return x })"
        }
        #expect(stripped(a.animations) == stripped(b.animations))
        #expect(a.layers[2].follows.first?.component == "transform.translation.x")
    }

    @Test func missingFilesAreNamed() throws {
        let dir = try folder()
        let file = dir.appendingPathComponent("broken.yml")
        try """
        canvas: { size: [10, 10] }
        assets: { cat: art/cat.png }
        layers:
          - { id: a, contents: cat }
          - { id: b, contents: pics/dog.png }
          - { id: c, contents: owl.png }
        """.write(to: file, atomically: true, encoding: .utf8)
        let root = dir.standardizedFileURL.path
        #expect(throws: (any Error).self) { try SceneLoader.load(path: file.path) }
        do {
            _ = try SceneLoader.load(path: file.path)
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "\(file.path):2:16: assets.cat: asset `cat`: no file at `\(root)/art/cat.png`",
                    "\(file.path):5:24: layers[1] (b).contents: image `pics/dog.png`: no file at `\(root)/pics/dog.png`",
                    "\(file.path):6:24: layers[2] (c).contents: image `owl.png`: no file at `\(root)/owl.png`",
                ])
        }
    }

    @Test func unreadableFile() {
        #expect(throws: (any Error).self) { try SceneLoader.load(path: "/nonexistent/scene.yaml") }
        do {
            _ = try SceneLoader.load(path: "/nonexistent/scene.yaml")
        } catch {
            #expect(error.description == "/nonexistent/scene.yaml: cannot read the scene file")
        }
    }
}
