import Testing
import FlipbookRaster
@testable import FlipbookCodecs
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct GIFFailureTests {
    typealias S = GIFTestSupport

    @Test func truncatedAndCorruptBytesThrow() throws {
        let bytes = try S.encode(GIFRoundTripTests.sliding(3), delays: [3, 3, 3])
        #expect(throws: GIFError.self) { try GIFReader.decode([]) }
        #expect(throws: GIFError.self) { try GIFReader.decode(Array("GIF89a".utf8)) }
        #expect(throws: GIFError.self) {
            try GIFReader.decode([UInt8](repeating: 0x47, count: 100))
        }
        #expect(throws: GIFError.self) { try GIFReader.decode(Array(bytes.prefix(13))) }
        // Every truncation either throws or (cut inside the trailer) decodes: never crashes.
        for n in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? GIFReader.decode(Array(bytes.prefix(n)))
        }
        #expect(throws: GIFError.self) {
            try GIFReader.decode(Array(bytes.prefix(bytes.count / 2)))
        }
        // Flipped bytes: any outcome but a crash.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var b = bytes
            for _ in 0..<3 {
                b[Int.random(in: 13..<b.count, using: &rng)] = UInt8.random(
                    in: 0...255, using: &rng)
            }
            _ = try? GIFReader.decode(b)
        }
        #expect(throws: GIFError.self) { try GIFReader.read(path: "/nonexistent/x.gif") }
    }

    @Test func abandonLeavesTheTargetUntouched() throws {
        let folder = S.scratchFolder()
        let path = folder + "/keep.gif"
        try FileIO.writeAtomically([1, 2, 3], to: path)
        let writer = try GIFWriter(
            path: path, width: 40, height: 30, loopCount: 0, background: .white)
        try writer.append(GIFRoundTripTests.sliding(1)[0], delayCentiseconds: 5)
        writer.abandon()
        #expect(try FileIO.readAll(path: path) == [1, 2, 3])
        #expect(S.files(in: folder) == ["keep.gif"])
        #expect(throws: GIFError.self) { try writer.finish() }
    }

    @Test func wrongFrameSizeAndEmptyGIFThrow() throws {
        let folder = S.scratchFolder()
        let writer = try GIFWriter(
            path: folder + "/a.gif", width: 10, height: 10, loopCount: 0, background: nil)
        #expect(throws: GIFError.self) {
            try writer.append(Pixmap(width: 11, height: 10), delayCentiseconds: 3)
        }
        #expect(throws: GIFError.self) { try writer.finish() }
        #expect(S.files(in: folder).isEmpty)
        #expect(throws: GIFError.self) {
            try GIFWriter(
                path: "/nonexistent/dir/a.gif", width: 1, height: 1, loopCount: 0, background: nil)
        }
    }
}
