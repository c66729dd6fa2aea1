import Foundation

/// A value behind a lock.
package final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    package init(_ value: Value) { self.value = value }
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
