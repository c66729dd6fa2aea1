import FlipbookGeometry

/// GIF's LZW compressor, written here rather than left to giflib's `EGifPutLine`, for three
/// reasons: frames are then compressed on the worker threads (giflib's writer is serial), the
/// frame encoder learns each candidate's exact size by compressing it, and a pixel that may
/// take either of two palette indices (an unchanged pixel can be transparent or repeat its own
/// color) takes whichever extends the string being matched.
///
/// The algorithm is giflib 5's `EGifCompressLine`, so with no alternatives the bytes are the
/// ones giflib writes (a test compares them): a clear code first; greedy longest match
/// through a table of (prefix code, index) → code; on a miss the prefix is emitted and the
/// new string added; codes start at `minCodeSize + 1` bits and grow by one bit when an
/// emitted code leaves the next free code at the current limit, up to 12 bits; when the next
/// free code reaches 4095 a clear code is emitted instead of adding an entry; the last prefix
/// and the end code close the stream. Codes are packed least significant bit first and cut
/// into sub-blocks of at most 255 bytes, each led by its length.
///
/// Alternatives: where `alternates[i] != indices[i]`, either index is acceptable for pixel
/// i. The one equal to the previous pixel's chosen index (a run continuing) is tried first,
/// then the other: the first that extends the current string is taken; when neither does,
/// the new string starts with the one tried first.
public enum LZWEncoder {
    /// GIF's minimum code size for a color map of `colors` entries (at least 2, as giflib).
    public static func minCodeSize(colors: Int) -> Int {
        var bits = 2
        while (1 << bits) < colors { bits += 1 }
        return bits
    }

    /// Compresses `indices` (each below `1 << minCodeSize`).
    public static func compress(_ indices: [UInt8], minCodeSize: Int, alternates: [UInt8]? = nil)
        -> LZWImage
    {
        indices.withUnsafeBufferPointer { primary in
            if let alternates {
                precondition(alternates.count == indices.count, "one alternate per pixel")
                return alternates.withUnsafeBufferPointer {
                    compress(primary, minCodeSize: minCodeSize, alternates: $0)
                }
            }
            // The image's indices are the input's: share the array instead of a copy.
            let image = compress(
                primary, minCodeSize: minCodeSize, alternates: nil, keepIndices: false)
            return LZWImage(minCodeSize: image.minCodeSize, blocks: image.blocks, indices: indices)
        }
    }

    /// `keepIndices` false: the image's `indices` are left empty when there are no
    /// alternates (the caller has them).
    public static func compress(
        _ indices: UnsafeBufferPointer<UInt8>, minCodeSize: Int,
        alternates: UnsafeBufferPointer<UInt8>?, keepIndices: Bool = true
    ) -> LZWImage {
        precondition((2...8).contains(minCodeSize), "GIF code sizes are 2…8 bits")
        // Grown by doubling: UI frames compress to a few percent of their pixels.
        var coder = LZWCoder(minCodeSize: minCodeSize, capacity: indices.count / 16 + 64)
        guard !indices.isEmpty else { return coder.finish(prefix: nil, indices: []) }
        guard let alternates else {
            var prefix = Int(indices[0])
            for i in 1..<indices.count {
                // A stop request (Ctrl-C), polled every 64 K pixels, ends the image early;
                // the frame it belongs to is then discarded.
                if i & 0xFFFF == 0 && RenderCancellation.shared.isCancelled { break }
                let a = Int(indices[i])
                if let code = coder.table.find(prefix << 8 | a) {
                    prefix = code
                } else {
                    coder.miss(prefix: prefix, next: a)
                    prefix = a
                }
            }
            return coder.finish(prefix: prefix, indices: keepIndices ? Array(indices) : [])
        }
        let chosen = [UInt8](unsafeUninitializedCapacity: indices.count) { chosen, count in
            var prefix = Int(indices[0])
            chosen[0] = indices[0]
            var last = prefix
            for i in 1..<indices.count {
                var a = Int(indices[i])
                var b = Int(alternates[i])
                // Try the previous pixel's index first: continuing a run is what most often
                // keeps the strings long.
                if b == last { swap(&a, &b) }
                if let code = coder.table.find(prefix << 8 | a) {
                    prefix = code
                    last = a
                } else if b != a, let code = coder.table.find(prefix << 8 | b),
                    reach(from: code, after: i, indices, alternates, coder.table)
                        >= reach(from: a, after: i, indices, alternates, coder.table)
                {
                    // The other index extends the string: taken only if it reaches at least
                    // as far as a new string starting with the preferred one would.
                    prefix = code
                    last = b
                } else {
                    // A new string starts here: with two choices, the one whose string runs
                    // longer through the table.
                    var start = a
                    if b != a
                        && reach(from: b, after: i, indices, alternates, coder.table)
                            > reach(from: a, after: i, indices, alternates, coder.table)
                    {
                        start = b
                    }
                    coder.miss(prefix: prefix, next: start)
                    prefix = start
                    last = start
                }
                chosen[i] = UInt8(truncatingIfNeeded: last)
            }
            coder.lastPrefix = prefix
            count = indices.count
        }
        return coder.finish(prefix: coder.lastPrefix, indices: chosen)
    }

