// The edits JSONMutator makes to a parsed document (see JSONMutator.swift).

/// One structural edit of a JSON document per call, chosen by a seeded generator.
struct JSONMutator {
    /// Numbers where readers convert, clamp, allocate or loop: zero, negatives, the ends of
    /// Double, powers of two past Int32, Int64 and UInt64, denormals, fractions where an
    /// integer is expected, and tokens that are not JSON at all (`NaN`, `Infinity`,
    /// `1e400`), written raw into the text.
    static let extremeNumbers = [
        "0", "-0", "-1", "1", "0.5", "-0.5", "1.5", "2", "3", "100", "1000", "1e4", "1e5", "1e6",
        "1e20", "-1e20", "1e308", "-1e308", "1.7976931348623157e308", "1e-308", "4.9e-324", "1e-7",
        "2147483647", "2147483648", "-2147483649", "4294967296", "9007199254740993",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616",
        "NaN", "-NaN", "Infinity", "-Infinity", "1e400", "-1e400",
    ]
    /// The same as strings: readers that accept "12" for 12 must not accept these.
    static let extremeStrings = [
        "NaN", "Infinity", "-Infinity", "1e308", "-1", "9223372036854775808", "",
    ]
    /// How many times an array is repeated (bounded by the size limit).
    static let repeatFactors = [2, 10, 100, 1000]

    enum Edit: CaseIterable {
        case extremeNumber, nudgeNumber, retype, repeatArray, repeatElement, dropKey, swapSubtrees,
            copySubtree, copyKey
    }

    /// Edits chosen more often come more than once: numbers are where Lottie readers trap.
    static let editWeights: [Edit] = [
        .extremeNumber, .extremeNumber, .extremeNumber, .extremeNumber, .nudgeNumber, .nudgeNumber,
        .retype, .retype, .repeatArray, .repeatElement, .repeatElement, .dropKey, .dropKey,
        .swapSubtrees, .copySubtree, .copyKey,
    ]

    var random: SeededGenerator
    /// The most bytes the written document may take (libFuzzer's `max_len`).
    let maxSize: Int

    init(seed: UInt32, maxSize: Int) {
        random = SeededGenerator(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D &+ 1)
        self.maxSize = maxSize
    }

    /// `document` edited once (sometimes twice) and written, within `maxSize`; nil when no
    /// edit applied within a few tries (a document with nothing to edit, or too big).
    mutating func mutate(_ document: JSONValue) -> [UInt8]? {
        for _ in 0..<8 {
            var edited = document
            let rounds = Int.random(in: 0..<4, using: &random) == 0 ? 2 : 1
            var applied = 0
            for _ in 0..<rounds
            where apply(Self.editWeights.randomElement(using: &random)!, to: &edited) {
                applied += 1
            }
            guard applied > 0, edited != document else { continue }
            let bytes = edited.bytes
            if bytes.count <= maxSize { return bytes }
        }
        return nil
    }

    /// A value of `donor` grafted somewhere in `document` (libFuzzer's cross-over): a layer
    /// of one file in another's layer list, a keyframe of one in another's, and so on.
    mutating func crossOver(_ document: JSONValue, with donor: JSONValue) -> [UInt8]? {
        let donorPaths = donor.paths { _ in true }
        let targets = document.paths { _ in true }
        for _ in 0..<4 {
            let graft = donor.value(at: donorPaths.randomElement(using: &random)![...])
            var edited = document
            edited.modify(at: targets.randomElement(using: &random)![...]) { target in
                // Into an array half the time, so that lists grow rather than only change.
                if case .array(var elements) = target, Bool.random(using: &random) {
                    elements.insert(graft, at: Int.random(in: 0...elements.count, using: &random))
                    target = .array(elements)
                } else {
                    target = graft
                }
            }
            let bytes = edited.bytes
            if edited != document, bytes.count <= maxSize { return bytes }
        }
        return nil
    }

