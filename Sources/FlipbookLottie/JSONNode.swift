import Foundation

/// A value of a parsed JSON document together with where it sits
/// (`layers[3].shapes[1].ks.k[0].s`), so that every message can name the place.
struct JSONNode {
    let value: Any?
    let path: String

    init(_ value: Any?, path: String) {
        self.value = value
        self.path = path
    }

    var exists: Bool { value != nil && !(value is NSNull) }

    subscript(key: String) -> JSONNode {
        JSONNode((value as? [String: Any])?[key], path: path.isEmpty ? key : "\(path).\(key)")
    }

    subscript(index: Int) -> JSONNode {
        let array = value as? [Any]
        return JSONNode(array.flatMap { index < $0.count ? $0[index] : nil }, path: "\(path)[\(index)]")
    }

    var object: [String: Any]? { value as? [String: Any] }
    var isArray: Bool { value is [Any] }

    /// The elements of an array, each with its path.
    var elements: [JSONNode]? {
        guard let array = value as? [Any] else { return nil }
        return array.indices.map { JSONNode(array[$0], path: "\(path)[\($0)]") }
    }

    /// A number (JSON booleans are not numbers here).
    var number: Double? {
        guard let n = value as? NSNumber, !Self.isBool(n) else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    var string: String? { value as? String }

    /// true for JSON true or a non-zero number (Lottie writes both).
    var bool: Bool? {
        if let n = value as? NSNumber { return n.doubleValue != 0 }
        return nil
    }

    /// A number, or an array of numbers.
    var numbers: [Double]? {
        if let n = number { return [n] }
        guard let list = elements else { return nil }
        var out: [Double] = []
        out.reserveCapacity(list.count)
        for e in list {
            guard let n = e.number else { return nil }
            out.append(n)
        }
        return out
    }

    /// JSON true/false arrive as NSNumber too; their class tells them apart.
    private static func isBool(_ n: NSNumber) -> Bool {
        String(describing: type(of: n)).contains("Boolean")
    }

    /// A short description of the value for messages.
    var kind: String {
        switch value {
        case nil, is NSNull: "nothing"
        case is String: "a string"
        case let n as NSNumber: Self.isBool(n) ? "a boolean" : "the number \(n)"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "a value"
        }
    }
}
