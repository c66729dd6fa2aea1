import FlipbookGeometry
@testable import FlipbookScene
import Testing

/// YAML conveniences and ids with dots.
@Suite struct YAMLFeatureTests {
    @Test func synthesizedMaskIdsCanBeAnimatedAndFollowed() throws {
        let s = try scene(
            """
            layers:
              - id: card
                mask: { rect: [0, 0, 10, 10] }
              - id: shade
                opacity: { follow: card.mask.opacity, map: [[0, 0], [1, 1]] }
            animations:
              - { set: { card.mask.opacity: 0.5, card.opacity: 0.2 }, duration: 1 }
              - { layer: card.mask, keyPath: transform.rotation, to: 90, duration: 1 }
            """)
        #expect(
            s.animations[0].targets.map { "\($0.layer) \($0.keyPath)" } == [
                "card.mask opacity", "card opacity",
            ])
        #expect(s.animations[1].targets[0].layer == "card.mask")
        #expect(s.layers[1].follows[0].sourceLayer == "card.mask")
        #expect(s.layers[1].follows[0].sourceComponent == "opacity")
    }

    @Test func mergeKeysShareStyles() throws {
        let s = try scene(
            """
            styles:
            layers:
              - &chip { id: a, bounds: [0, 0, 40, 20], cornerRadius: 10, backgroundColor: orange }
              - { <<: *chip, id: b, backgroundColor: blue }
            """.replacingOccurrences(of: "styles:\n", with: ""))
        #expect(s.layers[1].id == "b")
        #expect(s.layers[1].properties.cornerRadius == 10)
        #expect(s.layers[1].properties.bounds == Rect(0, 0, 40, 20))
        #expect(s.layers[1].properties.backgroundColor == Color(red: 0, green: 0, blue: 1))
    }

    @Test func emptyListsMayBeLeftBlank() throws {
        let s = try scene(
            """
            assets:
            layers:
              - id: a
                sublayers:
            animations:
            """)
        #expect(s.layers.count == 1 && s.layers[0].sublayers.isEmpty && s.animations.isEmpty)
    }
}
