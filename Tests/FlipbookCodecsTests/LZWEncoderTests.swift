import CGIFLib
import Testing
@testable import FlipbookCodecs

/// The LZW coder against giflib's own: with no alternatives the image data must be the bytes
/// `EGifPutLine` writes, for every code size, across code-width changes and table clears;
/// with alternatives, giflib must decode exactly the indices the coder says it chose.
struct LZWEncoderTests {
    /// Deterministic pseudo-random numbers (xorshift), so the inputs are the same every run.
    struct Noise {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    /// Index streams that exercise the coder: noise (the table fills and clears many times),
    /// runs (long strings), a ramp (every code width), one pixel, and runs of noise.
    static func inputs(colors: Int) -> [(String, [UInt8])] {
        var noise = Noise(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(colors))
        let random = (0..<20_000).map { _ in UInt8(noise.next(colors)) }
        var runs: [UInt8] = []
        while runs.count < 30_000 {
            runs += [UInt8](repeating: UInt8(noise.next(colors)), count: 1 + noise.next(300))
        }
        let ramp = (0..<9_000).map { UInt8(($0 / 3) % colors) }
        var patches: [UInt8] = []
        while patches.count < 25_000 {
            let run = 1 + noise.next(8)
            let c = UInt8(noise.next(colors))
            patches +=
                [UInt8](repeating: c, count: run)
                + (0..<noise.next(5)).map { _ in UInt8(noise.next(colors)) }
        }
        return [
            ("noise", random), ("runs", runs), ("ramp", ramp), ("one pixel", [UInt8(colors - 1)]),
            ("patches", patches),
        ]
    }

    @Test(arguments: [2, 4, 16, 256])
    func sameBytesAsGiflib(colors: Int) throws {
        let bits = LZWEncoder.minCodeSize(colors: colors)
        for (name, indices) in Self.inputs(colors: colors) {
            let ours = LZWEncoder.compress(indices, minCodeSize: bits)
            let theirs = try Self.giflibImageData(indices, colors: max(colors, 4))
            #expect([UInt8(bits)] + ours.blocks + [0] == theirs, "\(name), \(colors) colors")
            #expect(ours.byteCount == theirs.count)
            #expect(ours.indices == indices)
        }
    }

    /// A frame's rectangle as the GIF encoder sees it: a textured object moved over a flat
    /// background. Unchanged pixels (primary: transparent) may also repeat their own color
    /// (alternate); the rest must keep theirs. `noisyUnchanged`: the unchanged area is
    /// texture (transparent runs are best); otherwise it is flat background (its own color
    /// joins the revealed background into long runs).
    static func movedObject(colors: Int, noisyUnchanged: Bool) -> (
        primary: [UInt8], alternates: [UInt8]
    ) {
        var noise = Noise(state: 42 &+ UInt64(colors) &+ (noisyUnchanged ? 7 : 0))
        let clear = UInt8(colors - 1), background = UInt8(0)
        var primary: [UInt8] = [], alternates: [UInt8] = []
        for _ in 0..<200 {
            for x in 0..<120 {
                let texture = UInt8(1 + noise.next(colors - 2))
                switch x {
                case 0..<30:  // revealed background: changed, must be the background color
                    primary.append(background); alternates.append(background)
                case 30..<70:  // the object: changed texture
                    primary.append(texture); alternates.append(texture)
                default:  // unchanged
                    let own = noisyUnchanged ? texture : background
                    primary.append(clear); alternates.append(own)
                }
            }
        }
        return (primary, alternates)
    }

    /// Every pixel gets one of its two allowed indices, giflib decodes exactly those, and
    /// the result is within 5 % of the better of "all transparent" and "all own color",
    /// whichever that is.
    @Test(arguments: [4, 16, 256], [false, true])
    func alternativesDecodeToTheChosenIndices(colors: Int, noisyUnchanged: Bool) throws {
        let (primary, alternates) = Self.movedObject(colors: colors, noisyUnchanged: noisyUnchanged)
        let bits = LZWEncoder.minCodeSize(colors: colors)
        let mixed = LZWEncoder.compress(primary, minCodeSize: bits, alternates: alternates)
        #expect(
            zip(mixed.indices, zip(primary, alternates)).allSatisfy { $0 == $1.0 || $0 == $1.1 })
        let decoded = try Self.giflibDecodedIndices(
            blocks: mixed.blocks, bits: bits, count: primary.count)
        #expect(decoded == mixed.indices)
        let transparent = LZWEncoder.compress(primary, minCodeSize: bits).byteCount
        let own = LZWEncoder.compress(alternates, minCodeSize: bits).byteCount
        // With a two-color texture the free choice can wander into texture strings and lose
        // (the frame encoder therefore also compresses the all-transparent stream).
        if noisyUnchanged && colors < 16 { return }
        #expect(
            Double(mixed.byteCount) <= 1.05 * Double(min(transparent, own)),
            "mixed \(mixed.byteCount), all transparent \(transparent), all own color \(own)")
    }

    // MARK: giflib as the reference

    final class Buffer { var bytes: [UInt8] = [] }

    /// What giflib writes after the image descriptor and local color map of a one-row image
    /// of `indices`: code-size byte, sub-blocks, terminator.
    static func giflibImageData(_ indices: [UInt8], colors: Int) throws -> [UInt8] {
        let buffer = Buffer()
        var err: Int32 = 0
        let gif = try #require(
            EGifOpen(
                Unmanaged.passUnretained(buffer).toOpaque(),
                { gif, bytes, count in
                    let buffer = Unmanaged<Buffer>.fromOpaque(gif!.pointee.UserData)
                        .takeUnretainedValue()
                    buffer.bytes += UnsafeBufferPointer(start: bytes, count: Int(count))
                    return count
                }, &err))
        var colorsArray = (0..<colors).map { GifColorType(Red: UInt8($0), Green: 0, Blue: 0) }
        let map = GifMakeMapObject(Int32(colors), &colorsArray)
        defer { GifFreeMapObject(map) }
        #expect(EGifPutScreenDesc(gif, Int32(indices.count), 1, 8, 0, nil) == GIF_OK)
        let before = buffer.bytes.count
        #expect(EGifPutImageDesc(gif, 0, 0, Int32(indices.count), 1, false, map) == GIF_OK)
        let header = 10 + 3 * colors
        var row = indices
        #expect(EGifPutLine(gif, &row, Int32(indices.count)) == GIF_OK)
        #expect(EGifCloseFile(gif, &err) == GIF_OK)
        // Drop the descriptor and map before, the trailer after.
        return Array(buffer.bytes[(before + header)..<(buffer.bytes.count - 1)])
    }

    /// Decodes one image of `count` pixels from our blocks with giflib's decoder.
    static func giflibDecodedIndices(blocks: [UInt8], bits: Int, count: Int) throws -> [UInt8] {
        var file: [UInt8] =
            Array("GIF89a".utf8) + [UInt8(count & 0xFF), UInt8(count >> 8), 1, 0, 0x77, 0, 0]
        let colors = 1 << bits
        file += [
            0x2C, 0, 0, 0, 0, UInt8(count & 0xFF), UInt8(count >> 8), 1, 0, 0x80 | UInt8(bits - 1),
        ]
        file += (0..<colors).flatMap { [UInt8($0), 0, 0] }
        file += [UInt8(bits)] + blocks + [0, 0x3B]
        let decoded = try GIFReader.decode(file)
        let frame = try #require(decoded.frames.first)
        return (0..<count).map { frame.data[$0 * 4] }
    }
}
