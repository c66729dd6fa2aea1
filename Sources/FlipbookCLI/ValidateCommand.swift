import ArgumentParser
import Flipbook
import FlipbookScene

/// `flipbook validate SCENE`: loads and checks, renders nothing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check a scene file without rendering it; exit 0 when valid, 2 with every error when not."
    )

    @Argument(help: "The scene file.")
    var scene: String

    @OptionGroup var limits: LimitOptions

    func run() throws {
        switch limits.prepare(scene) {
        case .success(let prepared):
            for warning in prepared.warnings { printError(warning) }
            print("\(scene): valid (\(prepared.renderer.scene.canvas.frameCount) frames)")
        case .failure(let error):
            for message in error.messages { printError(message) }
            throw ExitStatus.badScene
        }
    }
}
