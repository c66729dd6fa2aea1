#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sequential reads of a GIF file's blocks through a 64 KiB buffer, for
/// ``GIFGlobalMapOrder`` (which reads the file the writer just finished).
final class GIFByteReader {
    private let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0

    init(path: String) throws {
        guard let file = fopen(path, "rb") else {
            throw GIFError.cannotOpen(path: path, reason: FileIO.lastError())
        }
        self.path = path
        self.file = file
    }

    deinit { fclose(file) }

    private func fill() throws {
        end = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        start = 0
        guard end > 0 else { throw GIFError.endsEarly(path: path) }
    }

    func byte() throws -> UInt8 {
        if start == end { try fill() }
        start += 1
        return buffer[start - 1]
    }

    func bytes(_ n: Int) throws -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(n)
        while out.count < n {
            if start == end { try fill() }
            let k = min(n - out.count, end - start)
            out.append(contentsOf: buffer[start..<(start + k)])
            start += k
        }
        return out
    }

    func skip(_ n: Int) throws {
        var left = n
        while left > 0 {
            if start == end { try fill() }
            let k = min(left, end - start)
            start += k
            left -= k
        }
    }

    /// The signature, the logical screen descriptor and the global color map (if any) as
    /// they are in the file, and the map's entry count (0 without one).
    func header() throws -> (mapSize: Int, bytes: [UInt8]) {
        var head = try bytes(13)
        guard head[0..<3].elementsEqual("GIF".utf8) else {
            throw GIFError.notAGIF(path: path)
        }
        guard head[10] & 0x80 != 0 else { return (0, head) }
        let size = 2 << Int(head[10] & 7)
        head += try bytes(3 * size)
        return (size, head)
    }

    /// Skips an extension (after its introducer); returns the transparent index when it is
    /// a graphics control extension that sets one.
    func skipExtension() throws -> Int? {
        let label = try byte()
        var transparent: Int?
        var first = true
        while true {
            let n = Int(try byte())
            if n == 0 { return transparent }
            let block = try bytes(n)
            if first && label == 0xF9 && n == 4 && block[0] & 1 != 0 { transparent = Int(block[3]) }
            first = false
        }
    }

    /// The data of a run of sub-blocks (up to the terminator), concatenated.
    func blocks() throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let n = Int(try byte())
            if n == 0 { return out }
            out += try bytes(n)
        }
    }

    func skipBlocks() throws {
        while true {
            let n = Int(try byte())
            if n == 0 { return }
            try skip(n)
        }
    }

    /// Copies a run of sub-blocks, terminator included.
    func copyBlocks(to out: GIFByteWriter) throws {
        while true {
            let n = try byte()
            out.put([n])
            if n == 0 { return }
            out.put(try bytes(Int(n))[...])
        }
    }
}

/// Buffered writes into an ``AtomicFileWriter``, counting the bytes.
final class GIFByteWriter {
    private let file: AtomicFileWriter
    private var buffer: [UInt8] = []
    private(set) var written = 0

    init(_ file: AtomicFileWriter) {
        self.file = file
        buffer.reserveCapacity(1 << 16)
    }

    func put<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        written += bytes.count
    }

    func flushIfFull() throws {
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        do { try file.write(buffer) } catch { throw GIFError.file(error) }
        buffer.removeAll(keepingCapacity: true)
    }
}
