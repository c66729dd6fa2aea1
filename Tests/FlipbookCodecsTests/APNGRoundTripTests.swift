import Foundation
import Testing
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Our APNG writer read back by our reader, and by Pillow (an independent decoder).
@Suite struct APNGRoundTripTests {
    /// The distinct frames and their delays in 1/30 s, merging the repeated frame 5.
    static var expected: (frames: [Pixmap], delays: [Int]) {
        var frames: [Pixmap] = [], delays: [Int] = []
        for k in 0..<APNGSamples.count {
            let f = APNGSamples.frame(k)
            if let last = frames.last, last == f { delays[delays.count - 1] += 1; continue }
            frames.append(f)
            delays.append(1)
        }
        return (frames, delays)
    }

    @Test func ourReaderGivesBackEveryFrameExactly() throws {
        let decoded = try APNGReader.decode(try APNGSamples.encoded())
        let (frames, delays) = Self.expected
        #expect(decoded.width == APNGSamples.width && decoded.height == APNGSamples.height)
        #expect(decoded.plays == 0)
        #expect(decoded.frames.count == frames.count)
        for (i, pair) in zip(decoded.frames, frames).enumerated() {
            #expect(pair.0 == pair.1, "frame \(i)")
        }
        #expect(decoded.delays.map(\.numerator) == delays)
        #expect(decoded.delays.allSatisfy { $0.denominator == 30 })
    }

    @Test func bytesAreTheSameWhateverTheThreadCount() throws {
        #expect(try APNGSamples.encoded(jobs: 1) == APNGSamples.encoded(jobs: 4))
    }

