import Foundation
import Testing
@testable import FlipbookLottie
import FlipbookScene

/// The JSON parser Lottie files are read with: exactly RFC 8259 (checked against
/// Foundation's JSONSerialization on the same text, an independent parser), its places
/// (line and column), and the limits it counts while reading.
@Suite struct JSONParserTests {
    static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONFailure)
        -> JSONNode
    {
        JSONNode(try JSONParser.parse(Array(text.utf8), limits: limits), index: 0, path: "")
    }

    static func syntaxMessage(_ text: String) -> (message: String, line: Int, column: Int)? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            guard case .syntax(let message) = error.reason else { return nil }
            return (message, error.line, error.column)
        }
    }

    /// Every value comes back as JSONSerialization reads it (numbers, escapes, surrogate
    /// pairs, nesting, the last of a repeated key).
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null,-0.5,1e3,2E-2],"c":{"d":"x\"y\\z\/\u00e9\ud83d\ude00\n"}}"#,
        #"[[],{},[[[]]],"",0,-0,123456789012345678]"#,
        #"  {"k" : [ 1 , 2 ] , "k" : 3 }  "#,
        #""\u0041\t\b\f\r""#,
        "-12.5e+2",
    ])
    func valuesMatchFoundation(_ text: String) throws {
        let ours = try Self.parse(text)
        let theirs = try JSONSerialization.jsonObject(
            with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.equal(ours, theirs), "\(text)")
    }

    static func equal(_ node: JSONNode, _ value: Any) -> Bool {
        switch value {
        case is NSNull: return node.isObject == false && node.isArray == false && !node.exists
        case let s as String: return node.string == s
        case let n as NSNumber where String(describing: type(of: n)).contains("Boolean"):
            return node.bool == n.boolValue
        case let n as NSNumber: return node.number == n.doubleValue
        case let a as [Any]:
            guard let e = node.elements, e.count == a.count else { return false }
            return zip(e, a).allSatisfy { equal($0, $1) }
        case let o as [String: Any]:
            return Set(node.keys) == Set(o.keys) && o.allSatisfy { equal(node[$0.key], $0.value) }
        default: return false
        }
    }

    /// What RFC 8259 JSON (and JavaScript's JSON.parse, which lottie-web reads with) is not,
    /// each refused with where it is. (swift-corelibs' JSONSerialization admits trailing
    /// commas, so it is not the reference here.)
    @Test(arguments: [
        ("{\"a\":NaN}", 1, 6, "`NaN` is not a JSON value"),
        ("[1,\n Infinity]", 2, 2, "`Infinity` is not a JSON value"),
        ("[-Infinity]", 1, 2, "`-Infinity` is not a JSON value"),
        ("[1e400]", 1, 2, "the number 1e400 is too large for a double"),
        ("[1,]", 1, 4, "unexpected `]` where a value was expected"),
        ("{\"a\":1,}", 1, 8, "expected a key in quotes"),
        ("[01]", 1, 3, "expected `,` or `]` in an array"),
        ("[1.]", 1, 4, "expected a digit after `.`"),
        ("\"a\nb\"", 1, 3, "a control character (0xa) inside a string"),
        ("\"\\x\"", 1, 2, "`\\x` is not a JSON escape"),
        ("{\"a\" 1}", 1, 6, "expected `:` after the key \"a\""),
        ("[1] 2", 1, 5, "unexpected `2` after the document"),
        ("[\"abc", 1, 6, "a string is not closed"),
        ("// x\n{}", 1, 1, "unexpected `//` where a value was expected"),
    ])
    func malformedTextIsPlaced(_ text: String, _ line: Int, _ column: Int, _ message: String) throws
    {
        let failure = try #require(Self.syntaxMessage(text))
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
        #expect(
            failure.line == line && failure.column == column, "\(failure.line):\(failure.column)")
    }

    @Test func memoryIsCountedWhileReading() throws {
        let text = "[" + Array(repeating: "1", count: 10_000).joined(separator: ",") + "]"
        #expect(throws: JSONFailure.self) {
            try Self.parse(text, limits: JSONLimits(memoryBytes: 9_999 * 16))
        }
        #expect(
            (try Self.parse(text, limits: JSONLimits(memoryBytes: 10_001 * 16))).count == 10_000)
        do {
            _ = try Self.parse(text, limits: JSONLimits(memoryBytes: 100 * 16))
        } catch {
            // Stopped at the 100th value, not at the end of the text.
            #expect(error.column < 210, "column \(error.column)")
        }
    }

    @Test func layersAreCountedAsTheyAreRead() throws {
        let text = #"{"assets":[{"layers":[{},{}]}],"layers":[{},{},{"layers":[1]}]}"#
        #expect((try Self.parse(text, limits: JSONLimits(layers: 6))).keys == ["assets", "layers"])
        do {
            _ = try Self.parse(text, limits: JSONLimits(layers: 5))
            Issue.record("6 layers passed a limit of 5")
        } catch {
            guard case .limit(let violation) = error.reason else {
                Issue.record("\(error)"); return
            }
            #expect(violation == LimitViolation(.fileCount(.layers), limit: 5))
            #expect(violation.setting == .maxLayers)
            #expect(
                violation.message(naming: .properties)
                    == "the file has more than 5 layers, over the limit of 5; raise ResourceLimits.maxLayers"
            )
        }
    }

    @Test func keyframesAndPathVerticesAreCountedAsTheyAreRead() throws {
        // Two keyframe lists (objects in `k` arrays); a `k` array of numbers is a value, not keyframes.
        let text =
            #"{"a":{"k":[{"t":0},{"t":1}]},"b":{"k":[{"t":0}]},"c":{"k":[1,2,3,4]},"v":[[0,0],[1,1],[2,2]]}"#
        #expect(throws: Never.self) {
            try Self.parse(text, limits: JSONLimits(keyframes: 3, pathVertices: 3))
        }
        for (limits, expected) in [
            (JSONLimits(keyframes: 2), "more than 2 keyframes"),
            (JSONLimits(pathVertices: 2), "a path has more than 2 vertices"),
        ] {
            do {
                _ = try Self.parse(text, limits: limits)
                Issue.record("passed \(expected)")
            } catch {
                guard case .limit(let violation) = error.reason else {
                    Issue.record("\(error)"); continue
                }
                let message = violation.message(naming: .properties)
                #expect(message.contains(expected), "\(message)")
            }
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(Self.syntaxMessage(deep)?.message.contains("nest deeper than 256 levels") == true)
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try Self.parse(fine) }
    }

    /// A broken Lottie file is still told apart from a Flipbook scene by its top-level keys.
    @Test func topLevelKeysSurviveBrokenValues() {
        #expect(LottieLoader.looksLikeLottie(Array(#"{"v":"5.7","fr":NaN,"ip":0"#.utf8)))
        #expect(
            LottieLoader.looksLikeLottie(
                Array(#"{"nm":"x","layers":[{"a":"]}"}],"w":1,"h":2}"#.utf8)))
        #expect(
            !LottieLoader.looksLikeLottie(
                Array(#"{"canvas":{"size":[1,1]},"layers":[],"v":1}"#.utf8)))
        #expect(!LottieLoader.looksLikeLottie(Array("canvas:\n  size: [1, 1]\n".utf8)))
    }

    /// `assets` and `layers` first and the short keys after 64 KiB of layers (as lottie-ios's
    /// TypeFace samples are written): still a Lottie file.
    @Test func shortKeysAfterALongStartStillTell() throws {
        let layer = #"{"ty":3,"ind":1,"ip":0,"op":1,"st":0,"ks":{},"nm":"padding"}"#
        let layers = Array(repeating: layer, count: 2000).joined(separator: ",")
        let text =
            #"{"assets":[],"layers":["# + layers
            + #"],"v":"5.7","fr":30,"ip":0,"op":1,"w":10,"h":10}"#
        #expect(text.utf8.count > 1 << 16)
        let path = NSTemporaryDirectory() + "flipbook-late-keys-\(UUID().uuidString).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(LottieLoader.isLottie(path: path))
    }
}
