import FlipbookGeometry
import FlipbookScene
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A strict RFC 8259 JSON parser into a ``JSONDocument`` that counts its limits while it
/// reads.
///
/// Rules:
/// - exactly JSON: no comments, no trailing commas, no `NaN`/`Infinity` (JavaScript's
///   JSON.parse, which lottie-web uses, refuses them too), no control characters in
///   strings; a number too large for a double (`1e400`) is refused rather than read as
///   infinity;
/// - memory: each value costs ``bytesPerValue`` bytes and each string its UTF-8 length
///   more, against ``JSONLimits/memoryBytes``, checked as each value is added;
/// - Lottie's counts, by the key that holds an array: every element of a `layers` array
///   counts against ``JSONLimits/layers``, every object in a `k` array (a keyframe) against
///   ``JSONLimits/keyframes``, and a `v` array (a path's vertices) longer than
///   ``JSONLimits/pathVertices`` is refused, each when the element is read, so a file of a
///   million layers or keyframes is refused after the limit's worth of them, not after the
///   million (the reader counts them again, exactly, while it builds the model);
/// - nesting deeper than ``JSONLimits/depth`` is refused (the parser recurses);
/// - ``RenderCancellation/shared`` is polled every 64 KiB, so Ctrl-C stops a long parse.
struct JSONParser {
    /// Tape bytes per value: kind (1), payload (8), end (4), plus array slack.
    static let bytesPerValue = 16

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var position = 0
    private var memory = 0
    private var layers = 0
    private var keyframes = 0
    private var nextPoll = 1 << 16
    private let document = JSONDocument()