    /// Two pixels change at opposite corners of a fixed noisy picture: the region is the
    /// whole frame, and OVER (the unchanged noise made transparent) is far smaller.
    @Test func unchangedPixelsInsideTheRegionAreBlendedOver() throws {
        var noise = Pixmap(width: 48, height: 32)
        var seed: UInt32 = 12345
        for y in 0..<32 {
            for x in 0..<48 {
                seed = seed &* 1_103_515_245 &+ 12345
                APNGSamples.set(
                    &noise, x, y, r: Int(seed >> 24), g: Int((seed >> 16) & 0xFF),
                    b: Int((seed >> 8) & 0xFF), a: 255)
            }
        }
        let frames = (0..<4).map { k -> Pixmap in
            var f = noise
            APNGSamples.set(&f, k, 0, r: 255, g: 255, b: 255, a: 255)
            APNGSamples.set(&f, 47 - k, 31, r: 255, g: 255, b: 255, a: 255)
            return f
        }
        let writer = try APNGWriter(width: 48, height: 32, denominator: 10)
        for f in frames { try writer.append(f, delay: 1) }
        let bytes = try writer.finishInMemory()
        #expect(try APNGLayout(bytes).controls.dropFirst().allSatisfy { $0.blend == 1 })
        #expect(try APNGReader.decode(bytes).frames == frames)
        // Opaque noise (over 256 colours) is written as RGB, with a tRNS key colour that no
        // frame uses, so that OVER can still leave the unchanged pixels transparent.
        let rgb = try APNGWriter(width: 48, height: 32, denominator: 10, opaque: true)
        for f in frames { try rgb.append(f, delay: 1) }
        let rgbBytes = try rgb.finishInMemory()
        let layout = try APNGLayout(rgbBytes)
        #expect(layout.ihdr[9] == 2)
        #expect(layout.controls.dropFirst().allSatisfy { $0.blend == 1 })
        let key = try #require(APNGChunkLayoutTests.chunkData("tRNS", in: rgbBytes))
        #expect(key.count == 6)
        let keyRGB = [key[1], key[3], key[5]]
        #expect(
            !frames.contains { f in
                stride(from: 0, to: f.data.count, by: 4).contains {
                    Array(f.data[$0..<($0 + 3)]) == keyRGB
                }
            })
        #expect(try APNGReader.decode(rgbBytes).frames == frames)
    }

    /// A sprite hopping between far corners of a transparent canvas: clearing the previous
    /// frame's region (BACKGROUND) leaves only the new sprite to draw.
    @Test func disappearingContentIsDisposedToBackground() throws {
        func sprite(at x: Int, _ y: Int) -> Pixmap {
            var p = Pixmap(width: 40, height: 40)
            for v in y..<(y + 6) {
                for u in x..<(x + 6) { APNGSamples.set(&p, u, v, r: 0, g: 90, b: 200, a: 255) }
            }
            return p
        }
        let frames = [sprite(at: 2, 2), sprite(at: 30, 30), sprite(at: 2, 30), sprite(at: 30, 2)]
        let writer = try APNGWriter(width: 40, height: 40, denominator: 10)
        for f in frames { try writer.append(f, delay: 1) }
        let bytes = try writer.finishInMemory()
        let layout = try APNGLayout(bytes)
        #expect(layout.controls.dropLast().allSatisfy { $0.dispose == 1 })
        #expect(layout.controls.dropFirst().allSatisfy { $0.width == 6 && $0.height == 6 })
        #expect(try APNGReader.decode(bytes).frames == frames)
    }

    /// A popup over an opaque page that shows in one place, then another: restoring the
    /// page (PREVIOUS) after the first leaves only the second popup to draw.
    @Test func transientOverlaysAreDisposedToPrevious() throws {
        let page = Pixmap(width: 40, height: 40, filledWith: Color(red: 0.9, green: 0.9, blue: 0.8))
        func popup(at x: Int, _ y: Int) -> Pixmap {
            var p = page
            for v in y..<(y + 5) {
                for u in x..<(x + 8) { APNGSamples.set(&p, u, v, r: 20, g: 20, b: 20, a: 255) }
            }
            return p
        }
        let frames = [page, popup(at: 2, 2), popup(at: 28, 30), page]
        let writer = try APNGWriter(width: 40, height: 40, denominator: 10, opaque: true)
        for f in frames { try writer.append(f, delay: 1) }
        let bytes = try writer.finishInMemory()
        let layout = try APNGLayout(bytes)
        #expect(layout.controls.map(\.dispose) == [0, 2, 2, 0])
        // The popups are drawn alone; the last frame is the restored page: one pixel, unchanged.
        #expect(
            layout.controls.map { [$0.width, $0.height] } == [[40, 40], [8, 5], [8, 5], [1, 1]])
        #expect(try APNGReader.decode(bytes).frames == frames)
    }

    /// A pose that returns after one frame, as in a walk cycle: pose B is pose A one column
    /// narrower and recoloured, then A comes back with one dot added. Alone, frame 1 is
    /// smaller over A cleared (BACKGROUND: 19 × 20 pixels) than over A (NONE: 20 × 20), but
    /// then frame 2 must redraw all of A. Taking that back (A disposed NONE, B disposed
    /// PREVIOUS) leaves only the dot to draw: 400 + 4 pixels instead of 380 + 400.
    @Test func aPoseThatReturnsAfterOneFrameIsRestoredWithPrevious() throws {
        func pose(width: Int, r: Int, g: Int, b: Int, dot: Bool = false) -> Pixmap {
            var p = Pixmap(width: 48, height: 48)
            for y in 10..<30 {
                for x in 10..<(10 + width) { APNGSamples.set(&p, x, y, r: r, g: g, b: b, a: 255) }
            }
            if dot {
                for y in 40..<42 {
                    for x in 40..<42 { APNGSamples.set(&p, x, y, r: 0, g: 0, b: 0, a: 255) }
                }
            }
            return p
        }
        let frames = [
            pose(width: 20, r: 200, g: 30, b: 30), pose(width: 19, r: 30, g: 30, b: 200),
            pose(width: 20, r: 200, g: 30, b: 30, dot: true),
        ]
        let writer = try APNGWriter(width: 48, height: 48, denominator: 10)
        for f in frames { try writer.append(f, delay: 1) }
        let bytes = try writer.finishInMemory()
        let layout = try APNGLayout(bytes)
        #expect(layout.controls.map(\.dispose) == [0, 2, 0])
        #expect(layout.controls[1].blend == 0, "a frame disposed PREVIOUS is blended SOURCE")
        #expect(layout.controls.map { [$0.width, $0.height] } == [[48, 48], [20, 20], [2, 2]])
        #expect(try APNGReader.decode(bytes).frames == frames)
        try APNGSamples.expectPillowDecodes(bytes, as: frames)
    }

    /// A frame disposed to PREVIOUS is blended SOURCE, never OVER: Pillow 13.0 blends OVER
    /// into the image it keeps for PREVIOUS and so restores the frame itself (Debian's 9.4,
    /// which the tests run, copied that image earlier and decodes either way). Here frame 1
    /// adds two dots far apart on a page of many colours (one pixel translucent, so the
    /// file is RGBA): OVER would write 8 pixels of its 18×18 region and SOURCE all 324, yet
    /// restoring the page after it still leaves the least to draw for frame 2's single dot.
    /// Pillow, an independent decoder, must give every frame.
    @Test func aFrameDisposedToPreviousIsBlendedSourceSoPillowRestoresIt() throws {
        var page = Pixmap(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                APNGSamples.set(
                    &page, x, y, r: (x * 37 + y * 11) & 255, g: (x * 13 ^ y * 29) & 255,
                    b: (x * y) & 255, a: 255)
            }
        }
        APNGSamples.set(&page, 0, 0, r: 50, g: 50, b: 50, a: 128)
        func dots(_ at: [(Int, Int)]) -> Pixmap {
            var p = page
            for (x, y) in at {
                for v in y..<(y + 2) {
                    for u in x..<(x + 2) { APNGSamples.set(&p, u, v, r: 0, g: 0, b: 0, a: 255) }
                }
            }
            return p
        }
        let frames = [page, dots([(4, 4), (20, 20)]), dots([(56, 56)]), page]
        let writer = try APNGWriter(width: 64, height: 64, denominator: 10)
        for f in frames { try writer.append(f, delay: 1) }
        let bytes = try writer.finishInMemory()
        let layout = try APNGLayout(bytes)
        #expect(layout.ihdr.count == 13 && layout.ihdr[9] == 6, "RGBA")
        #expect(layout.controls.count == 4 && layout.controls[1].dispose == 2)
        #expect(layout.controls.allSatisfy { $0.dispose != 2 || $0.blend == 0 })
        #expect(try APNGReader.decode(bytes).frames == frames)
        try APNGSamples.expectPillowDecodes(bytes, as: frames)
    }

    @Test func timingIsExactAtWholeFrameRatesAndNeverAccumulatesOtherwise() {
        let thirty = APNGTiming.plan(frameCount: 90, fps: 30)
        #expect(
            thirty.denominator == 30 && thirty.frames.count == 90
                && thirty.frames.allSatisfy { $0.delay == 1 })
        // 29.97 fps: millisecond delays whose sum is the exact total (3003 ms for 90 frames).
        let ntsc = APNGTiming.plan(frameCount: 90, fps: 29.97)
        #expect(ntsc.denominator == 1000)
        #expect(ntsc.frames.map(\.delay).reduce(0, +) == 3003)
        #expect(Set(ntsc.frames.map(\.delay)).isSubset(of: [33, 34]))
        // 60 fps (a common Lottie rate) and 90 fps: every frame, 1/fps each (16.7 and 11.1 ms,
        // over the 10 ms that browsers slow to 100 ms).
        for fps in [60, 90] {
            let plan = APNGTiming.plan(frameCount: fps, fps: Double(fps))
            #expect(plan.denominator == fps && plan.frames.map(\.frameIndex) == Array(0..<fps))
            #expect(plan.frames.allSatisfy { $0.delay == 1 })
        }
        // 120 fps: frames start every 8 or 9 ms, so every other frame is dropped (frame 2
        // starts at 16 ms, frame 3 only 9 ms after it), the total stays 1000 ms.
        let fast = APNGTiming.plan(frameCount: 120, fps: 120)
        #expect(fast.denominator == 1000)
        #expect(fast.frames.map(\.delay).reduce(0, +) == 1000)
        #expect(fast.frames.allSatisfy { $0.delay >= 11 } && fast.frames.count == 60)
        #expect(fast.frames.prefix(4).map(\.frameIndex) == [0, 2, 4, 6])
    }

    @Test func pillowDecodesTheExactPixelsAndDurations() throws {
        let (rgba, durations) = try APNGSamples.decodedByPillow(try APNGSamples.encoded())
        let (frames, delays) = Self.expected
        #expect(durations.count == frames.count)
        for (d, n) in zip(durations, delays) { #expect(abs(d - Double(n) * 1000 / 30) < 1e-6) }
        let size = APNGSamples.width * APNGSamples.height * 4
        #expect(rgba.count == size * frames.count)
        for (i, frame) in frames.enumerated() where rgba.count >= (i + 1) * size {
            #expect(
                Array(rgba[(i * size)..<((i + 1) * size)]) == frame.straightRGBA(), "frame \(i)")
        }
    }
}
