import Foundation
@testable import FlipbookScene
import Testing

/// Broken snippets and the exact diagnostics they produce. Each body follows the
/// two-line `header`, so its first line is line 3 of `test.yaml`.
@Suite struct DiagnosticTests {
    static let table: [(String, [String])] = [
        (
            "layers: [{ id: card, opactiy: 1 }]",
            [
                "test.yaml:3:22: layers[0] (card).opactiy: unknown key `opactiy`; did you mean `opacity`?"
            ]
        ),
        (
            "layers: [{ id: a, position: [1] }]",
            [
                "test.yaml:3:29: layers[0] (a).position: expected a point [x, y], got a list of 1"
            ]
        ),
        (
            "layers: [{ id: a, bounds: [0, 0, -1, 2] }]",
            [
                "test.yaml:3:27: layers[0] (a).bounds: width and height must not be negative"
            ]
        ),
        (
            "layers: [{ id: a, opacity: .nan }]",
            [
                "test.yaml:3:28: layers[0] (a).opacity: expected a finite number, got `.nan`"
            ]
        ),
        (
            "layers: [{ id: a, opacity: .inf }]",
            [
                "test.yaml:3:28: layers[0] (a).opacity: expected a finite number, got `.inf`"
            ]
        ),
        (
            "layers: [{ id: a, opacity: abc }]",
            [
                "test.yaml:3:28: layers[0] (a).opacity: expected a number, got `abc`"
            ]
        ),
        (
            "layers: [{ id: a, backgroundColor: bleu }]",
            [
                "test.yaml:3:36: layers[0] (a).backgroundColor: unknown color `bleu`; did you mean `blue`?"
            ]
        ),
        (
            "layers: [{ id: a, backgroundColor: \"#12345\" }]",
            [
                "test.yaml:3:36: layers[0] (a).backgroundColor: invalid hex color `#12345`; expected #rgb, #rrggbb or #rrggbbaa"
            ]
        ),
        (
            "layers: [{ id: a, backgroundColor: [1, 2, 0] }]",
            [
                "test.yaml:3:36: layers[0] (a).backgroundColor: color components must be in 0…1"
            ]
        ),
        (
            "layers: [{ id: a, backgroundColor: none }]",
            [
                "test.yaml:3:36: layers[0] (a).backgroundColor: unknown color `none`"
            ]
        ),
        (
            "layers: [{ id: a }, { id: a }]",
            [
                "test.yaml:3:27: layers[1] (a).id: duplicate layer id `a`; first used on line 3"
            ]
        ),
        (
            "layers: [{ opacity: 1 }]",
            [
                "test.yaml:3:10: layers[0]: missing `id`"
            ]
        ),
        (
            "layers: [{ id: a, mask: { id: a } }]",
            [
                "test.yaml:3:31: layers[0] (a).mask (a).id: a layer cannot be its own mask"
            ]
        ),
        (
            "layers: [{ id: a, sublayers: [{ id: b }, { id: a }] }]",
            [
                "test.yaml:3:48: layers[0] (a).sublayers[1] (a).id: duplicate layer id `a`; first used on line 3"
            ]
        ),
        (
            "layers: [{ id: a, rect: [0, 0, 1, 1], gradient: { colors: [red] } }]",
            [
                "test.yaml:3:39: layers[0] (a).gradient: a layer has at most one content kind, found `rect`, `gradient`"
            ]
        ),
        (
            "layers: [{ id: a, gradient: { colors: [red, blue], locations: [0, 0.5, 1] } }]",
            [
                "test.yaml:3:63: layers[0] (a).gradient.locations: 3 locations for 2 colors; give one per color or none"
            ]
        ),
        (
            "layers: [{ id: a, gradient: { colros: [red] } }]",
            [
                "test.yaml:3:29: layers[0] (a).gradient: missing `colors`",
                "test.yaml:3:31: layers[0] (a).gradient.colros: unknown key `colros`; did you mean `colors`?",
            ]
        ),
        (
            "layers: [{ id: a, instanceCount: -1 }]",
            [
                "test.yaml:3:34: layers[0] (a).instanceCount: expected a whole number of instances from 0 to 100000, got `-1`"
            ]
        ),
        (
            "layers: [{ id: a, path: \"M0 0 L1\" }]",
            [
                "test.yaml:3:33: layers[0] (a).path: invalid SVG path: expected a number at offset 7"
            ]
        ),
        (
            "layers: [{ id: a, path: M0 0 Q1 }]",
            [
                "test.yaml:3:32: layers[0] (a).path: invalid SVG path: expected a number at offset 7"
            ]
        ),
        (
            "layers: [{ id: a, text: { string: hi, fontSize: -12, alignment: middle, font: /nonexistent/none.ttf } }]",
            [
                "test.yaml:3:49: layers[0] (a).text.fontSize: a font size must not be negative, got -12.0",
                "test.yaml:3:65: layers[0] (a).text.alignment: unknown value `middle`; expected one of `left`, `center`, `right`, `natural`, `justified`",
                "test.yaml:3:79: layers[0] (a).text.font: font `/nonexistent/none.ttf`: no file at `/nonexistent/none.ttf`",
            ]
        ),
        (
            "layers: [{ id: a, contents: owl }]",
            [
                "test.yaml:3:29: layers[0] (a).contents: unknown asset `owl` (name one under `assets:` or give a .png path)"
            ]
        ),
        (
            "layers: [{ id: a, fillRule: evenodd, rect: [0, 0, 1, 1] }]",
            [
                "test.yaml:3:29: layers[0] (a).fillRule: unknown value `evenodd`; expected one of `nonZero`, `evenOdd`; did you mean `evenOdd`?"
            ]
        ),
        (
            "layers: [{ id: a, frame: [0, 0, 1, 1], position: [1, 1] }]",
            [
                "test.yaml:3:26: layers[0] (a).frame: `frame` and `position` both place the layer; keep one"
            ]
        ),
        (
            "layers: [{ id: a, shadowOffset: [{ follow: a.opacity, map: [[0, 0], [1, 1]] }, 0] }]",
            [
                "test.yaml:3:34: layers[0] (a).shadowOffset[0]: expected a number, got a mapping; this value has no single-number key path, so it cannot follow"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: b.opacity, map: [[0, 0], [1, 1]] } }]",
            [
                "test.yaml:3:38: layers[0] (a).opacity.follow: unknown layer `b`; did you mean `a`?"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: a.position, map: [[0, 0], [1, 1]] } }]",
            [
                "test.yaml:3:38: layers[0] (a).opacity.follow: `position` is not a single number; follow one component, such as `position.x`"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: a.opcity, map: [[0, 0], [1, 1]] } }]",
            [
                "test.yaml:3:38: layers[0] (a).opacity.follow: unknown key path `opcity`; did you mean `opacity`?"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: a.position.x, map: [[0, 0]] } }]",
            [
                "test.yaml:3:57: layers[0] (a).opacity.map: expected at least two [input, output] pairs, got a list of 1"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: a.position.x, map: [[1, 0], [0, 1]] } }]",
            [
                "test.yaml:3:66: layers[0] (a).opacity.map[1]: map inputs must increase: 0 follows 1"
            ]
        ),
        (
            "layers: [{ id: a, opacity: { follow: b.opacity, map: [[0, 0], [1, 1]] } }, { id: b, opacity: { follow: a.opacity, map: [[0, 0], [1, 1]] } }]",
            [
                "test.yaml:3:38: layers[0] (a).opacity.follow: follow cycle: a.opacity → b.opacity → a.opacity"
            ]
        ),
        (
            "layers: [{ id: a, position: [{ follow: a.bounds.x, map: [[0, 0], [1, 1]] }, 0], bounds: [{ follow: a.position.x, map: [[0, 0], [1, 1]] }, 0, 1, 1] }]",
            [
                "test.yaml:3:100: layers[0] (a).bounds[0].follow: follow cycle: a.bounds.origin.x → a.position.x → a.bounds.origin.x"
            ]
        ),
        (
            "canvas2: 1",
            [
                "test.yaml:3:1: canvas2: unknown key `canvas2`; did you mean `canvas`?"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { set: { a.opacity: 1 } }",
            [
                "test.yaml:5:5: animations[0]: missing `duration`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { set: { a.opacity: 1 }, duration: -1 }",
            [
                "test.yaml:5:40: animations[0].duration: must not be negative, got `-1`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { set: { b.opacity: 1, a.opacty: 1, aopacity: 1 }, duration: 1 }",
            [
                "test.yaml:5:14: animations[0].set.b.opacity: unknown layer `b`; did you mean `a`?",
                "test.yaml:5:28: animations[0].set.a.opacty: unknown key path `opacty`; did you mean `opacity`?",
                "test.yaml:5:41: animations[0].set.aopacity: expected `layerId.keyPath`, got `aopacity`",
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, values: [0, 1], keyTimes: [0, 0.5, 1], duration: 1 }",
            [
                "test.yaml:5:61: animations[0].keyTimes: 3 keyTimes for 2 values; give one per value"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, values: [0, 1, 2], keyTimes: [0, 0.7, 0.5], duration: 1 }",
            [
                "test.yaml:5:64: animations[0].keyTimes: keyTimes must not decrease"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, values: [0, 1], keyTimes: [0, 2], duration: 1 }",
            [
                "test.yaml:5:61: animations[0].keyTimes: keyTimes must lie in 0…1 (fractions of the duration)"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, values: [0, 1], curves: [easeIn, easeOut], duration: 1 }",
            [
                "test.yaml:5:59: animations[0].curves: expected 1 curve, one per segment between 2 values, got a list of 2"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, curve: easeInOut, duration: 1 }",
            [
                "test.yaml:5:49: animations[0].curve: unknown curve `easeInOut`; expected one of `default`, `easeIn`, `easeInEaseOut`, `easeOut`, `linear` or [x1, y1, x2, y2]; did you mean `easeInEaseOut`?"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: position, to: 1, duration: 1 }",
            [
                "test.yaml:5:40: animations[0].to: expected a point [x, y], got `1`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, spring: { dampingRatio: 0.5 } }",
            [
                "test.yaml:5:50: animations[0].spring: a `dampingRatio` spring needs the animation's `duration`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, duration: 1, spring: { dampingRatio: 0.5, stiffness: 3 } }",
            [
                "test.yaml:5:95: animations[0].spring.stiffness: `stiffness` belongs to the CASpringAnimation form; UIKit's form has `dampingRatio` and `initialVelocity`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, from: 0, set: {}, duration: 1 }",
            [
                "test.yaml:5:5: animations[0]: an animation has more than one of `set`, `from`/`to` and `values`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, duration: 1 }",
            [
                "test.yaml:5:5: animations[0]: an animation needs one of `set`, `from`/`to` and `values`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, duration: 1, repeat: -2, fillMode: forward }",
            [
                "test.yaml:5:63: animations[0].repeat: expected a repeat count of 0 or more, or `infinity`, got `-2`",
                "test.yaml:5:77: animations[0].fillMode: unknown value `forward`; expected one of `removed`, `forwards`, `backwards`, `both`; did you mean `forwards`?",
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, to: 1, duration: 1 }",
            [
                "test.yaml:5:5: animations[0]: missing `keyPath`"
            ]
        ),
        (
            "layers:\n  - id: a\n    opacity: 1\n    opacity: 2",
            [
                "test.yaml:5:5: duplicate key `opacity` in one mapping"
            ]
        ),
        (
            "layers: [{ id: a ",
            [
                "test.yaml:4:1: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping)"
            ]
        ),
        (
            "assets: [owl.png]",
            [
                "test.yaml:3:9: assets: expected a mapping of asset names to file paths, got a list of 1"
            ]
        ),
        (
            "layers: [{ id: a, arc: { center: [0, 0], radius: -1 } }]",
            [
                "test.yaml:3:24: layers[0] (a).arc: missing `end`",
                "test.yaml:3:50: layers[0] (a).arc.radius: must not be negative, got `-1`",
            ]
        ),
        (
            "layers: [{ id: a, rect: { rect: [0, 0, 1, 1], radius: 3 } }]",
            [
                "test.yaml:3:47: layers[0] (a).rect.radius: unknown key `radius`"
            ]
        ),
        (
            "layers: [{ id: a, transform: { translate: [1, 2], scale: [1, 2, 3] } }]",
            [
                "test.yaml:3:32: layers[0] (a).transform.translate: unknown key `translate`",
                "test.yaml:3:58: layers[0] (a).transform.scale: expected a scale s or [sx, sy], got a list of 3",
            ]
        ),
        (
            "layers: [{ id: a, hidden: 1, sublayers: [{ id: b, lineWidth: -2 }] }]",
            [
                "test.yaml:3:27: layers[0] (a).hidden: expected true or false, got `1`",
                "test.yaml:3:62: layers[0] (a).sublayers[0] (b).lineWidth: must not be negative, got `-2`",
            ]
        ),
        (
            "layers: [{ id: a, mask: { opacity: 2, mask: { ellipse: [0, 0, 1] } } }]",
            [
                "test.yaml:3:56: layers[0] (a).mask (a.mask).mask (a.mask.mask).ellipse: expected a rect [x, y, width, height], got a list of 3"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: backgroundColor, to: none, duration: 1 }",
            [
                "test.yaml:5:47: animations[0].to: unknown color `none`"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: frame, to: [0, 0, -1, 1], duration: 1 }",
            [
                "test.yaml:5:37: animations[0].to: width and height must not be negative"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: { follow: a.position.x, map: [[0, 0], [1, 1]] }, duration: 1 }",
            [
                "test.yaml:5:39: animations[0].to: expected a number, got a mapping"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, to: 1, duration: 1, curve: [2, 0, 1, 1] }",
            [
                "test.yaml:5:62: animations[0].curve: the control points' x values must lie in 0…1"
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { set: { a.opacity: 1 }, layer: a, duration: 1, keyTimes: [0] }",
            [
                "test.yaml:5:37: animations[0].layer: `layer` does not belong in a `set:` animation; write `layer.keyPath: value` inside `set`",
                "test.yaml:5:63: animations[0].keyTimes: `keyTimes` belongs to keyframe animations (with `values`)",
            ]
        ),
        (
            "layers: [{ id: a, instanceCount: 1e300, text: { string: hi, colour: red } }]",
            [
                "test.yaml:3:34: layers[0] (a).instanceCount: expected a whole number of instances from 0 to 100000, got `1e300`",
                "test.yaml:3:61: layers[0] (a).text.colour: unknown key `colour`; did you mean `color`?",
            ]
        ),
        (
            "layers: [{ id: a }]\nanimations:\n  - { layer: a, keyPath: opacity, values: [0, 1], duration: 1, spring: { dampingRatio: 0.5 } }",
            [
                "test.yaml:5:72: animations[0].spring: a keyframe animation (with `values`) is timed by `curve` and `curves`; springs belong to `set:` and from/to animations"
            ]
        ),
        (
            "layers: [{ id: a, hidden: { follow: a.opacity, map: [[0, 0], [1, 1]] } }]",
            [
                "test.yaml:3:27: layers[0] (a).hidden: expected true or false, got a mapping"
            ]
        ),
    ]

    @Test(arguments: table)
    func brokenSnippet(_ body: String, _ expected: [String]) {
        #expect(problems(body) == expected)
    }

    @Test func canvasProblemsAreAllReported() {
        #expect(
            problems(
                "layers: []",
                header:
                    "version: 2\ncanvas: { size: [0, 10], fps: 0, scale: -1, snap: rnd, loop: 1.5 }\n"
            ) == [
                "test.yaml:1:10: version: unsupported version `2`; this loader reads version 1",
                "test.yaml:2:17: canvas.size: the canvas needs a positive width and height",
                "test.yaml:2:31: canvas.fps: must be greater than 0, got `0`",
                "test.yaml:2:41: canvas.scale: must be greater than 0, got `-1`",
                "test.yaml:2:51: canvas.snap: unknown value `rnd`; expected one of `none`, `round`, `floor`, `ceil`, `half`",
                "test.yaml:2:62: canvas.loop: expected a whole number from 0 to 65535, got `1.5`",
            ])
        #expect(
            problems("layers: []", header: "version: 1\n") == ["test.yaml:1:1: missing `canvas`"])
        #expect(problems("", header: "") == ["test.yaml: the scene is empty"])
        #expect(
            problems("- 1", header: "") == [
                "test.yaml:1:1: expected a mapping of scene keys, got a list of 1"
            ])
    }

    @Test func descriptionLeavesOutWhatIsUnknown() {
        #expect(
            Diagnostic(file: nil, line: 3, column: 4, keyPath: "a", message: "m").description
                == "<scene>:3:4: a: m")
        #expect(
            Diagnostic(file: "x.yaml", line: nil, column: nil, keyPath: "", message: "m")
                .description == "x.yaml: m")
        #expect(
            Diagnostic(file: nil, line: nil, column: nil, keyPath: "k", message: "m").description
                == "k: m")
        let error = SceneError(diagnostics: [
            Diagnostic(file: "f", line: 1, column: 2, keyPath: "", message: "a"),
            Diagnostic(file: "f", line: 3, column: 1, keyPath: "b", message: "c"),
        ])
        #expect(error.description == "f:1:2: a\nf:3:1: b: c")
    }

    @Test func suggestions() {
        #expect(Suggestions.closest(to: "opactiy", in: ["opacity", "position"]) == "opacity")
        #expect(Suggestions.closest(to: "Opacity", in: ["opacity", "capacity"]) == "opacity")
        #expect(Suggestions.closest(to: "zzz", in: ["opacity"]) == nil)
        #expect(Suggestions.distance(Array("ca"), Array("ac")) == 1)
        #expect(Suggestions.distance(Array("kitten"), Array("sitting")) == 3)
    }
}