    /// Applies `edit` at a random place it fits; false when the document has no such place.
    mutating func apply(_ edit: Edit, to document: inout JSONValue) -> Bool {
        switch edit {
        case .extremeNumber:
            // Numbers mostly; any scalar sometimes, so that a string or a flag becomes a number.
            let scalarsToo = Int.random(in: 0..<4, using: &random) == 0
            guard
                let path = pick(
                    in: document,
                    where: { value in
                        if case .number = value { return true }
                        return scalarsToo && !value.isContainer
                    })
            else { return false }
            let replacement: JSONValue =
                Int.random(in: 0..<5, using: &random) == 0
                ? .string(Self.extremeStrings.randomElement(using: &random)!)
                : .number(Self.extremeNumbers.randomElement(using: &random)!)
            document.modify(at: path[...]) { $0 = replacement }
        case .nudgeNumber:
            guard
                let path = pick(
                    in: document, where: { if case .number = $0 { true } else { false } }),
                case .number(let text) = document.value(at: path[...]),
                let value = Double(text)
            else { return false }
            let nudged = [
                value + 1, value - 1, -value, value * 1000, value / 1000,
                value.rounded(.down) + 0.5,
                value * 2, Double(Int.random(in: -3...100, using: &random)),
            ].randomElement(using: &random)!
            guard nudged.isFinite else { return false }
            document.modify(at: path[...]) { $0 = .number("\(nudged)") }
        case .retype:
            guard let path = pick(in: document, where: { _ in true }) else { return false }
            let original = document.value(at: path[...])
            let retyped = retype(original)
            guard retyped != original else { return false }
            document.modify(at: path[...]) { $0 = retyped }
        case .repeatArray, .repeatElement:
            guard
                let path = pick(
                    in: document,
                    where: { if case .array(let a) = $0 { !a.isEmpty } else { false } }),
                case .array(let elements) = document.value(at: path[...])
            else { return false }
            let unit = edit == .repeatArray ? elements : [elements.randomElement(using: &random)!]
            // As many copies as fit in what the size limit leaves.
            let room = maxSize - document.bytes.count
            let unitSize = JSONValue.array(unit).bytes.count
            let factor = min(
                Self.repeatFactors.randomElement(using: &random)!, room / max(unitSize, 1))
            guard factor >= 1 else { return false }
            var repeated = elements
            for _ in 0..<factor { repeated += unit }
            document.modify(at: path[...]) { $0 = .array(repeated) }
        case .dropKey:
            guard
                let path = pick(
                    in: document,
                    where: { if case .object(let e) = $0 { !e.isEmpty } else { false } }),
                case .object(var entries) = document.value(at: path[...])
            else { return false }
            entries.remove(at: Int.random(in: 0..<entries.count, using: &random))
            document.modify(at: path[...]) { $0 = .object(entries) }
        case .swapSubtrees, .copySubtree:
            let all = document.paths { _ in true }
            guard all.count > 2 else { return false }
            let from = all.randomElement(using: &random)!, to = all.randomElement(using: &random)!
            let fromValue = document.value(at: from[...]), toValue = document.value(at: to[...])
            if edit == .copySubtree {
                document.modify(at: to[...]) { $0 = fromValue }
            } else {
                // Neither may contain the other, or one of them would vanish.
                guard !from.starts(with: to), !to.starts(with: from) else { return false }
                document.modify(at: to[...]) { $0 = fromValue }
                document.modify(at: from[...]) { $0 = toValue }
            }
        case .copyKey:
            let objects = document.paths {
                if case .object(let e) = $0 { !e.isEmpty } else { false }
            }
            guard let source = objects.randomElement(using: &random),
                let target = objects.randomElement(using: &random),
                case .object(let entries) = document.value(at: source[...])
            else { return false }
            let entry = entries.randomElement(using: &random)!
            document.modify(at: target[...]) { value in
                guard case .object(var targetEntries) = value else { return }
                targetEntries.removeAll { $0.key == entry.key }
                let index =
                    targetEntries.firstIndex { $0.key > entry.key } ?? targetEntries.endIndex
                targetEntries.insert(entry, at: index)
                value = .object(targetEntries)
            }
        }
        return true
    }

    /// A random path among the values for which `include` holds.
    private mutating func pick(in document: JSONValue, where include: (JSONValue) -> Bool) -> [Int]?
    {
        document.paths(where: include).randomElement(using: &random)
    }

    /// `value` as another JSON type, keeping what it held where the new type can hold it.
    private mutating func retype(_ value: JSONValue) -> JSONValue {
        let kinds = ["null", "bool", "number", "string", "array", "object"]
        switch kinds.randomElement(using: &random)! {
        case "null": return .null
        case "bool": return .bool(Bool.random(using: &random))
        case "number":
            switch value {
            case .string(let text) where Double(text) != nil: return .number(text)
            case .array(let elements): return .number("\(elements.count)")
            case .bool(let flag): return .number(flag ? "1" : "0")
            default: return .number(Self.extremeNumbers.randomElement(using: &random)!)
            }
        case "string":
            switch value {
            case .number(let text): return .string(text)
            case .bool(let flag): return .string(flag ? "true" : "false")
            default: return .string(String(decoding: value.bytes.prefix(64), as: UTF8.self))
            }
        case "array":
            switch value {
            case .object(let entries): return .array(entries.map(\.value))
            case .array(let elements): return .array(Array(elements.prefix(1)))
            default: return .array([value])
            }
        default:
            switch value {
            case .array(let elements):
                // Sorted keys: "10" before "2", as every object here is kept.
                let entries = elements.enumerated().map {
                    JSONValue.Entry(key: "\($0.offset)", value: $0.element)
                }
                return .object(entries.sorted { $0.key < $1.key })
            case .object: return .object([])
            default: return .object([JSONValue.Entry(key: "k", value: value)])
            }
        }
    }
}
