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

    /// Variables that make `flipbook render` shard its work; cleared for every run so
    /// that a CI runner's own sharding does not leak into the tests.
    static let shardVariables = [
        "FLIPBOOK_SHARD", "CI_NODE_INDEX", "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX",
        "FLIPBOOK_SHARD_TOTAL",
    ]

    static func run(
        _ arguments: [String], in folder: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        var env = ProcessInfo.processInfo.environment
        for key in shardVariables { env[key] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
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
