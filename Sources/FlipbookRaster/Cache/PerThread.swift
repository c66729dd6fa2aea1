#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One object per thread, made on first use by `make` and released when the thread
/// ends: the rasterizer's working memory and the renderer's caches, never shared.
package final class PerThread<Value: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t
    private let make: () -> Value

    package init(_ make: @escaping () -> Value) {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            #if canImport(Darwin)
                Unmanaged<AnyObject>.fromOpaque(raw).release()
            #else
                if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() }
            #endif
        }
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    package var value: Value {
        if let raw = pthread_getspecific(key) {
            return unsafeDowncast(
                Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue(), to: Value.self)
        }
        let fresh = make()
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(fresh).toOpaque())
        return fresh
    }
}
