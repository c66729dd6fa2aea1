import FlipbookGeometry
@testable import FlipbookScene
import Testing

@Suite struct AnimationLoadingTests {
    let layers = """
        layers:
          - { id: eye, opacity: 0 }
          - { id: armUpLeft, anchorPoint: [0, 1] }
          - { id: card }
          - { id: progress }
          - { id: spinner, path: "M0 0 L1 1" }
          - { id: grad, gradient: { colors: [red, blue] } }

        """

    @Test func setBlock() throws {
        let s = try scene(
            layers + """
                animations:
                  - at: 0.5
                    duration: 0.3
                    curve: easeInEaseOut
                    set:
                      eye.opacity: 1
                      armUpLeft.frame: [123.5, 108, 51, 42]
                      card.transform.scale: 1
                      card.backgroundColor: "#ff0000"
                      card.transform: { translation: [1, 2], rotation: 90 }
                      card.hidden: true
                """)
        let a = s.animations[0]
        #expect(a.begin == 0.5 && a.duration == 0.3 && a.timing == .curve(.easeInEaseOut))
        #expect(
            a.repeatCount == 1 && !a.autoreverses && !a.removedOnCompletion
                && a.fillMode == .forwards)
        #expect(a.line == 11)
        #expect(
            a.targets.map(\.keyPath) == [
                "opacity", "position", "bounds.size", "transform.scale",
                "backgroundColor", "transform", "hidden",
            ])
        #expect(
            a.targets.map(\.layer) == [
                "eye", "armUpLeft", "armUpLeft", "card", "card", "card", "card",
            ])
        #expect(a.targets.map(\.line) == [15, 16, 16, 17, 18, 19, 20])
        let values = a.targets.map { $0.change.toValue ?? [] }
        #expect(values[0] == [1])
        // anchorPoint (0, 1): position = (x, y + h).
        #expect(values[1] == [123.5, 150])
        #expect(values[2] == [51, 42])
        #expect(values[3] == [1])
        #expect(values[4] == [1, 0, 0, 1])
        #expect(values[5] == [1, 2, 1, 1, 90])
        #expect(values[6] == [1])
        #expect(a.targets.allSatisfy { $0.change.fromValue == nil })
    }

    @Test func fromTo() throws {
        let s = try scene(
            layers + """
                animations:
                  - layer: progress
                    keyPath: transform.scale.x
                    from: 1
                    to: 280
                    at: 1.2
                    duration: 0.3
                    curve: easeIn
                  - { layer: card, keyPath: position, to: [5, 6], duration: 1, curve: [0.1, 0.2, 0.3, 1.4] }
                  - { layer: card, keyPath: frame, from: [0, 0, 10, 10], to: [10, 10, 20, 20], duration: 1 }
                  - { layer: grad, keyPath: gradient.colors, to: [white, "#000000"], duration: 1 }
                  - { layer: card, keyPath: transform.scale, to: [2, 3], duration: 1 }
                """)
        let a = s.animations
        #expect(a[0].begin == 1.2 && a[0].duration == 0.3 && a[0].timing == .curve(.easeIn))
        #expect(a[0].targets[0].change.fromValue == [1] && a[0].targets[0].change.toValue == [280])
        #expect(a[1].timing == .curve(TimingCurve(0.1, 0.2, 0.3, 1.4)))
        #expect(
            a[1].targets[0].change.fromValue == nil && a[1].targets[0].change.toValue == [5, 6])
        #expect(a[2].targets.map(\.keyPath) == ["position", "bounds.size"])
        #expect(
            a[2].targets[0].change.fromValue == [5, 5]
                && a[2].targets[0].change.toValue == [20, 20])
        #expect(
            a[2].targets[1].change.fromValue == [10, 10]
                && a[2].targets[1].change.toValue == [20, 20])
        #expect(a[3].targets[0].change.toValue == [1, 1, 1, 1, 0, 0, 0, 1])
        #expect(a[4].targets[0].change.toValue == [2, 3])
    }

    @Test func keyframes() throws {
        let s = try scene(
            layers + """
                animations:
                  - layer: spinner
                    keyPath: strokeEnd
                    values: [0, 0.8, 1]
                    keyTimes: [0, 0.6, 1]
                    curves: [easeIn, easeOut]
                    duration: 1.2
                    repeat: infinity
                  - { layer: eye, keyPath: opacity, values: [0, 1, 0.5, 1], duration: 1, autoreverse: true, fillMode: both, removedOnCompletion: true }
                """)
        guard
            case .keyframes(let values, let times, let curves) = s.animations[0].targets[0].change,
            case .keyframes(_, let evenTimes, let linear) = s.animations[1].targets[0].change
        else {
            Issue.record("not keyframes")
            return
        }
        #expect(
            values == [[0], [0.8], [1]] && times == [0, 0.6, 1] && curves == [.easeIn, .easeOut])
        #expect(s.animations[0].repeatCount == .infinity)
        // Core Animation plays a repeatCount of 0 once.
        let once = try SceneLoader.parse(
            """
            canvas: { size: [10, 10] }
            layers: [{ id: a }]
            animations: [{ layer: a, keyPath: opacity, to: 0, duration: 1, repeat: 0 }]
            """, path: nil)
        #expect(once.animations[0].repeatCount == 1)
        #expect(s.animations[0].timing == .curve(.linear))
        #expect(close(evenTimes, [0, 1.0 / 3, 2.0 / 3, 1]))
        #expect(linear == [.linear, .linear, .linear])
        let b = s.animations[1]
        #expect(b.autoreverses && b.removedOnCompletion && b.fillMode == .both)
    }

    @Test func keyframeFramesSplitIntoPositionAndSize() throws {
        let s = try scene(
            layers + """
                animations:
                  - { layer: armUpLeft, keyPath: frame, values: [[0, 0, 10, 10], [0, 0, 20, 40]], duration: 1 }
                """)
        #expect(
            s.animations[0].targets.map { $0.change.keyframeValues ?? [] } == [
                [[0, 10], [0, 40]], [[10, 10], [20, 40]],
            ])
    }

    @Test func uiKitSpring() throws {
        let s = try scene(
            layers + """
                animations:
                  - { set: { card.position: [10, 10] }, duration: 3, spring: { dampingRatio: 0.25 } }
                  - { set: { card.position: [10, 10] }, duration: 1, spring: { dampingRatio: 0.5, initialVelocity: 2 } }
                """)
        guard case .spring(let a) = s.animations[0].timing,
            case .spring(let b) = s.animations[1].timing
        else {
            Issue.record("not springs")
            return
        }
        #expect(close(a.stiffness, 54.8336, 1e-4) && close(a.damping, 3.7025, 1e-4) && a.mass == 1)
        #expect(
            close(b.stiffness, 161.7195, 1e-4) && close(b.damping, 12.7169, 1e-4)
                && b.initialVelocity == 2)
        #expect(s.animations[0].duration == 3)
    }

    @Test func caSpringDefaultsItsDurationToTheSettlingTime() throws {
        let s = try scene(
            layers + """
                animations:
                  - { layer: card, keyPath: position.x, to: 100, spring: { stiffness: 200, damping: 20, mass: 2, initialVelocity: 1 } }
                  - { layer: card, keyPath: position.x, to: 100, spring: {} }
                  - { layer: card, keyPath: position.x, to: 100, spring: { damping: 12 }, duration: 0.5 }
                """)
        let spring = Spring(mass: 2, stiffness: 200, damping: 20, initialVelocity: 1)
        #expect(s.animations[0].timing == .spring(spring))
        #expect(s.animations[0].duration == spring.settlingDuration)
        #expect(s.animations[1].timing == .spring(Spring()))
        #expect(s.animations[1].duration == Spring().settlingDuration)
        #expect(s.animations[2].duration == 0.5)
    }
}
