import ArgumentParser
import Flipbook
import FlipbookScene

/// `flipbook validate SCENE`: loads and checks, renders nothing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scene file without rendering it; exit 0 when valid, 2 with every error when not.")

    @Argument(help: "The scene file.")
    var scene: String

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let loaded = try limits.load(scene)
        do { _ = try SceneRenderer(scene: loaded, limits: limits.limits()) } catch {
            printError("\(scene): \(error)")
            throw ExitStatus.badScene
        }
        print("\(scene): valid (\(loaded.canvas.frameCount) frames)")
    }
}
