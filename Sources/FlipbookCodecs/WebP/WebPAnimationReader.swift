import CWebP
import FlipbookRaster

/// An animated (or still) WebP decoded to whole frames, as a browser shows them.
public struct WebPAnimationDecoded: Sendable {
    public var width: Int
    public var height: Int
    /// 0: loops forever.
    public var loopCount: Int
    /// One canvas-sized pixmap per frame, blending and disposal applied.
    public var frames: [Pixmap]
    /// Milliseconds each frame stays on screen ([0] for a still image).
    public var durations: [Int]
}

/// Reads animated WebP through libwebp's demuxer and animation decoder
/// (`WebPAnimDecoder`, libwebpdemux), which composite each frame onto the canvas as
/// browsers do. The sizes are checked before any pixel memory exists, with the GIF
/// reader's bounds (``GIFReader/maxCanvasPixels``, and the memory budget counted as
/// ``GIFDecodeBudget`` counts it: 4 bytes per canvas pixel per frame plus two canvases):
/// the demuxer reads only the chunk headers, and every frame must lie inside the canvas.
public enum WebPAnimationReader {
    public static func decode(
        _ bytes: [UInt8],
        maxBytes: Int = GIFDecodeBudget.defaultMaxBytes
    ) throws(WebPError) -> WebPAnimationDecoded {
        let (width, height, count) = try WebPAnimationMux.withDemuxer(bytes) {
            demuxer throws(WebPError) in
            (
                Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)),
                Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            )
        }
        guard width > 0, height > 0, count > 0 else {
            throw WebPError.noCanvasOrFrames
        }
        guard width * height <= GIFReader.maxCanvasPixels else {
            throw WebPError.canvasTooLarge(
                width: width, height: height, limit: GIFReader.maxCanvasPixels)
        }
        guard 4 * width * height * (count + 2) <= maxBytes else {
            throw WebPError.overMemoryLimit(
                frames: count, width: width, height: height, maxBytes: maxBytes)
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(WebPError) in
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else {
                throw WebPError.versionMismatch(library: "libwebpdemux")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw WebPError.unreadableAnimation
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw WebPError.unreadableAnimation
            }
            var decoded = WebPAnimationDecoded(
                width: width, height: height, loopCount: Int(info.loop_count),
                frames: [], durations: [])
            var previous: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                    throw WebPError.corruptFrame(index: decoded.frames.count)
                }
                let straight = Array(UnsafeBufferPointer(start: pixels, count: width * height * 4))
                decoded.frames.append(Pixmap(width: width, height: height, straightRGBA: straight))
                // The decoder gives each frame's end time: its duration is what it adds. The
                // times are libwebp's 32-bit sums of 24-bit durations, which wrap past 2^31 ms
                // (128 frames of 4.6 hours): the wrapping difference is still each duration.
                decoded.durations.append(Int(timestamp &- previous))
                previous = timestamp
            }
            return decoded
        }
    }

    /// The payload of the `fourCC` chunk ("XMP ", "EXIF", "ICCP") of the WebP file
    /// `bytes`; nil when the file is unreadable or has none.
    public static func metadata(_ fourCC: String, in bytes: [UInt8]) -> [UInt8]? {
        try? WebPAnimationMux.withDemuxer(bytes) { demuxer throws(WebPError) -> [UInt8]? in
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            return Array(
                UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
        }
    }
}
