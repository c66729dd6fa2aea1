import FlipbookGeometry
@testable import FlipbookScene
import Testing

/// The canvas every fixture starts with, so that snippets stay about what they test.
let header = """
    version: 1
    canvas: { size: [100, 80], fps: 10, duration: 1 }

    """

/// Parses `header + body` as if it came from `test.yaml`.
func scene(_ body: String, header: String = header) throws -> Scene {
    try SceneLoader.parse(header + body, path: "test.yaml")
}

/// The diagnostics' texts for `header + body`; empty when it loads.
func problems(_ body: String, header: String = header) -> [String] {
    do {
        _ = try SceneLoader.parse(header + body, path: "test.yaml")
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// The layer with `id`, searching masks and sublayers.
func layer(_ id: String, in scene: Scene) -> Layer? {
    var found: Layer?
    for root in scene.layers {
        root.forEachLayer { if $0.id == id, found == nil { found = $0 } }
    }
    return found
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { close($0, $1, tolerance) }
}

func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

func channels(_ c: Color) -> [Double] { [c.red, c.green, c.blue, c.alpha] }

extension AnimationChange {
    var toValue: [Double]? { if case .to(_, let to) = self { to } else { nil } }
    var fromValue: [Double]? { if case .to(let from, _) = self { from } else { nil } }
    var keyframeValues: [[Double]]? { if case .keyframes(let v, _, _) = self { v } else { nil } }
}
