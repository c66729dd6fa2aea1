import Foundation

/// Runs `produce` for indices 0..<count on `jobs` threads and hands the results to
/// `consume` on the calling thread, in index order, as soon as each is ready.
///
/// At most `window` results exist at once (produced but not yet consumed), so memory
/// stays bounded by a few frames whatever the count. If `consume` throws, the workers
/// stop taking new indices and the error is rethrown once they have finished. A
/// ``RenderCancellation/shared`` request stops it the same way, with ``RenderCancelled``.
///
/// `interleaved`: thread w of n produces indices w, w + n, w + 2n, … (still within the
/// window) instead of whichever comes next, so that each thread's previous index is the
/// one n before (the GIF exporter relies on it to draw each frame into the pixels of the
/// thread's previous one; see `GIFExporter`).
public enum OrderedParallelMap {
    public static func run<T: Sendable>(
        count: Int, jobs: Int, window: Int? = nil, interleaved: Bool = false,
        produce: @escaping @Sendable (Int) -> T,
        consume: (Int, T) throws -> Void
    ) throws {
        guard count > 0 else { return }
        let workers = max(1, min(jobs, count))
        if workers == 1 {
            for i in 0..<count {
                try RenderCancellation.shared.check()
                let value = produce(i)
                // Produced while a stop was requested, it may be half done: not consumed.
                try RenderCancellation.shared.check()
                try consume(i, value)
            }
            return
        }
        let state = SharedState<T>(window: max(window ?? workers * 2, workers))
        let group = DispatchGroup()
        for worker in 0..<workers {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var own = worker
                while let index = interleaved
                    ? state.claim(own, count: count) : state.claim(count: count)
                {
                    own += workers
                    state.deliver(index, produce(index))
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        var failure: Error?
        for index in 0..<count {
            guard !RenderCancellation.shared.isCancelled, let value = state.take(index) else {
                if RenderCancellation.shared.isCancelled { failure = RenderCancelled() }
                state.cancel()
                break
            }
            do { try consume(index, value) } catch {
                failure = error
                state.cancel()
                break
            }
        }
        group.wait()
        if let failure { throw failure }
        // The last results may have been produced after a stop request, half done.
        try RenderCancellation.shared.check()
    }

    /// The bookkeeping shared by the workers and the consumer, behind one condition lock.
    private final class SharedState<T>: @unchecked Sendable {
        private let condition = NSCondition()
        private var next = 0
        private var consumed = 0
        private var cancelled = false
        private var ready: [Int: T] = [:]
        private let window: Int

        init(window: Int) { self.window = window }

        func claim(count: Int) -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while !cancelled && next < count && next - consumed >= window { condition.wait() }
            guard !cancelled, next < count, !RenderCancellation.shared.isCancelled else {
                return nil
            }
            next += 1
            return next - 1
        }

        /// Claims `index` (an interleaved thread's next one): waits until it is within the
        /// window; nil when it is past `count` or the run is cancelled.
        func claim(_ index: Int, count: Int) -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while !cancelled && index < count && index - consumed >= window { condition.wait() }
            guard !cancelled, index < count, !RenderCancellation.shared.isCancelled else {
                return nil
            }
            return index
        }

        func deliver(_ index: Int, _ value: T) {
            condition.lock()
            ready[index] = value
            condition.broadcast()
            condition.unlock()
        }

        func take(_ index: Int) -> T? {
            condition.lock()
            defer { condition.unlock() }
            while ready[index] == nil && !cancelled {
                // Polled: a signal handler cannot signal this condition.
                if RenderCancellation.shared.isCancelled {
                    cancelled = true
                    condition.broadcast()
                    return nil
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            guard let value = ready.removeValue(forKey: index) else { return nil }
            consumed = index + 1
            condition.broadcast()
            return value
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
