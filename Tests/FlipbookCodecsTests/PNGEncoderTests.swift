import Testing
import FlipbookRaster
@testable import FlipbookCodecs

/// The full-API PNG writer and reader against libpng's simplified API, which Flipbook used
/// before them: the files they write must decode to the same pixels, and the files it
/// wrote must decode the same way through either reader.
@Suite struct PNGEncoderTests {
    /// Deterministic noise.
    struct Noise {
        var state: UInt32
        mutating func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
    }

    /// A premultiplied pixmap of the given kind: flat areas, repeated rows, noise, and
    /// (when translucent) every alpha value, with odd sizes that leave SIMD tails.
    static func sample(width: Int, height: Int, grey: Bool, opaque: Bool, seed: UInt32) -> Pixmap {
        var noise = Noise(state: seed)
        var data = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let a: UInt8 = opaque ? 255 : UInt8((x * 7 + y * 13 + 1) % 256)
                var r: UInt8, g: UInt8, b: UInt8
                switch (y / 4) % 3 {
                case 0: (r, g, b) = (200, 120, 40)  // flat
                case 1: (r, g, b) = (UInt8(x % 256), UInt8((x * 3) % 256), 90)  // ramp, rows repeat
                default: (r, g, b) = (noise.next(), noise.next(), noise.next())
                }
                if grey { (g, b) = (r, r) }
                // Premultiplied: channels at most alpha (rounded like the rasterizer does).
                func pm(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
                data[i] = pm(r); data[i + 1] = pm(g); data[i + 2] = pm(b); data[i + 3] = a
            }
        }
        return Pixmap(width: width, height: height, premultipliedRGBA: data)
    }

    /// The IHDR color type byte of a PNG file.
    static func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

    @Test(arguments: [
        (false, true, UInt8(2)), (true, true, UInt8(0)), (true, false, UInt8(4)),
        (false, false, UInt8(6)),
    ])
    func decodesLikeTheSimplifiedAPI(grey: Bool, opaque: Bool, colorType: UInt8) throws {
        for (w, h) in [(1, 1), (3, 2), (37, 29), (301, 64)] {
            let pixmap = Self.sample(
                width: w, height: h, grey: grey, opaque: opaque, seed: UInt32(w * 1000 + h))
            let reference = try PNGCodec.decodeWithSimplifiedAPI(
                try PNGCodec.encodeWithSimplifiedAPI(pixmap)
            ) { _, _ in nil }
            if opaque { #expect(reference == pixmap) }
            for compression in PNGCompression.allCases {
                let png = try PNGCodec.encode(pixmap, compression: compression)
                #expect(Self.colorType(png) == colorType, "\(w)×\(h) \(compression)")
                // Both readers agree on the new file, and it holds what the old file held.
                let decoded = try PNGCodec.decode(png)
                #expect(decoded == reference, "\(w)×\(h) \(compression)")
                #expect(try PNGCodec.decodeWithSimplifiedAPI(png) { _, _ in nil } == decoded)
                #expect(
                    try PNGCodec.encode(pixmap, compression: compression) == png,
                    "not deterministic")
            }
        }
    }

    /// The table-driven conversion equals Pixmap's division for every (alpha, channel)
    /// pair, including channels above alpha (not produced by the rasterizer, still clamped
    /// the same way).
    @Test func straightAlphaTableMatchesDivision() {
        var data = [UInt8]()
        for a in 0..<256 {
            for c in 0..<256 { data += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] }
        }
        let pixmap = Pixmap(width: 256, height: 256, premultipliedRGBA: data)
        #expect(StraightAlpha.pack(pixmap, channels: 4) == pixmap.straightRGBA())
        let straight = pixmap.straightRGBA()
        let greyAlpha = StraightAlpha.pack(pixmap, channels: 2)
        for i in 0..<(256 * 256) {
            if greyAlpha[i * 2] != straight[i * 4] || greyAlpha[i * 2 + 1] != straight[i * 4 + 3] {
                Issue.record("grey + alpha differs at pixel \(i)")
                break
            }
        }
    }

    /// The vectorised row costs equal a plain loop's, for every bytes-per-pixel and for
    /// lengths around the 16-byte blocks.
    @Test func rowCostsMatchPlainSums() {
        var noise = Noise(state: 99)
        for bpp in [1, 2, 3, 4] {
            for count in [1, 2, 5, 16, 17, 31, 64, 100, 2251, 5000] where count >= bpp {
                let row = (0..<count).map { _ in noise.next() },
                    above = (0..<count).map { _ in noise.next() }
                var up = 0, sub = 0
                for i in 0..<count {
                    let u = Int8(bitPattern: row[i] &- above[i]),
                        s = Int8(bitPattern: row[i] &- (i >= bpp ? row[i - bpp] : 0))
                    up += u == Int8.min ? 128 : abs(Int(u))
                    sub += s == Int8.min ? 128 : abs(Int(s))
                }
                let got = row.withUnsafeBytes { r in
                    above.withUnsafeBytes { a in
                        RowFilterChoice.costs(
                            r.baseAddress!, a.baseAddress!, count: count, bpp: bpp)
                    }
                }
                #expect(got.up == up && got.sub == sub, "bpp \(bpp), \(count) bytes")
            }
        }
    }

    /// Rows equal to the row above take Up; a flat row under a different one takes Sub.
    @Test func rowFilterChoice() {
        var rows = [UInt8](repeating: 7, count: 12 * 3)
        for x in 0..<12 { rows[x] = UInt8(x * 20) }  // row 0: a ramp
        for x in 0..<12 { rows[24 + x] = UInt8(x * 20) }  // row 2: the ramp again, under flat row 1
        let filters = rows.withUnsafeBytes {
            RowFilterChoice.subOrUp($0, stride: 12, height: 3, bytesPerPixel: 3)
        }
        #expect(filters[1] == PNGEncoder.filterSub)
        #expect(filters[2] == PNGEncoder.filterSub)
        var same = [UInt8](repeating: 0, count: 12 * 3)
        for i in same.indices { same[i] = UInt8(i % 12 * 20) }
        let upFilters = same.withUnsafeBytes {
            RowFilterChoice.subOrUp($0, stride: 12, height: 3, bytesPerPixel: 3)
        }
        #expect(upFilters[1] == PNGEncoder.filterUp && upFilters[2] == PNGEncoder.filterUp)
    }

    @Test func emptyImageIsAnError() {
        #expect(throws: PNGError.self) { try PNGCodec.encode(Pixmap(width: 0, height: 3)) }
    }
}