    /// Parses `data` in place; throws ``JSONFailure`` with the line and column of the problem.
    static func parse(_ data: some ContiguousBytes, limits: JSONLimits = JSONLimits())
        throws(JSONFailure) -> JSONDocument
    {
        let result: Result<JSONDocument, JSONFailure> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            do throws(JSONFailure) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private mutating func parseDocument() throws(JSONFailure) -> JSONDocument {
        // A first guess at the tape's size: about one value per 6 bytes of a Lottie file,
        // within the budget.
        document.reserve(min(bytes.count / 6, limits.memoryBytes / Self.bytesPerValue) + 1)
        skipSpace()
        try parseValue(depth: 0, key: nil)
        skipSpace()
        if position < bytes.count {
            throw fail("unexpected \(describe(position)) after the document")
        }
        return document
    }

    // MARK: Values

    private mutating func parseValue(depth: Int, key: String?) throws(JSONFailure) {
        guard position < bytes.count else {
            throw fail("the document ends where a value was expected")
        }
        try spend(Self.bytesPerValue)
        if position >= nextPoll {
            nextPoll = position + (1 << 16)
            if RenderCancellation.shared.isCancelled { throw failure(.cancelled) }
        }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1, key: key)
        case UInt8(ascii: "\""):
            let s = try parseString()
            try spend(s.utf8.count)
            _ = document.appendString(s)
        case UInt8(ascii: "t"): try literal(Self.trueWord); _ = document.append(.bool, payload: 1)
        case UInt8(ascii: "f"): try literal(Self.falseWord); _ = document.append(.bool, payload: 0)
        case UInt8(ascii: "n"): try literal(Self.nullWord); _ = document.append(.null, payload: 0)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = document.append(.number, payload: try parseNumber().bitPattern)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail(
                "\(describe(position)) is not a JSON value (JSON has no NaN or Infinity; write a number)"
            )
        default:
            throw fail("unexpected \(describe(position)) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONFailure) {
        guard depth <= limits.depth else {
            throw fail("arrays and objects nest deeper than \(limits.depth) levels")
        }
        let start = document.append(.object, payload: 0)
        position += 1
        skipSpace()
        var count = 0
        if peek(UInt8(ascii: "}")) {
            position += 1
        } else {
            while true {
                guard peek(UInt8(ascii: "\"")) else {
                    throw fail("expected a key in quotes, found \(describe(position))")
                }
                let key = try parseString()
                try spend(Self.bytesPerValue + key.utf8.count)
                _ = document.appendString(key)
                skipSpace()
                guard peek(UInt8(ascii: ":")) else {
                    throw fail("expected `:` after the key \"\(key)\", found \(describe(position))")
                }
                position += 1
                skipSpace()
                try parseValue(depth: depth, key: key)
                count += 1
                skipSpace()
                if peek(UInt8(ascii: ",")) { position += 1; skipSpace(); continue }
                if peek(UInt8(ascii: "}")) { position += 1; break }
                throw fail("expected `,` or `}` in an object, found \(describe(position))")
            }
        }
        document.close(start, elements: count)
    }

    private mutating func parseArray(depth: Int, key: String?) throws(JSONFailure) {
        let countsLayers = key == "layers", countsKeyframes = key == "k",
            countsVertices = key == "v"
        guard depth <= limits.depth else {
            throw fail("arrays and objects nest deeper than \(limits.depth) levels")
        }
        let start = document.append(.array, payload: 0)
        position += 1
        skipSpace()
        var count = 0
        if peek(UInt8(ascii: "]")) {
            position += 1
        } else {
            while true {
                if countsLayers {
                    layers += 1
                    if layers > limits.layers {
                        throw failure(
                            .limit(LimitViolation(.fileCount(.layers), limit: limits.layers)))
                    }
                }
                if countsKeyframes, peek(UInt8(ascii: "{")) {
                    keyframes += 1
                    if keyframes > limits.keyframes {
                        throw failure(
                            .limit(LimitViolation(.fileCount(.keyframes), limit: limits.keyframes)))
                    }
                }
                if countsVertices, count >= limits.pathVertices {
                    throw failure(
                        .limit(LimitViolation(.pathVertices, limit: limits.pathVertices)))
                }
                try parseValue(depth: depth, key: nil)
                count += 1
                skipSpace()
                if peek(UInt8(ascii: ",")) { position += 1; skipSpace(); continue }
                if peek(UInt8(ascii: "]")) { position += 1; break }
                throw fail("expected `,` or `]` in an array, found \(describe(position))")
            }
        }
        document.close(start, elements: count)
    }

    // MARK: Tokens

    private mutating func parseNumber() throws(JSONFailure) -> Double {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            if peek(UInt8(ascii: "I")) {
                position = start
                throw fail(
                    "`-Infinity` is not a JSON value (JSON has no NaN or Infinity; write a number)")
            }
            throw fail("expected a digit in a number, found \(describe(position))")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("expected a digit after `.`")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("expected a digit in the exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let length = position - start
        guard length <= 400 else {
            position = start
            throw fail("a number of \(length) characters is longer than any double needs")
        }
        // strtod needs a terminated string; the grammar above already checked the text.
        var text = [CChar](repeating: 0, count: length + 1)
        for i in 0..<length { text[i] = CChar(bitPattern: bytes[start + i]) }
        let value = strtod(text, nil)
        guard value.isFinite else {
            position = start
            throw fail(
                "the number \(String(decoding: bytes[start..<start + length], as: UTF8.self)) is too large "
                    + "for a double")
        }
        return value
    }

    private mutating func parseString() throws(JSONFailure) -> String {
        position += 1
        let start = position
        // The common case: no escapes, read in place.
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                defer { position += 1 }
                return String(decoding: bytes[start..<position], as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 {
                throw fail(
                    "a control character (0x\(String(c, radix: 16))) inside a string; escape it")
            }
            position += 1
        }
        var out = [UInt8](bytes[start..<position])
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 {
                throw fail(
                    "a control character (0x\(String(c, radix: 16))) inside a string; escape it")
            }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { break }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), peek(UInt8(ascii: "\\")),
                    position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "u")
                {
                    position += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position -= 6  // not a pair: the second escape stands alone
                    }
                }
                // A lone surrogate becomes U+FFFD, as JavaScript would show it.
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                position -= 2
                throw fail("`\\\(String(decoding: [e], as: UTF8.self))` is not a JSON escape")
            }
        }
        throw fail("a string is not closed before the end of the document")
    }

    private mutating func hex4() throws(JSONFailure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("`\\u` needs four hexadecimal digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("`\\u` needs four hexadecimal digits, found \(describe(position))")
            }
            v = v << 4 | digit
            position += 1
        }
        return v
    }

    /// The literals' bytes, made once rather than at every `true` of a document.
    private static let trueWord = Array("true".utf8), falseWord = Array("false".utf8),
        nullWord = Array("null".utf8)

    private mutating func literal(_ letters: [UInt8]) throws(JSONFailure) {
        let n = letters.count
        let matches =
            position + n <= bytes.count
            && (0..<n).allSatisfy { bytes[position + $0] == letters[$0] }
        guard matches else {
            throw fail("unexpected \(describe(position)) where a value was expected")
        }
        position += n
    }

    // MARK: Helpers

    private mutating func spend(_ n: Int) throws(JSONFailure) {
        memory += n
        if memory > limits.memoryBytes {
            throw failure(.limit(LimitViolation(.documentMemory, limit: limits.memoryBytes)))
        }
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func peek(_ c: UInt8) -> Bool { position < bytes.count && bytes[position] == c }
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// The token at `i` for a message: a short run of its characters, or "the end".
    private func describe(_ i: Int) -> String {
        guard i < bytes.count else { return "the end of the document" }
        var j = i
        while j < bytes.count, j - i < 12, !" \n\r\t,:]}".utf8.contains(bytes[j]) { j += 1 }
        if j == i { j = i + 1 }
        return "`" + String(decoding: bytes[i..<j], as: UTF8.self) + "`"
    }

    private func fail(_ message: String) -> JSONFailure { failure(.syntax(message)) }

    private func failure(_ reason: JSONFailure.Reason) -> JSONFailure {
        var line = 1, column = 1
        for i in 0..<min(position, bytes.count) {
            if bytes[i] == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return JSONFailure(reason: reason, line: line, column: column)
    }
}
