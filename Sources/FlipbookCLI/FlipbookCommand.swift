import ArgumentParser
import Foundation
import Flipbook
import FlipbookScene

/// `flipbook`: render, validate and inspect scene files.
@main
struct FlipbookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flipbook",
        abstract:
            "Render Core Animation-style scenes and Lottie files to animated GIFs, PNGs and WebPs, or PNG frames.",
        version: "0.1.0",
        subcommands: [
            RenderCommand.self, StillCommand.self, ValidateCommand.self, InfoCommand.self,
            DiffCommand.self,
            CheckCommand.self, AssembleCommand.self, PreviewCommand.self,
        ])

    /// Commands whose usage errors exit 2 rather than ArgumentParser's 64, because their
    /// callers (CI scripts) read 0 same, 1 different, 2 could not compare.
    static let comparisonCommands: Set<String> = ["diff", "check"]

    static func main() {
        EnvironmentSwitches.apply()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let arguments = CommandLine.arguments.dropFirst()
            if let name = arguments.first, comparisonCommands.contains(name),
                exitCode(for: error) == .validationFailure
            {
                printError(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Exit codes shared by the commands.
enum ExitStatus {
    /// The scene file has errors (also used for unreadable scenes and assets).
    static let badScene = ExitCode(2)
    /// Rendering or writing failed.
    static let failure = ExitCode(1)
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