    /// How many pixels after `i` the string starting with index `first` at pixel `i` matches,
    /// walking the table with the coder's own preferences.
    private static func reach(
        from first: Int, after i: Int, _ indices: UnsafeBufferPointer<UInt8>,
        _ alternates: UnsafeBufferPointer<UInt8>, _ table: LZWStringTable
    ) -> Int {
        var code = first, last = first, j = i + 1
        while j < indices.count {
            var a = Int(indices[j]), b = Int(alternates[j])
            if b == last { swap(&a, &b) }
            if let next = table.find(code << 8 | a) {
                code = next; last = a
            } else if b != a, let next = table.find(code << 8 | b) {
                code = next; last = b
            } else {
                break
            }
            j += 1
        }
        return j - i - 1
    }
}

/// The coder's state: giflib's code counter, code width and limit, the string table and
/// the bit sink.
struct LZWCoder {
    let minCodeSize: Int
    let clear: Int
    var running: Int
    var bits: Int
    var limit: Int
    var sink: LZWBitSink
    let table = LZWStringTable()
    var lastPrefix: Int?

    init(minCodeSize: Int, capacity: Int) {
        self.minCodeSize = minCodeSize
        clear = 1 << minCodeSize
        running = clear + 2
        bits = minCodeSize + 1
        limit = 1 << bits
        sink = LZWBitSink(capacity: capacity)
        emit(clear)
    }

    /// giflib's output routine: write the code, then widen codes if the table has reached
    /// the current limit.
    @inline(__always) mutating func emit(_ code: Int) {
        sink.put(code, bits: bits)
        if running >= limit && code <= 4095 {
            bits += 1
            limit = 1 << bits
        }
    }

    /// `prefix` followed by `next` is not in the table: emit the prefix and add the string
    /// (or clear the table when it is full).
    @inline(__always) mutating func miss(prefix: Int, next: Int) {
        emit(prefix)
        if running >= 4095 {
            emit(clear)
            running = clear + 2
            bits = minCodeSize + 1
            limit = 1 << bits
            table.removeAll()
        } else {
            table.insert(prefix << 8 | next, code: running)
            running += 1
        }
    }

    /// The last prefix, the end code, and the image.
    mutating func finish(prefix: Int?, indices: [UInt8]) -> LZWImage {
        if let prefix { emit(prefix) }
        emit(clear + 1)
        sink.flush()
        return LZWImage(minCodeSize: minCodeSize, blocks: sink.blocks(), indices: indices)
    }
}

/// A compressed GIF image: what follows the image descriptor (and local color map).
public struct LZWImage: Sendable, Equatable {
    /// The LZW minimum code size (the byte written before the sub-blocks).
    public let minCodeSize: Int
    /// The data sub-blocks, each a length byte (1…255) and that many bytes, without the
    /// block terminator.
    public let blocks: [UInt8]
    /// The palette index of every pixel as compressed (where a pixel had an alternative,
    /// the one chosen).
    public let indices: [UInt8]

    /// Bytes in the file: the code-size byte, the sub-blocks and the terminator.
    public var byteCount: Int { blocks.count + 2 }
}

/// The string table: (prefix code << 8 | index) → code, open addressing over 8192 slots (the
/// table holds at most 4093 strings, so it stays under half full). Entries carry a
/// generation number so that a clear is one increment, not a memset.
///
/// A string extended by its own last index (a run going on: most pixels of a UI frame)
/// is not hashed: `repeatChild[code]` holds that extension directly, a 8 KiB array that
/// stays in L1. Profiles of the card scene had a third of the coder's time on the hash
/// probe's load.
final class LZWStringTable {
    private static let slotBits = 13
    private static let mask = (1 << slotBits) - 1
    /// generation << 20 | key (keys are 20 bits: a 12-bit code and an 8-bit index).
    private let keys: UnsafeMutableBufferPointer<UInt32>
    private let codes: UnsafeMutableBufferPointer<UInt16>
    private var generation: UInt32 = 1
    /// The strings extending each code, as linked lists (code → its newest extension, and
    /// each extension → the next older one, -1 ending), with each string's last index: the
    /// lossy coder walks them to find a near match.
    let firstChild: UnsafeMutableBufferPointer<Int16>
    let nextSibling: UnsafeMutableBufferPointer<Int16>
    /// Each code's last index (for the roots, the index itself).
    let suffix: UnsafeMutableBufferPointer<UInt8>
    /// code → the code of that string followed by its own last index, -1 when absent.
    private let repeatChild: UnsafeMutableBufferPointer<Int16>

