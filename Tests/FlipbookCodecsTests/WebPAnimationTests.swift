import Foundation
import Testing
import FlipbookCodecs
import FlipbookRaster

/// Animated WebP through libwebp's animation encoder, libwebpmux's joining of segments and
/// libwebpdemux's animation decoder, checked against the source frames and against
/// Pillow's decoding (an independent reader, through its own libwebp bindings).
@Suite struct WebPAnimationTests {
    static let width = 40, height = 30

    /// Frame k: a square that moves 3 px a frame, over a gradient (opaque) or over
    /// nothing (transparent, with a half-transparent square and a faint edge column).
    static func frame(_ k: Int, transparent: Bool) -> Pixmap {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let left = (k * 3) % (width - 10)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                var pixel: [UInt8] =
                    transparent ? [0, 0, 0, 0] : [UInt8(x * 6), UInt8(y * 8), UInt8(128 + k), 255]
                if (left..<left + 10).contains(x) && (8..<20).contains(y) {
                    pixel = [255, UInt8((40 * k) % 256), 60, transparent ? 160 : 255]
                } else if transparent && x == left + 10 && (8..<20).contains(y) {
                    pixel = [255, 200, 0, 48]
                }
                rgba.replaceSubrange(i..<i + 4, with: pixel)
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: rgba)
    }

    /// Millisecond start times of `count` frames at `fps` (GIFTiming's rounding) and the end.
    static func timeline(_ count: Int, fps: Double) -> (starts: [Int], end: Int) {
        var starts: [Int] = [], t = 0
        for step in GIFTiming.plan(
            frameCount: count, fps: fps, ticksPerSecond: 1000, minimumDelay: 11)
        {
            starts.append(t)
            t += step.delay
        }
        return (starts, t)
    }

    /// Encodes `frames` split into segments at `cuts`, joined as the exporter joins them;
    /// `repair: false` leaves out the full-canvas first frames (to show they matter).
    static func encode(
        _ frames: [Pixmap], cuts: [Int] = [], options: WebPEncodingOptions, fps: Double = 30,
        repair: Bool = true, chunk: WebPChunk? = nil
    ) throws -> [UInt8] {
        let (starts, end) = timeline(frames.count, fps: fps)
        let bounds = [0] + cuts + [frames.count]
        var segments: [WebPSegment] = []
        for s in 0..<bounds.count - 1 {
            let encoder = try WebPAnimationEncoder(width: width, height: height, options: options)
            for k in bounds[s]..<bounds[s + 1] { try encoder.add(frames[k], timestamp: starts[k]) }
            let segmentEnd = bounds[s + 1] < frames.count ? starts[bounds[s + 1]] : end
            let animation = try encoder.finish(endTimestamp: segmentEnd)
            var segment = WebPSegment(
                animation: animation, duration: segmentEnd - starts[bounds[s]])
            if s > 0, repair, try !WebPAnimationMux.firstFrameCoversCanvas(animation) {
                segment.fullFirstFrame = try encoder.encodeStill(frames[bounds[s]])
            }
            segments.append(segment)
        }
        return try WebPAnimationMux.join(segments, width: width, height: height, chunk: chunk)
    }

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "flipbook-webp-" + UUID().uuidString + ".webp"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [false, true])
    func losslessRoundTripIsExact(transparent: Bool) throws {
        let frames = (0..<12).map { Self.frame($0, transparent: transparent) }
        let bytes = try Self.encode(frames, cuts: [5], options: WebPEncodingOptions(lossless: true))
        let decoded = try WebPAnimationReader.decode(bytes)
        #expect(
            decoded.width == Self.width && decoded.height == Self.height && decoded.loopCount == 0)
        #expect(decoded.frames == frames)
        #expect(decoded.durations == [33, 33, 34, 33, 33, 34, 33, 33, 34, 33, 33, 34])

        let path = try Self.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let pillow = try PillowWebP.decode(path, width: Self.width, height: Self.height)
        else { return }
        #expect(pillow.frames == frames.map { $0.straightRGBA() })
        #expect(pillow.durations == decoded.durations)
    }

    /// A later segment whose first frame libwebp cropped (transparent around the square)
    /// starts from the full-canvas still; without it, the previous segment's square
    /// would stay on screen.
    @Test func croppedSegmentStartIsRepaired() throws {
        let frames = (0..<8).map { Self.frame($0 * 3, transparent: true) }
        let options = WebPEncodingOptions(lossless: true)
        let unrepaired = try WebPAnimationReader.decode(
            Self.encode(frames, cuts: [4], options: options, repair: false))
        #expect(unrepaired.frames[4] != frames[4])
        let repaired = try WebPAnimationReader.decode(
            Self.encode(frames, cuts: [4], options: options))
        #expect(repaired.frames == frames)
    }

    /// Lossy (near-lossless) frames, as Pillow decodes them: no channel, alpha included,
    /// further from the source than the quality's tolerance (2 levels at 90, 8 at 50), and
    /// the higher quality the more faithful.
    @Test func lossyFramesStayWithinTheQualitysTolerance() throws {
        let frames = (0..<6).map { Self.frame($0, transparent: $0 % 2 == 0) }
        var meanErrors: [Double] = []
        for (quality, bound) in [(50, 8), (90, 2)] {
            #expect(bound <= GIFEncodingOptions(quality: quality).quantizedTolerance)
            let path = try Self.write(
                Self.encode(frames, options: WebPEncodingOptions(quality: quality)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            guard let pillow = try PillowWebP.decode(path, width: Self.width, height: Self.height)
            else { return }
            #expect(
                pillow.frames.count == frames.count && pillow.durations == [33, 33, 34, 33, 33, 34])
            var total = 0, count = 0, worst = 0
            for (decoded, source) in zip(pillow.frames, frames.map { $0.straightRGBA() }) {
                for i in stride(from: 0, to: source.count, by: 4) {
                    let channels = source[i + 3] > 0 && decoded[i + 3] > 0 ? 0..<4 : 3..<4
                    for c in channels {
                        let error = abs(Int(decoded[i + c]) - Int(source[i + c]))
                        total += error
                        worst = max(worst, error)
                        count += 1
                    }
                }
            }
            let mean = Double(total) / Double(count)
            #expect(worst <= bound, "quality \(quality): mean \(mean), worst \(worst)")
            meanErrors.append(mean)
        }
        #expect(meanErrors[1] < meanErrors[0], "\(meanErrors)")
    }

    /// A metadata chunk, standard (XMP) or private (as the content hash's), is written
    /// once, found again by its FourCC, and the file still decodes to the same frames.
    @Test(arguments: ["XMP ", "FBKH"])
    func metadataChunkIsKeptAndDeterministic(fourCC: String) throws {
        let frames = (0..<4).map { Self.frame($0, transparent: false) }
        let chunk = WebPChunk(fourCC: fourCC, payload: Array("<x:xmpmeta/> \(fourCC)".utf8))
        let options = WebPEncodingOptions(lossless: true)
        let bytes = try Self.encode(frames, options: options, chunk: chunk)
        #expect(WebPAnimationReader.metadata(fourCC, in: bytes) == chunk.payload)
        #expect(try Self.encode(frames, options: options, chunk: chunk) == bytes)
        let plain = try Self.encode(frames, options: options)
        #expect(WebPAnimationReader.metadata(fourCC, in: plain) == nil)
        // A chunk's header and its payload, padded to an even length.
        #expect(bytes.count == plain.count + 8 + (chunk.payload.count + 1) / 2 * 2)
        #expect(
            try WebPAnimationReader.decode(bytes).frames
                == WebPAnimationReader.decode(plain).frames)
    }

    /// The canvas size is checked (from the chunk headers) before any frame is decoded.
    @Test func oversizedCanvasIsRefusedBeforeDecoding() throws {
        var bytes = try Self.encode(
            [Self.frame(0, transparent: false), Self.frame(1, transparent: false)],
            options: WebPEncodingOptions(lossless: true))
        #expect(Array(bytes[12..<16]) == Array("VP8X".utf8))
        // Canvas 16384×16384 (stored minus one, 24 bits each): the frames still fit in it.
        bytes.replaceSubrange(24..<30, with: [0xFF, 0x3F, 0x00, 0xFF, 0x3F, 0x00])
        #expect {
            try WebPAnimationReader.decode(bytes)
        } throws: { error in "\(error)".contains("16384×16384") }
        #expect(throws: WebPError.self) { try WebPAnimationReader.decode(Array(bytes.prefix(40))) }
    }

    @Test func millisecondTimingDoesNotAccumulate() {
        let plan = GIFTiming.plan(frameCount: 120, fps: 30, ticksPerSecond: 1000, minimumDelay: 11)
        #expect(plan.count == 120 && plan.reduce(0) { $0 + $1.delay } == 4000)
        #expect(plan.prefix(3).map(\.delay) == [33, 33, 34])
        // 120 fps: 8.33 ms a frame, below the 11 ms floor: every other frame is kept at
        // its exact start, 16 or 17 ms apart, and the total stays 1000 ms.
        let fast = GIFTiming.plan(frameCount: 120, fps: 120, ticksPerSecond: 1000, minimumDelay: 11)
        #expect(fast.reduce(0) { $0 + $1.delay } == 1000)
        #expect(fast.allSatisfy { $0.delay >= 11 } && fast.count == 60)
        #expect(
            GIFTiming.plan(frameCount: 30, fps: 30)
                == GIFTiming.plan(
                    frameCount: 30, fps: 30, ticksPerSecond: 100,
                    minimumDelay: 2))
    }
}
