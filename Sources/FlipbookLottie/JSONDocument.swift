import FlipbookGeometry
import FlipbookScene
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A parsed JSON document held as a flat tape: one entry per value in document order
/// (an object's entries alternate key, value), each with its kind, a payload (a number's
/// bits, a string's index, a container's element count) and the index just past its
/// subtree, so that walking to a sibling skips a whole subtree in one step.
///
/// Why not Foundation's JSONSerialization: a boxed `[String: Any]` tree costs several
/// times the document's size and is only complete after the whole file is read, so a
/// hostile file could exhaust memory before any limit was looked at. Here every value
/// costs 13 bytes of tape (plus a string's bytes), the budget derived from `maxMemory`
/// and the layer limit are counted while the bytes are read, and a malformed file is
/// reported with its line and column in Lottie's terms.
final class JSONDocument {
    enum Kind: UInt8 { case null, bool, number, string, array, object }

    private(set) var kinds: [Kind] = []
    private(set) var payloads: [UInt64] = []
    private(set) var ends: [UInt32] = []
    private(set) var strings: [String] = []

    var count: Int { kinds.count }

    func kind(_ i: Int) -> Kind { kinds[i] }
    func number(_ i: Int) -> Double { Double(bitPattern: payloads[i]) }
    func bool(_ i: Int) -> Bool { payloads[i] != 0 }
    func string(_ i: Int) -> String { strings[Int(payloads[i])] }
    /// Elements of an array, or key–value pairs of an object.
    func elementCount(_ i: Int) -> Int { Int(payloads[i]) }
    /// The index just past the value at `i` and everything inside it.
    func end(_ i: Int) -> Int { Int(ends[i]) }

    /// The value of `key` in the object at `i` (the last one when a key repeats, as
    /// JavaScript's JSON.parse keeps it), or nil.
    func value(ofKey key: String, inObject i: Int) -> Int? {
        var found: Int?
        var k = i + 1
        let stop = end(i)
        while k < stop {
            let v = k + 1
            if strings[Int(payloads[k])] == key { found = v }
            k = end(v)
        }
        return found
    }

    /// The indices of an array's elements.
    func elements(ofArray i: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(elementCount(i))
        var k = i + 1
        let stop = end(i)
        while k < stop {
            out.append(k)
            k = end(k)
        }
        return out
    }

    /// The keys of an object, in document order.
    func keys(ofObject i: Int) -> [String] {
        var out: [String] = []
        var k = i + 1
        let stop = end(i)
        while k < stop {
            out.append(strings[Int(payloads[k])])
            k = end(k + 1)
        }
        return out
    }

    // MARK: Building (JSONParser)

    func append(_ kind: Kind, payload: UInt64) -> Int {
        kinds.append(kind)
        payloads.append(payload)
        ends.append(UInt32(truncatingIfNeeded: kinds.count))
        return kinds.count - 1
    }

    func appendString(_ s: String) -> Int {
        strings.append(s)
        return append(.string, payload: UInt64(strings.count - 1))
    }

    func close(_ i: Int, elements: Int) {
        payloads[i] = UInt64(elements)
        ends[i] = UInt32(truncatingIfNeeded: kinds.count)
    }

    func reserve(_ n: Int) {
        kinds.reserveCapacity(n)
        payloads.reserveCapacity(n)
        ends.reserveCapacity(n)
    }
}

/// What the parser may spend, and what it counts while reading.
struct JSONLimits {
    /// Most bytes the tape and the strings may take (each value costs ``JSONParser/bytesPerValue``).
    var memoryBytes: Int = 512 << 20
    /// Most elements over every array held by a key `layers` (a Lottie file's layers,
    /// precompositions' included), counted as they are read.
    var layers: Int = .max
    /// Most objects over every array held by a key `k` (keyframes).
    var keyframes: Int = .max
    /// Most elements in one array held by a key `v` (a path's vertices).
    var pathVertices: Int = .max
    /// Deepest nesting of arrays and objects.
    var depth: Int = 256
}

/// Why a document was refused: a syntax error at a place, or a limit.
struct JSONFailure: Error {
    enum Reason {
        case syntax(String)
        case limit(LimitViolation)
        case cancelled
    }
    var reason: Reason
    var line: Int
    var column: Int
}