    init() {
        keys = .allocate(capacity: 1 << Self.slotBits)
        keys.initialize(repeating: 0)
        codes = .allocate(capacity: 1 << Self.slotBits)
        codes.initialize(repeating: 0)
        firstChild = .allocate(capacity: 4096)
        firstChild.initialize(repeating: -1)
        nextSibling = .allocate(capacity: 4096)
        nextSibling.initialize(repeating: -1)
        suffix = .allocate(capacity: 4096)
        suffix.initialize(repeating: 0)
        for root in 0..<256 { suffix[root] = UInt8(root) }
        repeatChild = .allocate(capacity: 4096)
        repeatChild.initialize(repeating: -1)
    }

    deinit {
        keys.deallocate()
        codes.deallocate()
        firstChild.deallocate()
        nextSibling.deallocate()
        suffix.deallocate()
        repeatChild.deallocate()
    }

    @inline(__always) private static func slot(_ key: Int) -> Int {
        Int((UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> UInt32(32 - slotBits))
    }

    @inline(__always) func find(_ key: Int) -> Int? {
        let prefix = key >> 8
        if suffix[prefix] == UInt8(truncatingIfNeeded: key) {
            let code = repeatChild[prefix]
            return code < 0 ? nil : Int(code)
        }
        let tagged = generation << 20 | UInt32(truncatingIfNeeded: key)
        var s = Self.slot(key)
        while true {
            let k = keys[s]
            if k == tagged { return Int(codes[s]) }
            if k >> 20 != generation { return nil }
            s = (s + 1) & Self.mask
        }
    }

    @inline(__always) func insert(_ key: Int, code: Int) {
        let prefix = key >> 8
        let index = UInt8(truncatingIfNeeded: key)
        if suffix[prefix] == index {
            repeatChild[prefix] = Int16(truncatingIfNeeded: code)
        } else {
            var s = Self.slot(key)
            while keys[s] >> 20 == generation { s = (s + 1) & Self.mask }
            keys[s] = generation << 20 | UInt32(truncatingIfNeeded: key)
            codes[s] = UInt16(truncatingIfNeeded: code)
        }
        suffix[code] = index
        nextSibling[code] = firstChild[prefix]
        firstChild[prefix] = Int16(truncatingIfNeeded: code)
    }

    func removeAll() {
        firstChild.update(repeating: -1)
        repeatChild.update(repeating: -1)
        generation += 1
        if generation == 1 << 12 {
            keys.update(repeating: 0)
            generation = 1
        }
    }
}

/// Packs codes least significant bit first and cuts the bytes into GIF sub-blocks. The
/// bytes go into a raw buffer grown by doubling (an array's per-append uniqueness check
/// showed in profiles).
struct LZWBitSink {
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var length = 0
    private var accumulator: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        buffer = .allocate(capacity: self.capacity)
    }

    @inline(__always) mutating func put(_ code: Int, bits: Int) {
        accumulator |= UInt64(truncatingIfNeeded: code) << UInt64(count)
        count += bits
        if count >= 32 {
            if length + 4 > capacity { grow() }
            (UnsafeMutableRawPointer(buffer) + length).storeBytes(
                of: UInt32(truncatingIfNeeded: accumulator).littleEndian,
                as: UInt32.self)
            length += 4
            accumulator >>= 32
            count -= 32
        }
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        bigger.update(from: buffer, count: length)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
    }

    /// Writes out the bits still held (the last byte padded with zeros).
    mutating func flush() {
        while count > 0 {
            if length + 1 > capacity { grow() }
            buffer[length] = UInt8(truncatingIfNeeded: accumulator)
            length += 1
            accumulator >>= 8
            count = max(0, count - 8)
        }
        accumulator = 0
    }

    /// The bytes as sub-blocks of at most 255 bytes, each preceded by its length; frees the
    /// buffer (the sink is not used after).
    mutating func blocks() -> [UInt8] {
        let bytes = UnsafeBufferPointer(start: buffer, count: length)
        let out = [UInt8](unsafeUninitializedCapacity: length + (length + 254) / 255) {
            out, written in
            var o = 0, start = 0
            while start < length {
                let n = min(255, length - start)
                out[o] = UInt8(n)
                _ = UnsafeMutableBufferPointer(rebasing: out[(o + 1)..<(o + 1 + n)])
                    .initialize(from: bytes[start..<(start + n)])
                o += n + 1
                start += n
            }
            written = o
        }
        buffer.deallocate()
        length = 0
        capacity = 0
        return out
    }
}
