/// A value of a parsed JSON document together with where it sits
/// (`layers[3].shapes[1].ks.k[0].s`), so that every message can name the place. A node
/// for a key or index that is not there is still a node (``exists`` is false), so that
/// lookups chain without optionals.
struct JSONNode {
    let document: JSONDocument?
    /// The value's index in the document's tape; -1 when the node names nothing.
    let index: Int
    let path: String

    init(_ document: JSONDocument?, index: Int, path: String) {
        self.document = document
        self.index = document == nil ? -1 : index
        self.path = path
    }

    /// A node for a place that holds nothing.
    static func missing(path: String) -> JSONNode { JSONNode(nil, index: -1, path: path) }

    private var kindValue: JSONDocument.Kind? { index >= 0 ? document?.kind(index) : nil }

    var exists: Bool { kindValue != nil && kindValue != .null }
    var isObject: Bool { kindValue == .object }
    var isArray: Bool { kindValue == .array }

    /// Whether the object has `key`, even with a null value.
    func has(_ key: String) -> Bool {
        guard let document, isObject else { return false }
        return document.value(ofKey: key, inObject: index) != nil
    }

    subscript(key: String) -> JSONNode {
        let childPath = path.isEmpty ? key : "\(path).\(key)"
        guard let document, isObject, let child = document.value(ofKey: key, inObject: index) else {
            return .missing(path: childPath)
        }
        return JSONNode(document, index: child, path: childPath)
    }

    subscript(position: Int) -> JSONNode {
        let childPath = "\(path)[\(position)]"
        guard let document, isArray, position >= 0, position < document.elementCount(index) else {
            return .missing(path: childPath)
        }
        var k = index + 1
        for _ in 0..<position { k = document.end(k) }
        return JSONNode(document, index: k, path: childPath)
    }

    /// Elements of an array (0 when not an array), without building the nodes.
    var count: Int { isArray ? document!.elementCount(index) : 0 }

    /// The elements of an array, each with its path.
    var elements: [JSONNode]? {
        guard let document, isArray else { return nil }
        return document.elements(ofArray: index).enumerated().map {
            JSONNode(document, index: $1, path: "\(path)[\($0)]")
        }
    }

    /// The keys of an object, in document order.
    var keys: [String] {
        guard let document, isObject else { return [] }
        return document.keys(ofObject: index)
    }

    /// A number (JSON booleans are not numbers here; the parser admits only finite ones).
    var number: Double? { kindValue == .number ? document!.number(index) : nil }

    var string: String? { kindValue == .string ? document!.string(index) : nil }

    /// true for JSON true or a non-zero number (Lottie writes both).
    var bool: Bool? {
        switch kindValue {
        case .bool: document!.bool(index)
        case .number: document!.number(index) != 0
        default: nil
        }
    }

    /// A number, or an array of numbers.
    var numbers: [Double]? {
        if let n = number { return [n] }
        guard let document, isArray else { return nil }
        var out: [Double] = []
        out.reserveCapacity(document.elementCount(index))
        var k = index + 1
        let stop = document.end(index)
        while k < stop {
            guard document.kind(k) == .number else { return nil }
            out.append(document.number(k))
            k += 1
        }
        return out
    }

    /// A short description of the value for messages.
    var kind: String {
        switch kindValue {
        case nil, .null: "nothing"
        case .string: "a string"
        case .bool: "a boolean"
        case .number: "the number \(Self.format(document!.number(index)))"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A number as JSON would write it (`3`, not `3.0`).
    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
