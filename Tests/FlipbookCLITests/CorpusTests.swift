import Foundation
import Testing

/// Tests/Corpus: broken scenes and images, each run through the CLI with the exact
/// output and exit status its `.expected` file gives.
///
/// An `.expected` file is a header (`command:` validate by default, `scene:` the file of
/// the same name by default, `args:`, `exit:`), a `---` line, then the expected standard
/// error and output, with `$CORPUS` for the corpus folder and `$ROOT` for the package.
/// `Tests/Corpus/regenerate` rewrites the outputs from the current build.
@Suite struct CorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var command: String
        var scene: String
        var args: [String]
        var exit: Int32
        var output: String
        var testDescription: String { name }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus").resolvingSymlinksInPath().path

    static let cases: [Case] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
        return files.filter { $0.hasSuffix(".expected") }.sorted().compactMap { file in
            guard let text = try? String(contentsOfFile: corpus + "/" + file, encoding: .utf8),
                let split = text.range(of: "\n---\n") ?? text.range(of: "---\n")
            else { return nil }
            let name = String(file.dropLast(".expected".count))
            var c = Case(
                name: name, command: "validate", scene: name + ".yaml", args: [], exit: -1,
                output: String(text[split.upperBound...]))
            for line in text[..<split.lowerBound].split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let key = line[..<colon],
                    value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch key {
                case "command": c.command = value
                case "scene": c.scene = value
                case "args": c.args = value.split(separator: " ").map(String.init)
                case "exit": c.exit = Int32(value) ?? -1
                default: break
                }
            }
            return c
        }
    }()

    @Test func corpusIsThere() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases) func corpusCase(_ c: Case) throws {
        let root = URL(fileURLWithPath: Self.corpus).deletingLastPathComponent()
            .deletingLastPathComponent().path
        let outcome = try CLI.run([c.command, c.scene] + c.args, in: Self.corpus)
        let output = (outcome.stderr + outcome.stdout)
            .replacingOccurrences(of: Self.corpus, with: "$CORPUS")
            .replacingOccurrences(of: root, with: "$ROOT")
        #expect(outcome.status == c.exit, "\(c.name): \(output)")
        #expect(output == c.output)
        #expect(!FileManager.default.fileExists(atPath: Self.corpus + "/never.gif"))
    }
}
