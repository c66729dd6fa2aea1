/// The size giflib's LZW coder gives an image's indices, computed without writing it, so
/// the encoder can "encode both ways" and keep the smaller (transparent unchanged pixels
/// or not; local or global palette).
///
/// Models giflib 5's `EGifCompressLine`: a clear code first, codes of `minCodeSize + 1`
/// bits growing by one whenever the next free code reaches the current limit (up to 12
/// bits), a clear code when the 4096-entry table fills, the end code last; then the data
/// is cut into 255-byte sub-blocks (one length byte each) after the code-size byte, plus
/// the block terminator. The result is within a few bytes of the real stream.
public enum LZWEstimate {
    /// GIF's minimum code size for a palette of `colors` entries (2…8).
    public static func minCodeSize(colors: Int) -> Int {
        var bits = 2
        while (1 << bits) < colors { bits += 1 }
        return bits
    }

    /// Bytes of the image data block (code-size byte, sub-blocks, terminator).
    public static func bytes(_ indices: UnsafeBufferPointer<UInt8>, minCodeSize: Int) -> Int {
        let bits = compressedBits(indices, minCodeSize: minCodeSize)
        let data = (bits + 7) / 8
        return 1 + data + (data + 254) / 255 + 1
    }

    public static func bytes(_ indices: [UInt8], minCodeSize: Int) -> Int {
        indices.withUnsafeBufferPointer { bytes($0, minCodeSize: minCodeSize) }
    }

    static func compressedBits(_ indices: UnsafeBufferPointer<UInt8>, minCodeSize: Int) -> Int {
        guard !indices.isEmpty else { return 0 }
        let clear = 1 << minCodeSize
        let tableBits = 13, tableSize = 1 << tableBits, mask = tableSize - 1
        var keys = [Int32](repeating: -1, count: tableSize)
        var codes = [Int16](repeating: 0, count: tableSize)
        var total = 0
        var codeBits = minCodeSize + 1
        var next = clear + 2
        var limit = 1 << codeBits
        total += codeBits // the initial clear code
        keys.withUnsafeMutableBufferPointer { keys in
            codes.withUnsafeMutableBufferPointer { codes in
                var prefix = Int(indices[0])
                for i in 1..<indices.count {
                    let pixel = Int(indices[i])
                    let key = Int32(prefix << 8 | pixel)
                    var slot = Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> UInt32(32 - tableBits))
                    var found = -1
                    while keys[slot] != -1 {
                        if keys[slot] == key { found = Int(codes[slot]); break }
                        slot = (slot + 1) & mask
                    }
                    if found >= 0 { prefix = found; continue }
                    total += codeBits // emit prefix
                    if next >= 4095 {
                        total += codeBits // clear code
                        for j in 0..<tableSize { keys[j] = -1 }
                        codeBits = minCodeSize + 1
                        next = clear + 2
                        limit = 1 << codeBits
                    } else {
                        keys[slot] = key
                        codes[slot] = Int16(next)
                        next += 1
                        if next > limit && codeBits < 12 { codeBits += 1; limit = 1 << codeBits }
                    }
                    prefix = pixel
                }
            }
        }
        total += codeBits // last prefix
        total += codeBits // end code
        return total
    }
}
