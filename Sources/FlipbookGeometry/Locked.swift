import Foundation

/// A value behind a lock: the one lock box of the package (the text engine's fontconfig,
/// FreeType faces and caches, the batch renderer's results and queues go through one of these).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
