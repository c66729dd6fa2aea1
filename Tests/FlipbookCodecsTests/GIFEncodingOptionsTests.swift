import FlipbookGeometry
import FlipbookRaster
import Testing
@testable import FlipbookCodecs

private typealias S = GIFTestSupport

/// Frame differencing with transparency, dithering, quality, matte, Oklab, exactness.
@Suite struct GIFEncodingOptionsTests {
    static func encode(_ frames: [Pixmap], options: GIFEncodingOptions, background: Color? = .white)
        throws -> [UInt8]
    {
        let path = S.scratchFolder() + "/out.gif"
        let writer = try GIFWriter(
            path: path, width: frames[0].width, height: frames[0].height,
            loopCount: 0, background: background, options: options)
        for f in frames { try writer.append(f, delayCentiseconds: 4) }
        try writer.finish()
        return try FileIO.readAll(path: path)
    }

    /// A deterministic pseudo-random texture of `colors` distinct colors.
    static func texture(width: Int, height: Int, colors: Int, seed: UInt32 = 1) -> [UInt8] {
        var s = seed, out = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            s = s &* 1_664_525 &+ 1_013_904_223
            let c = Int(s >> 8) % colors
            out[i * 4] = UInt8(c * 37 % 256); out[i * 4 + 1] = UInt8(c * 91 % 256);
            out[i * 4 + 2] = UInt8(c)
        }
        return out
    }

    /// Reference values (CSS Color 4 / Ottosson): sRGB primaries and white in Oklab.
    @Test(arguments: [
        (0xFF, 0x00, 0x00, 0.62796, 0.22486, 0.12585),
        (0x00, 0xFF, 0x00, 0.86644, -0.23389, 0.17950),
        (0x00, 0x00, 0xFF, 0.45201, -0.03246, -0.31153),
        (0xFF, 0xFF, 0xFF, 1.0, 0.0, 0.0),
        (0x00, 0x00, 0x00, 0.0, 0.0, 0.0),
    ])
    func oklabKnownValues(r: Int, g: Int, b: Int, l: Double, a: Double, bb: Double) {
        let c = Oklab.fromSRGB(r, g, b)
        #expect(
            abs(Double(c.l) - l) < 1e-3 && abs(Double(c.a) - a) < 1e-3
                && abs(Double(c.b) - bb) < 1e-3, "\(c)")
        #expect(Oklab.toPacked(c) == UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16)
    }

    @Test func oklabRoundTripsEveryGray() {
        for v in 0..<256 {
            let p = UInt32(v) * 0x010101
            #expect(Oklab.toPacked(Oklab.fromPacked(p)) == p)
        }
    }

    /// A first frame with no visible pixel gives a global map of the transparent slot
    /// alone; the next frame's colors must not be matched against that empty map (5317-
    /// fireworkds and 5344-honey-sack-hud of the Lottie corpus trapped in OklabSearch).
    @Test func anEmptyFirstFrameLeavesNoColorToMapTo() throws {
        let empty = Pixmap(width: 16, height: 16)
        var dot = Pixmap(width: 16, height: 16)
        for (i, (r, g, b)) in [(255, 0, 0), (0, 128, 255), (20, 200, 20)].enumerated() {
            let at = ((4 + i) * 16 + 4 + i) * 4
            dot.data[at] = UInt8(r); dot.data[at + 1] = UInt8(g); dot.data[at + 2] = UInt8(b);
            dot.data[at + 3] = 255
        }
        let decoded = try GIFReader.decode(
            try Self.encode([empty, dot], options: GIFEncodingOptions(), background: nil))
        #expect(decoded.frames.map(\.data) == [empty.data, dot.data])
    }

    /// Two dots move in opposite corners of a noisy static texture: the changed rectangle is
    /// almost the whole frame, nearly all of it unchanged. The unchanged pixels are written
    /// transparent, which is far smaller, and every frame still decodes to its source.
    @Test func transparentUnchangedPixelsDecodeIdentically() throws {
        let w = 64, h = 48
        let base = Self.texture(width: w, height: h, colors: 180)
        var frames: [Pixmap] = []
        for k in 0..<4 {
            var px = base
            for (x, y) in [(1 + k, 1), (w - 2 - k, h - 2)] {
                let o = (y * w + x) * 4
                px[o] = 250; px[o + 1] = 10; px[o + 2] = 200
            }
            frames.append(Pixmap(width: w, height: h, straightRGBA: px))
        }
        let encoder = GIFFrameEncoder(width: w, height: h, background: .white)
        let p = encoder.prepare(frames[1], previous: frames[0])
        #expect(p.width > w / 2 && p.height == h - 2)
        let t = try #require(p.transparentIndex)
        #expect(p.indices.filter { Int($0) == t }.count > p.indices.count / 2)
        #expect(p.isExact)
        let bytes = try Self.encode(frames, options: GIFEncodingOptions())
        let decoded = try GIFReader.decode(bytes)
        #expect(decoded.frames.map(\.data) == frames.map(\.data))
        // Smaller than without the transparency: each later frame is a few hundred bytes.
        #expect(bytes.count < 3 * 64 * 48 / 2 + 4000)
    }

    /// The frame encoder's size accounting is exact: the file is its prepared image plus a
    /// fixed frame of headers (the first frame's palette is the global color map).
    @Test func preparedImageIsWhatTheFileHolds() throws {
        let w = 64, h = 48
        let frame = Pixmap(
            width: w, height: h, straightRGBA: Self.texture(width: w, height: h, colors: 100))
        let p = GIFFrameEncoder(width: w, height: h, background: .white).prepareFirst(frame).frame
        #expect(p.usesGlobalPalette && p.palette.count == 101)
        let bytes = try Self.encode([frame], options: GIFEncodingOptions())
        // Header 6, screen descriptor 7, global map 3·128, NETSCAPE2.0 19, graphics control 8,
        // image descriptor 10, image data, trailer 1.
        #expect(bytes.count == 6 + 7 + 3 * 128 + 19 + 8 + 10 + p.image.byteCount + 1)
    }

    /// A square moves over a static gradient: with ordered dithering or diffusion, pixels the
    /// square never touches show the same color in every frame (no crawling).
    @Test(arguments: [GIFDither.ordered, .diffusion, .none])
    func ditherIsStableInStaticAreas(dither: GIFDither) throws {
        let w = 96, h = 64
        let gradient = S.gradient(width: w, height: h).straightRGBA()
        var frames: [Pixmap] = []
        for k in 0..<5 {
            var px = gradient
            for y in 20..<30 {
                for x in (10 + 6 * k)..<(20 + 6 * k) {
                    let o = (y * w + x) * 4
                    px[o] = 255; px[o + 1] = UInt8(40 * k); px[o + 2] = 0
                }
            }
            frames.append(Pixmap(width: w, height: h, straightRGBA: px))
        }
        let decoded = try GIFReader.decode(
            try Self.encode(frames, options: GIFEncodingOptions(dither: dither)))
        #expect(decoded.frames.count == 5)
        var checked = 0
        for y in 0..<h {
            for x in 0..<w where !(y >= 20 && y < 30 && x >= 10 && x < 20 + 6 * 4) {
                let first = decoded.frames[0].pixel(x: x, y: y)
                for f in decoded.frames.dropFirst() {
                    let p = f.pixel(x: x, y: y)
                    #expect(p == first, "(\(x), \(y)) changed")
                    if p != first { return }
                }
                checked += 1
            }
        }
        #expect(checked > w * h / 2)
    }

    /// Ordered dithering uses more than one palette color on a smooth ramp of one color
    /// family, and keeps the mean close to the source.
    @Test func orderedDitherMixesColors() {
        var pixels: [UInt32] = []
        for y in 0..<32 {
            for x in 0..<300 { pixels.append(UInt32(x * 255 / 299) | UInt32(y) << 8 | 0x40 << 16) }
        }
        let q = ColorQuantizer.quantize(pixels, maxColors: 8, dither: .ordered, width: 300)
        #expect(!q.isExact)
        let plain = ColorQuantizer.quantize(pixels, maxColors: 8, dither: .none, width: 300)
        // Along one row, the dithered output switches color more often than the plain one.
        func switches(_ r: ColorQuantizer.Result) -> Int {
            (1..<300).filter { r.indices[$0] != r.indices[$0 - 1] }.count
        }
        #expect(switches(q) > 2 * switches(plain))
    }

    @Test func sizeShrinksAsQualityDrops() throws {
        let frames = (0..<3).map { S.gradient(width: 120, height: 80, phase: $0 * 5) }
        var sizes: [Int] = []
        for quality in [100, 80, 60, 40, 20, 5] {
            sizes.append(
                try Self.encode(frames, options: GIFEncodingOptions(quality: quality)).count)
        }
        // Lossy LZW is greedy, so a larger tolerance may cost a few bytes (12 439 → 12 516 at
        // 80 → 60 here): within 1 %.
        for i in 1..<sizes.count { #expect(sizes[i] * 100 <= sizes[i - 1] * 101, "\(sizes)") }
        #expect(sizes.last! < sizes.first! / 2, "\(sizes)")
    }

    /// Lossy LZW on gradient frames: each step of tolerance shrinks the file, and the decoded
    /// frames stay close to the lossless encode (RMS over all pixels within the tolerance).
    @Test func lossyShrinksWithBoundedError() throws {
        let frames = (0..<3).map { S.gradient(width: 120, height: 80, phase: $0 * 5) }
        let lossless = try GIFReader.decode(try Self.encode(frames, options: GIFEncodingOptions()))
        var sizes: [Int] = []
        for tolerance in [0, 8, 24] {
            let bytes = try Self.encode(frames, options: GIFEncodingOptions(lossy: tolerance))
            sizes.append(bytes.count)
            let decoded = try GIFReader.decode(bytes)
            var squares = 0.0, count = 0.0
            for (a, b) in zip(decoded.frames, lossless.frames) {
                for i in 0..<a.data.count where i % 4 != 3 {
                    let d = Double(a.data[i]) - Double(b.data[i])
                    squares += d * d
                    count += 1
                }
            }
            let rms = (squares / count).squareRoot()
            #expect(
                rms <= Double(tolerance) + 0.01,
                "tolerance \(tolerance): RMS \(rms) from the lossless frames")
            if tolerance == 0 { #expect(rms == 0) }
        }
        #expect(sizes[1] < sizes[0] && sizes[2] < sizes[1], "\(sizes)")
    }

    /// 256 distinct colors fit: lossless at any dither setting and down to the quality that
    /// still allows 256 colors; with 257 colors, quantization kicks in.
    @Test(arguments: [GIFDither.none, .ordered, .diffusion])
    func framesOf256ColorsAreExact(dither: GIFDither) throws {
        let w = 32, h = 16
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for i in 0..<(w * h) {
            let c = i % 256; px[i * 4] = UInt8(c); px[i * 4 + 1] = UInt8(255 - c);
            px[i * 4 + 2] = UInt8(c / 2)
        }
        let a = Pixmap(width: w, height: h, straightRGBA: px)
        var px2 = px
        for i in 0..<(w * h) { px2[i * 4 + 2] = UInt8(255 - i % 256 / 2) }
        let b = Pixmap(width: w, height: h, straightRGBA: px2)
        let decoded = try GIFReader.decode(
            try Self.encode([a, b, a], options: GIFEncodingOptions(dither: dither)))
        #expect(decoded.frames.map(\.data) == [a.data, b.data, a.data])
    }

    /// Transparent canvas with a matte: a half-covered red edge pixel is red blended over the
    /// matte; without a matte it is plain red; an alpha < 128 pixel stays transparent.
    @Test func matteBlendsEdgePixels() throws {
        var straight = [UInt8](repeating: 0, count: 4 * 1 * 4)
        straight[0...3] = [255, 0, 0, 255]
        straight[4...7] = [255, 0, 0, 192]
        straight[8...11] = [255, 0, 0, 64]
        let frame = Pixmap(width: 4, height: 1, straightRGBA: straight)
        let matte = Color(red: 1, green: 1, blue: 1)
        let withMatte = try GIFReader.decode(
            try Self.encode([frame], options: GIFEncodingOptions(matte: matte), background: nil))
        let plain = try GIFReader.decode(
            try Self.encode([frame], options: GIFEncodingOptions(), background: nil))
        let m = withMatte.frames[0], p = plain.frames[0]
        #expect(m.pixel(x: 0, y: 0) == (255, 0, 0, 255))
        let edge = m.pixel(x: 1, y: 0)
        #expect(
            edge.r == 255 && abs(Int(edge.g) - 63) <= 1 && abs(Int(edge.b) - 63) <= 1
                && edge.a == 255)
        #expect(p.pixel(x: 1, y: 0) == (255, 0, 0, 255))
        #expect(m.pixel(x: 2, y: 0).a == 0 && m.pixel(x: 3, y: 0).a == 0)
    }
}
