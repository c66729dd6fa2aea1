import Foundation
import Testing
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline
@testable import FlipbookRender

/// Full-canvas solid layers composited into the starting color (``BackgroundFolding``)
/// give the bytes a full render gives: every case rendered with folding on and off.
@Suite struct BackgroundFoldingTests {
    typealias L = LayerCompositingTests

    static func both(
        _ layers: [Layer], size: Size = Size(40, 30), scale: Double = 1, snap: SnapMode = .none,
        background: Color = .white
    ) -> (folded: Pixmap, full: Pixmap, count: Int) {
        let scene = Scene(
            canvas: Canvas(size: size, scale: scale, snap: snap, background: background),
            layers: layers)
        let frame = Timeline(scene: scene).frame(at: 0)
        var renderer = FrameRenderer(scale: scale)
        let folded = renderer.render(frame)
        renderer.foldsBackground = false
        let full = renderer.render(frame)
        let root = AffineTransform.scale(scale, scale)
        let (w, h) = renderer.pixelSize(of: size)
        return (folded, full, BackgroundFolding.fold(frame, root: root, width: w, height: h).layers)
    }

    /// Translucent, opaque, faint and invisible overlays at several opacities and scales,
    /// over opaque and transparent backgrounds, with a drawing on top.
    @Test func foldedLayersGiveTheSameBytes() {
        let colors = [
            Color(red: 0.96, green: 0.96, blue: 0.96, alpha: 0.8),
            Color(red: 0.2, green: 0.5, blue: 0.9),
            Color(red: 1, green: 0, blue: 0, alpha: 0.003),
            Color(red: 0.1, green: 0.9, blue: 0.3, alpha: 0.5),
        ]
        for background in [Color.white, Color.clear, Color(red: 0.23, green: 0.25, blue: 0.35)] {
            for scale in [1.0, 2.0, 3.0] {
                for opacity in [0.0, 0.001, 0.0025, 0.37, 0.5, 1.0] {
                    for color in colors {
                        let layers = [
                            L.layer("backdrop", frame: Rect(0, 0, 40, 30), color: color) {
                                $0.opacity = opacity
                            },
                            L.layer(
                                "dim", frame: Rect(0, 0, 40, 30),
                                color: Color(red: 0, green: 0, blue: 0, alpha: 0.4)),
                            L.layer("dot", frame: Rect(5, 5, 10, 10), color: .white) {
                                $0.cornerRadius = 5
                            },
                        ]
                        let r = Self.both(layers, scale: scale, background: background)
                        // A layer at opacity 0 is left out of the frame before rendering.
                        #expect(r.count == (opacity == 0 ? 1 : 2), "both full-canvas layers fold")
                        #expect(
                            r.folded.data == r.full.data,
                            "\(background) ×\(scale) opacity \(opacity) \(color)")
                    }
                }
            }
        }
    }

    /// Layers that do anything but cover the canvas with one color are drawn as usual.
    @Test func otherLayersAreNotFolded() {
        let full = Rect(0, 0, 40, 30)
        let color = Color(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.7)
        let cases: [(String, Layer)] = [
            ("short by half a point", L.layer("a", frame: Rect(0, 0, 39.5, 30), color: color)),
            ("offset", L.layer("a", frame: Rect(0.25, 0, 40, 30), color: color)),
            ("larger than the canvas", L.layer("a", frame: Rect(-1, -1, 42, 32), color: color)),
            ("rounded", L.layer("a", frame: full, color: color) { $0.cornerRadius = 4 }),
            (
                "bordered",
                L.layer("a", frame: full, color: color) {
                    $0.borderWidth = 2; $0.borderColor = .white
                }
            ),
            (
                "shadowed",
                L.layer("a", frame: full, color: color) {
                    $0.shadowOpacity = 0.5; $0.shadowRadius = 3
                }
            ),
            (
                "scaled",
                L.layer("a", frame: full, color: color) {
                    $0.transform = LayerTransform(scale: Point(0.5, 0.5))
                }
            ),
            (
                "with sublayer",
                L.layer(
                    "a", frame: full, color: color,
                    sublayers: [L.layer("b", frame: Rect(2, 2, 5, 5), color: .white)])
            ),
        ]
        for (name, layer) in cases {
            let r = Self.both([layer], background: .white)
            #expect(r.count == 0, "\(name)")
            #expect(r.folded.data == r.full.data, "\(name)")
        }
        // Folding stops at the first layer that does not qualify.
        let stack = [
            L.layer("a", frame: full, color: color),
            L.layer("b", frame: full, color: color) { $0.cornerRadius = 3 },
            L.layer("c", frame: full, color: color),
        ]
        let r = Self.both(stack)
        #expect(r.count == 1)
        #expect(r.folded.data == r.full.data)
    }

    /// Every seed scene (and the card benchmark scene, whose overlay folds), a few frames
    /// each, rendered both ways.
    @Test func seedScenesRenderTheSameBytes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let scenes =
            try FileManager.default.contentsOfDirectory(atPath: root.path + "/scenes").filter {
                $0.hasSuffix(".yaml")
            }
            .map { root.path + "/scenes/" + $0 } + [root.path + "/Benchmarks/Peers/card.yaml"]
        #expect(scenes.count > 5)
        var foldedSomewhere = false
        for path in scenes {
            let scene = try SceneLoader.load(path: path)
            let timeline = Timeline(scene: scene)
            for seconds in [0.0, 0.2, scene.canvas.duration / 2, scene.canvas.duration] {
                let frame = timeline.frame(at: seconds)
                var renderer = FrameRenderer(scale: scene.canvas.scale)
                let (w, h) = renderer.pixelSize(of: scene.canvas.size)
                if BackgroundFolding.fold(
                    frame, root: .scale(scene.canvas.scale, scene.canvas.scale), width: w, height: h
                ).layers > 0 {
                    foldedSomewhere = true
                }
                let folded = renderer.render(frame)
                renderer.foldsBackground = false
                #expect(folded.data == renderer.render(frame).data, "\(path) at \(seconds) s")
            }
        }
        #expect(foldedSomewhere, "no scene exercised folding")
    }
}
