import Foundation
import Testing

/// A character no installed font has: one warning per scene naming it, the scene still valid;
/// `direction` is a text key.
@Suite struct TextWarningTests {
    @Test func missingCharactersWarnOncePerScene() throws {
        let folder = try CLI.temporaryFolder()
        // U+10FFFD (a private-use plane character) is in no installed font; it appears twice.
        try CLI.write(
            """
            canvas: { size: [200, 40], duration: 1 }
            layers:
              - { id: a, frame: [0, 0, 200, 20], text: { string: "x\u{10FFFD}y", font: "DejaVu Sans", fontSize: 10, color: black } }
              - { id: b, frame: [0, 20, 200, 20], text: { string: "\u{10FFFD}", font: "DejaVu Sans", fontSize: 10, color: black, direction: rtl } }
            """, to: folder + "/t.yaml")
        let outcome = try CLI.run(["validate", "t.yaml"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let warnings = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("U+10FFFD"), "\(outcome.stderr)")
    }

    @Test func directionMustBeKnown() throws {
        let folder = try CLI.temporaryFolder()
        try CLI.write(
            """
            canvas: { size: [20, 20], duration: 1 }
            layers:
              - { id: a, frame: [0, 0, 20, 20], text: { string: "a", direction: sideways } }
            """, to: folder + "/d.yaml")
        let outcome = try CLI.run(["validate", "d.yaml"], in: folder)
        #expect(outcome.status == 2 && outcome.stderr.contains("direction"), "\(outcome.stderr)")
    }
}
