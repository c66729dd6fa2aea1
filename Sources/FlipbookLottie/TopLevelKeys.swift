/// The keys of a JSON document's top-level object, read without parsing the values: the
/// scan skips each value by its brackets and strings, and stops at the first thing that
/// is not JSON, returning the keys seen before it. `LottieLoader.isLottie` uses it on the
/// start of a file to tell a Lottie animation (even a broken one) from a Flipbook scene.
enum TopLevelKeys {
    static func scan(_ bytes: [UInt8]) -> Set<String> {
        var keys: Set<String> = []
        var i = 0
        func skipSpace() {
            while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        }
        /// Moves past a string starting at `i` (a quote); false when it does not close.
        func skipString() -> Bool {
            i += 1
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
                if bytes[i] == UInt8(ascii: "\"") { i += 1; return true }
                i += 1
            }
            return false
        }
        /// Moves past one value: a bracketed one by depth, a scalar up to `,` or `}`.
        func skipValue() -> Bool {
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""): if !skipString() { return false }; continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; return true }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                while i < bytes.count, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}")
                { i += 1 }
                return i < bytes.count
            }
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return keys }
        i += 1
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return keys }
            let start = i + 1
            guard skipString() else { return keys }
            keys.insert(String(decoding: bytes[start..<(i - 1)], as: UTF8.self))
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return keys }
            i += 1
            skipSpace()
            guard skipValue() else { return keys }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return keys }
            i += 1
        }
    }
}
