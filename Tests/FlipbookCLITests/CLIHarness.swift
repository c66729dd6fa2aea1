import Foundation

/// Runs the built `flipbook` executable as a user would, capturing its exit status and
/// output.
enum CLI {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable: next to the test bundle in the build products folder.
    static var executable: URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        for candidate in [folder, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("flipbook")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        // Swift Testing on Linux runs from the package's .build/<config>/ products.
        return URL(fileURLWithPath: ".build/debug/flipbook")
    }

    static func run(_ arguments: [String], in folder: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "flipbook-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
