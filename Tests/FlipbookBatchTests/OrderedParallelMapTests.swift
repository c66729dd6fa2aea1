import Foundation
import Testing
@testable import Flipbook
#if canImport(Glibc)
    import Glibc
#endif

/// ``OrderedParallelMap``: results consumed in index order; interleaved, thread w of n
/// produces exactly the indices w, w + n, … (the GIF exporter draws each frame into the
/// pixels of the thread's previous one and waits on that order).
@Suite struct OrderedParallelMapTests {
    @Test(arguments: [(1, 1), (2, 2), (3, 3), (4, 2), (2, 4)])
    func interleavedThreadsTakeEveryNthIndex(_ jobs: Int, _ window: Int) throws {
        let count = 101
        var consumed: [Int] = []
        var threadOf: [Int: UInt] = [:]
        try OrderedParallelMap.run(
            count: count, jobs: jobs, window: window, interleaved: true,
            produce: { i in
                (i, UInt(bitPattern: Int(bitPattern: pthread_self())))
            },
            consume: { i, value in
                #expect(value.0 == i)
                consumed.append(i)
                threadOf[i] = value.1
            })
        #expect(consumed == Array(0..<count))
        // One thread per residue class, a different one for each class.
        let workers = min(jobs, count)
        var classes: [UInt] = []
        for r in 0..<workers {
            let threads = Set(stride(from: r, to: count, by: workers).map { threadOf[$0]! })
            #expect(threads.count == 1)
            classes.append(threads.first!)
        }
        #expect(Set(classes).count == workers)
    }

    @Test func aThrowingConsumerStopsAnInterleavedRun() {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try OrderedParallelMap.run(
                count: 1000, jobs: 3, window: 3, interleaved: true, produce: { $0 },
                consume: { i, _ in
                    seen += 1
                    if i == 10 { throw Stop() }
                })
        }
        #expect(seen == 11)
    }
}
