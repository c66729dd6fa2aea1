import Testing
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Grey animations are written in PNG's grey colour types (one or two bytes a pixel instead
/// of three or four), and still decode to the exact pixels in our reader and in Pillow.
@Suite struct APNGColorModeTests {
    /// A grey ramp (levels 3·x + k, at most 192, so the levels above stay free for a tRNS
    /// key) sliding by one level a frame, with a transparent hole that moves (OVER or BACKGROUND).
    static func rampFrames(transparentHole: Bool) -> [Pixmap] {
        (0..<4).map { k in
            var p = Pixmap(width: 64, height: 16)
            for y in 0..<16 {
                for x in 0..<64 {
                    let hole = transparentHole && x >= 8 * k && x < 8 * k + 6 && y < 6
                    let level = 3 * x + k
                    APNGSamples.set(
                        &p, x, y, r: hole ? 0 : level, g: hole ? 0 : level, b: hole ? 0 : level,
                        a: hole ? 0 : 255)
                }
            }
            return p
        }
    }

    /// Soft grey art: 16 grey levels under a 64-step alpha ramp (over 256 colours, so no
    /// palette), moving right a pixel a frame.
    static var softFrames: [Pixmap] {
        (0..<4).map { k in
            var p = Pixmap(width: 64, height: 16)
            for y in 0..<16 {
                for x in 0..<(64 - k) {
                    let a = (x + 1) * 4 - 1, level = y * 16
                    APNGSamples.set(
                        &p, x + k, y, r: level * a / 255, g: level * a / 255, b: level * a / 255,
                        a: a)
                }
            }
            return p
        }
    }

    static func encode(_ frames: [Pixmap], opaque: Bool = false) throws -> [UInt8] {
        let writer = try APNGWriter(width: 64, height: 16, denominator: 10, opaque: opaque)
        for f in frames { try writer.append(f, delay: 1) }
        return try writer.finishInMemory()
    }

    /// Pillow's frames equal `frames` (straight RGBA; transparent pixels carry no colour).
    static func expectPillowReads(_ bytes: [UInt8], as frames: [Pixmap]) throws {
        try APNGSamples.expectPillowDecodes(bytes, as: frames, anyColourWhenTransparent: true)
    }

    /// Encodes `frames` and expects IHDR's colour type `colourType` and the frames back
    /// exactly from our reader and (unless `pillow` is false) from Pillow; returns the file.
    @discardableResult
    static func expectExact(
        _ frames: [Pixmap], colourType: UInt8, opaque: Bool = false, pillow: Bool = true
    ) throws -> [UInt8] {
        let bytes = try encode(frames, opaque: opaque)
        #expect(try APNGLayout(bytes).ihdr[9] == colourType)
        #expect(try APNGReader.decode(bytes).frames == frames)
        if pillow { try expectPillowReads(bytes, as: frames) }
        return bytes
    }

    @Test func opaqueGreyIsOneByteAPixelWithAKeyLevelForOver() throws {
        let frames = Self.rampFrames(transparentHole: false)
        let bytes = try Self.expectExact(frames, colourType: 0, opaque: true)
        // The key is a grey level that no frame uses.
        let key = try #require(APNGChunkLayoutTests.chunkData("tRNS", in: bytes))
        #expect(key.count == 2)
        let used = Set(
            frames.flatMap { f in stride(from: 0, to: f.data.count, by: 4).map { f.data[$0] } })
        #expect(!used.contains(key[1]))
    }

    @Test func greyWithHardTransparencyKeysTheTransparentPixels() throws {
        try Self.expectExact(Self.rampFrames(transparentHole: true), colourType: 0)
    }

    /// Colour art with hard-edged transparency (a Lottie fitted into `--size`: transparent
    /// margins around opaque content) is RGB with a tRNS key colour that no frame uses, three
    /// bytes a pixel instead of four; one translucent pixel anywhere makes it RGBA.
    @Test func colourWithHardTransparencyIsRGBWithAKeyColour() throws {
        let frames = Self.rampFrames(transparentHole: true).map { grey in
            var p = grey
            for y in 0..<16 {
                for x in 0..<64 where grey.data[(y * 64 + x) * 4 + 3] == 255 {
                    let level = Int(grey.data[(y * 64 + x) * 4])
                    // 16 rows of 64 levels: over 256 colours, so no palette.
                    APNGSamples.set(&p, x, y, r: level, g: 255 - level, b: 9 * y, a: 255)
                }
            }
            return p
        }
        let bytes = try Self.expectExact(frames, colourType: 2)
        let key = try #require(APNGChunkLayoutTests.chunkData("tRNS", in: bytes))
        try #require(key.count == 6)
        let keyColour = [key[1], key[3], key[5]]
        for f in frames {
            for i in stride(from: 0, to: f.data.count, by: 4) where f.data[i + 3] == 255 {
                #expect(Array(f.data[i..<(i + 3)]) != keyColour)
            }
        }
        var soft = frames
        APNGSamples.set(&soft[1], 20, 12, r: 50, g: 10, b: 20, a: 128)
        try Self.expectExact(soft, colourType: 6, pillow: false)
    }

    @Test func softGreyArtIsGreyWithAlpha() throws {
        let frames = Self.softFrames
        try Self.expectExact(frames, colourType: 4)
        // One colour off grey anywhere and the file is RGBA again.
        var tinted = frames
        APNGSamples.set(&tinted[2], 40, 3, r: 10, g: 0, b: 0, a: 255)
        try Self.expectExact(tinted, colourType: 6, pillow: false)
    }

    /// Translucent marks appearing at opposite corners of a transparent canvas around a
    /// fixed band of translucent noise: OVER (the noise left out) would be far smaller, but
    /// only SOURCE is written for translucent changes, so Pillow, which squares the alpha of
    /// translucent OVER pixels, decodes it exactly too.
    @Test func translucentChangesDecodeExactlyInPillow() throws {
        var band = Pixmap(width: 64, height: 16)
        var seed: UInt32 = 7
        for y in 6..<10 {
            for x in 0..<64 {
                seed = seed &* 1_103_515_245 &+ 12345
                let c = Int(seed >> 24) * 100 / 255
                APNGSamples.set(&band, x, y, r: c, g: 100 - c, b: 50, a: 100)
            }
        }
        var frames = [band]
        for k in 1..<4 {
            var p = frames[k - 1]
            for y in 0..<4 {
                APNGSamples.set(&p, 2 * k, y, r: 60, g: 20, b: 40, a: 123)
                APNGSamples.set(&p, 61 - 2 * k, y + 12, r: 60, g: 20, b: 40, a: 123)
            }
            frames.append(p)
        }
        let bytes = try Self.encode(frames)
        #expect(try APNGLayout(bytes).controls.allSatisfy { $0.blend == 0 })
        #expect(try APNGReader.decode(bytes).frames == frames)
        try Self.expectPillowReads(bytes, as: frames)
    }
}
