// Structure-aware mutation of JSON (Lottie) inputs for the `lottie-structured` kind.
//
// Byte-level mutation rarely keeps a Lottie file parseable, so it mostly fuzzes the JSON
// tokenizer. This mutator parses the input with Foundation's JSONSerialization (not the
// project's own reader, which is what is under test), edits the tree the way a hostile
// file differs from a good one — extreme numbers, retyped values, dropped keys, arrays
// repeated a thousandfold, subtrees moved — and writes it back compactly.
//
// Deterministic: the result depends only on the input, libFuzzer's seed and the size
// bound. Object keys are kept sorted (JSONSerialization's dictionaries have no order), and
// numbers keep their text, so a raw token such as `NaN` or `1e400`, which no JSON writer
// would produce, can be written into the text as a hostile file would have it.
import Foundation

/// A JSON value as the mutator edits it. Numbers keep their source text (or a raw token
/// written on purpose); objects keep their entries sorted by key.
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Entry])

    struct Entry: Equatable {
        var key: String
        var value: JSONValue
    }

    /// Parses `bytes` with JSONSerialization; nil when they are not JSON.
    init?(parsing bytes: [UInt8]) {
        guard
            let object = try? JSONSerialization.jsonObject(
                with: Data(bytes), options: [.fragmentsAllowed])
        else {
            return nil
        }
        self.init(foundation: object)
    }

    private init(foundation object: Any) {
        // Swift containers first: testing one against a class (`is NSNull`, `as NSNumber`)
        // bridges the whole container to Foundation, which made the parse quadratic in depth.
        switch object {
        case let dictionary as [String: Any]:
            self = .object(
                dictionary.keys.sorted().map {
                    Entry(key: $0, value: JSONValue(foundation: dictionary[$0]!))
                })
        case let array as [Any]: self = .array(array.map(JSONValue.init(foundation:)))
        case let string as String: self = .string(string)
        // JSONSerialization gives true and false as NSNumbers of Objective-C type `c`.
        case let number as NSNumber where String(cString: number.objCType) == "c":
            self = .bool(number.boolValue)
        case let number as NSNumber: self = .number(number.stringValue)
        default: self = .null
        }
    }

    /// Compact JSON text; numbers are written as their text, unchecked.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let entries):
            out.append(UInt8(ascii: "{"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(entry.key, to: &out)
                out.append(UInt8(ascii: ":"))
                entry.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The child at `step` (an array index or an object entry index).
    func child(_ step: Int) -> JSONValue {
        switch self {
        case .array(let elements): elements[step]
        case .object(let entries): entries[step].value
        default: preconditionFailure("a scalar has no children")
        }
    }

    /// The value at `path` (steps from the root, as ``paths(where:)`` gives them).
    func value(at path: ArraySlice<Int>) -> JSONValue {
        guard let step = path.first else { return self }
        return child(step).value(at: path.dropFirst())
    }

    /// Applies `change` to the value at `path`.
    mutating func modify(at path: ArraySlice<Int>, _ change: (inout JSONValue) -> Void) {
        guard let step = path.first else { return change(&self) }
        switch self {
        case .array(var elements):
            self = .null  // drops the second reference so that the edit below does not copy
            elements[step].modify(at: path.dropFirst(), change)
            self = .array(elements)
        case .object(var entries):
            self = .null
            entries[step].value.modify(at: path.dropFirst(), change)
            self = .object(entries)
        default: preconditionFailure("a scalar has no children")
        }
    }

    /// The paths of every value (root included) for which `include` holds, in document order.
    func paths(where include: (JSONValue) -> Bool) -> [[Int]] {
        var found: [[Int]] = []
        var path: [Int] = []
        func visit(_ value: JSONValue) {
            if include(value) { found.append(path) }
            let count: Int
            switch value {
            case .array(let elements): count = elements.count
            case .object(let entries): count = entries.count
            default: return
            }
            for step in 0..<count {
                path.append(step)
                visit(value.child(step))
                path.removeLast()
            }
        }
        visit(self)
        return found
    }

    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

/// SplitMix64: a small generator whose sequence depends on its seed alone.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
