import CFlipbookZlib
import Testing

@testable import FlipbookCodecs

/// The APNG writer's libdeflate layer, checked with zlib's own inflate (an independent
/// decoder): every stream it writes is a valid zlib stream of exactly its input.
@Suite struct APNGDeflateTests {
    /// zlib's `uncompress` of `stream`, expecting `count` bytes (nil when zlib refuses it).
    static func inflate(_ stream: [UInt8], count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: max(1, count))
        var length = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { dst in
            stream.withUnsafeBufferPointer { src in
                uncompress(dst.baseAddress, &length, src.baseAddress, uLong(src.count))
            }
        }
        guard status == Z_OK, Int(length) == count else { return nil }
        return Array(out.prefix(count))
    }

    /// Inputs deflate treats differently: empty, one byte, incompressible noise, long runs,
    /// repeats further apart than a short match search, and a mix past one 64 KiB block.
    static let inputs: [[UInt8]] = {
        var seed: UInt32 = 2024
        let noise = (0..<70_000).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let runs = (0..<50_000).map { UInt8(($0 / 997) % 3) }
        let pattern = Array(noise[0..<3000])
        let repeats = (0..<40).flatMap { _ in pattern }
        return [[], [7], noise, runs, repeats, runs + noise + repeats]
    }()

    @Test(arguments: [Int32(1), 6, 10, 12])
    func streamsInflateWithZlibToTheirInput(level: Int32) throws {
        let compressor = try LibDeflate(level: level)
        for (i, input) in Self.inputs.enumerated() {
            let stream = try compressor.compress(input)
            #expect(Self.inflate(stream, count: input.count) == input, "input \(i)")
        }
    }

    /// Runs and repeats shrink (a stored-only stream would pass the round trip); noise
    /// grows by at most the stored blocks' framing.
    @Test func compressibleInputShrinksAndNoiseStaysNearItsSize() throws {
        let compressor = try LibDeflate(level: APNGFrameEncoder.smallLevel)
        let runs = Self.inputs[3], repeats = Self.inputs[4], noise = Self.inputs[2]
        #expect(try compressor.compress(runs).count < runs.count / 50)
        #expect(try compressor.compress(repeats).count < repeats.count / 20)
        #expect(try compressor.compress(noise).count <= noise.count + 64)
    }

    /// Every frame of a written APNG (IDAT, then each fdAT's data after its sequence
    /// number) inflates with zlib to exactly its filtered rows: a filter byte and
    /// width × bytes-per-pixel bytes per row, whichever deflate `--png-compression` picks.
    @Test(arguments: PNGCompression.allCases)
    func everyFramesDataInflatesToItsRows(compression: PNGCompression) throws {
        let bytes = try APNGSamples.encoded(compression: compression)
        let layout = try APNGLayout(bytes)
        let colorType = layout.ihdr[9]
        let bpp = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
        var frames: [[UInt8]] = []
        var i = 8
        func be(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        while i + 12 <= bytes.count {
            let length = be(i)
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let data = Array(bytes[(i + 8)..<(i + 8 + length)])
            if type == "fcTL" { frames.append([]) }
            if type == "IDAT" { frames[frames.count - 1] += data }
            if type == "fdAT" { frames[frames.count - 1] += data.dropFirst(4) }
            i += 12 + length
        }
        try #require(frames.count == layout.controls.count && frames.count > 1)
        for (k, (stream, control)) in zip(frames, layout.controls).enumerated() {
            let rows = control.height * (1 + control.width * bpp)
            let raw = try #require(Self.inflate(stream, count: rows), "frame \(k)")
            #expect(
                raw.enumerated().allSatisfy {
                    $0.offset % (1 + control.width * bpp) != 0 || $0.element <= 4
                })
        }
    }

    /// `--png-compression` changes only how frames are deflated (and so which blend and
    /// filters compress smallest): the frames' regions, disposals and decoded pixels are
    /// the same for all three, and level 6's streams differ from level 12's.
    @Test func compressionEffortChangesOnlyTheStreams() throws {
        let files = try PNGCompression.allCases.map { try APNGSamples.encoded(compression: $0) }
        let layouts = try files.map { try APNGLayout($0) }
        func shape(_ l: APNGLayout) -> [[Int]] {
            l.controls.map { [$0.x, $0.y, $0.width, $0.height, Int($0.dispose)] }
        }
        #expect(layouts.allSatisfy { shape($0) == shape(layouts[0]) })
        let decoded = try files.map { try APNGReader.decode($0).frames }
        #expect(decoded.allSatisfy { $0 == decoded[0] })
        #expect(files[0] != files[1])
    }
}
