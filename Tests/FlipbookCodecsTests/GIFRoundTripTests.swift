import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookCodecs

@Suite struct GIFRoundTripTests {
    typealias S = GIFTestSupport
    static let blue: (UInt8, UInt8, UInt8, UInt8) = (20, 40, 200, 255)
    static let bg: (UInt8, UInt8, UInt8, UInt8) = (250, 250, 245, 255)

    /// A square sliding over a flat background: every frame has ≤ 256 colors → lossless.
    static func sliding(_ count: Int) -> [Pixmap] {
        (0..<count).map { i in
            S.frame(
                width: 40, height: 30, fill: bg,
                rects: [
                    (x: 2 + 5 * i, y: 4, w: 8, h: 8, color: blue),
                    (x: 0, y: 25, w: 40, h: 5, color: (255, 0, 0, 255)),
                ])
        }
    }

    @Test func flatFramesRoundTripExactly() throws {
        let frames = Self.sliding(5)
        let bytes = try S.encode(frames, delays: [3, 4, 3, 3, 4], loopCount: 0)
        let decoded = try GIFReader.decode(bytes)
        #expect(decoded.width == 40 && decoded.height == 30)
        #expect(decoded.loopCount == 0)
        #expect(decoded.delays == [3, 4, 3, 3, 4])
        #expect(decoded.frames.count == 5)
        for (d, f) in zip(decoded.frames, frames) { #expect(d.data == f.data) }
    }

    @Test func headerIsGIF89aWithNetscapeLoop() throws {
        let bytes = try S.encode(Self.sliding(2), delays: [5, 5], loopCount: 3)
        #expect(Array(bytes.prefix(6)) == Array("GIF89a".utf8))
        let netscape = Array("NETSCAPE2.0".utf8)
        let at = (0...(bytes.count - 11)).first { Array(bytes[$0..<($0 + 11)]) == netscape }
        #expect(at != nil)
        if let at {  // sub-block: size 3, id 1, loop count little-endian
            #expect(Array(bytes[(at + 11)..<(at + 15)]) == [3, 1, 3, 0])
        }
        #expect(bytes.last == 0x3B)
        #expect(try GIFReader.decode(bytes).loopCount == 3)
    }

    /// Only the square's old and new positions change: the prepared frame is that rectangle.
    @Test func changedRectangleIsAllThatIsEncoded() throws {
        let frames = Self.sliding(2)
        let encoder = GIFFrameEncoder(width: 40, height: 30, background: .white)
        let p = encoder.prepare(frames[1], previous: frames[0])
        #expect(!p.isIdenticalToPrevious && !p.needsClearedCanvas)
        // x 2..<15 (old 2..<10, new 7..<15)
        #expect((p.left, p.top, p.width, p.height) == (2, 4, 13, 8))
        #expect(p.indices.count == 13 * 8)
        let full = encoder.prepare(frames[1], previous: nil)
        #expect(full.covers(canvasWidth: 40, canvasHeight: 30))
        #expect(full.source == nil)  // opaque canvas: the pixels are not kept
    }

    @Test func identicalFramesMergeTheirDelays() throws {
        let frames = Self.sliding(2)
        let bytes = try S.encode(
            [frames[0], frames[0], frames[0], frames[1], frames[1]], delays: [3, 4, 3, 3, 4])
        let decoded = try GIFReader.decode(bytes)
        #expect(decoded.delays == [10, 7])
        #expect(decoded.frames.map(\.data) == [frames[0].data, frames[1].data])
    }

    @Test func gradientFramesHaveSmallError() throws {
        let frames = (0..<3).map { S.gradient(width: 160, height: 90, phase: $0 * 7) }
        let decoded = try GIFReader.decode(try S.encode(frames, delays: [4, 4, 4]))
        #expect(decoded.frames.count == 3)
        for (d, f) in zip(decoded.frames, frames) {
            var total = 0, worst = 0
            for i in 0..<f.data.count {
                let e = abs(Int(d.data[i]) - Int(f.data[i]))
                total += e; worst = max(worst, e)
            }
            let mean = Double(total) / Double(f.data.count)
            // Matching is perceptual (Oklab) since the codecs branch: the mean stays small, but
            // a single channel may stray further where Oklab finds the difference hard to see.
            #expect(mean < 3.5, "mean error \(mean)")
            #expect(worst <= 40, "worst error \(worst)")
        }
    }

    /// Transparent canvas: a square grows (only additions: drawn as a kept rectangle), then
    /// moves away (visible pixels vanish: the canvas must be cleared first), then a
    /// translucent frame. Each decoded frame must equal what a GIF can show of the source.
    @Test func transparentCanvasRoundTrip() throws {
        let clear: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let frames = [
            S.frame(
                width: 30, height: 20, fill: clear,
                rects: [(x: 0, y: 0, w: 30, h: 3, color: Self.blue)]),
            S.frame(
                width: 30, height: 20, fill: clear,
                rects: [
                    (x: 0, y: 0, w: 30, h: 3, color: Self.blue),
                    (x: 5, y: 5, w: 4, h: 4, color: (255, 0, 0, 255)),
                ]),
            S.frame(
                width: 30, height: 20, fill: clear,
                rects: [
                    (x: 0, y: 0, w: 30, h: 3, color: Self.blue),
                    (x: 5, y: 5, w: 6, h: 6, color: (255, 0, 0, 255)),
                ]),
            S.frame(
                width: 30, height: 20, fill: clear,
                rects: [(x: 20, y: 10, w: 6, h: 6, color: (0, 200, 0, 255))]),
            S.frame(
                width: 30, height: 20, fill: clear,
                rects: [
                    (x: 2, y: 2, w: 6, h: 6, color: (0, 200, 0, 200)),
                    (x: 12, y: 2, w: 6, h: 6, color: (0, 200, 0, 100)),
                ]),
        ]
        let encoder = GIFFrameEncoder(width: 30, height: 20, background: nil)
        #expect(
            !encoder.prepare(frames[2], previous: frames[1]).covers(
                canvasWidth: 30, canvasHeight: 20))
        #expect(encoder.prepare(frames[3], previous: frames[2]).needsClearedCanvas)
        let decoded = try GIFReader.decode(
            try S.encode(frames, delays: [5, 5, 5, 5, 5], background: nil))
        #expect(decoded.frames.count == 5)
        for (i, (d, f)) in zip(decoded.frames, frames).enumerated() {
            #expect(d.straightRGBA() == S.gifVisible(f), "frame \(i)")
        }
    }

    @Test func opaqueCanvasCompositesTranslucentPixelsOverTheBackground() throws {
        let f = S.frame(width: 4, height: 1, fill: (255, 0, 0, 128))  // half red over white
        let decoded = try GIFReader.decode(try S.encode([f], delays: [10], background: .white))
        let p = decoded.frames[0].pixel(x: 0, y: 0)
        #expect(p.a == 255 && p.r == 255 && abs(Int(p.g) - 127) <= 1 && abs(Int(p.b) - 127) <= 1)
    }

    @Test func sixtyFPSFollowsThePlan() throws {
        let frames = (0..<12).map { i in
            S.frame(width: 8, height: 8, fill: (UInt8(i * 20), 0, 0, 255))
        }
        let delays = GIFTiming.delays(frameCount: 12, fps: 60)
        let decoded = try GIFReader.decode(try S.encode(frames, delays: delays))
        #expect(decoded.delays == GIFTiming.plan(frameCount: 12, fps: 60).map(\.delay))
        #expect(decoded.delays.reduce(0, +) == 20)
        #expect(
            decoded.frames.map(\.data)
                == GIFTiming.plan(frameCount: 12, fps: 60).map { frames[$0.frameIndex].data })
    }
}
