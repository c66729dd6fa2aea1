import CWebP

/// One independently encoded run of frames of an animated WebP: the animation
/// ``WebPAnimationEncoder`` made of it, and, when libwebp cropped that animation's first
/// frame (to the part that differs from a transparent canvas), the first frame alone as a
/// full-canvas still (``WebPAnimationEncoder/encodeStill(_:)``).
public struct WebPSegment: Sendable {
    public var animation: [UInt8]
    /// Milliseconds the segment plays: libwebp writes a segment whose frames are all
    /// identical as a still image, which has no duration of its own.
    public var duration: Int
    public var fullFirstFrame: [UInt8]?
    public init(animation: [UInt8], duration: Int, fullFirstFrame: [UInt8]? = nil) {
        self.animation = animation
        self.duration = duration
        self.fullFirstFrame = fullFirstFrame
    }
}

/// A metadata chunk of a WebP file: its FourCC (four ASCII characters: "XMP ", "EXIF", or
/// a private one, which readers skip as the container's rules require) and its payload.
public struct WebPChunk: Sendable, Equatable {
    public var fourCC: String
    public var payload: [UInt8]
    public init(fourCC: String, payload: [UInt8]) {
        self.fourCC = fourCC
        self.payload = payload
    }
}

/// Joins segments into one animated WebP with libwebpmux, and adds a metadata chunk.
///
/// Every segment starts from a transparent canvas in its own encoder, so its first frame
/// needs nothing from the frames before it, provided it covers the whole canvas and
/// replaces it (no blending): later segments' first frames are written that way, from
/// the full-canvas still when libwebp cropped them. Frames inside a segment keep their
/// offsets, blending, disposal and durations as the encoder chose them.
public enum WebPAnimationMux {
    /// Whether the first frame of `animation` covers the whole canvas (a later segment's
    /// first frame that does not is replaced by ``WebPSegment/fullFirstFrame``).
    public static func firstFrameCoversCanvas(_ animation: [UInt8]) throws(WebPError) -> Bool {
        try withDemuxer(animation) { demuxer throws(WebPError) in
            var iterator = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
                throw WebPError.noFrames
            }
            defer { WebPDemuxReleaseIterator(&iterator) }
            return iterator.x_offset == 0 && iterator.y_offset == 0
                && iterator.width == Int32(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
                && iterator.height == Int32(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        }
    }

    /// The segments' frames in order as one animation on a `width`×`height` canvas that
    /// loops forever, with `chunk` (metadata) after the frames when given.
    public static func join(
        _ segments: [WebPSegment], width: Int, height: Int,
        chunk: WebPChunk? = nil
    ) throws(WebPError) -> [UInt8] {
        guard let mux = WebPMuxNew() else {
            throw WebPError.outOfMemoryForContainer
        }
        defer { WebPMuxDelete(mux) }
        for (s, segment) in segments.enumerated() {
            try withDemuxer(segment.animation) { demuxer throws(WebPError) in
                var iterator = WebPIterator()
                guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
                    throw WebPError.noFrames
                }
                defer { WebPDemuxReleaseIterator(&iterator) }
                var first = true
                let isStill = WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT) == 1
                repeat {
                    let fragment = Array(
                        UnsafeBufferPointer(
                            start: iterator.fragment.bytes, count: iterator.fragment.size))
                    var frame = (
                        bitstream: still(
                            fragment, width: Int(iterator.width), height: Int(iterator.height)),
                        x: iterator.x_offset, y: iterator.y_offset, blend: iterator.blend_method
                    )
                    if s > 0 && first {
                        frame.blend = WEBP_MUX_NO_BLEND
                        if let full = segment.fullFirstFrame {
                            frame = (full, 0, 0, WEBP_MUX_NO_BLEND)
                        }
                    }
                    try push(
                        frame.bitstream, to: mux, x: frame.x, y: frame.y,
                        duration: isStill ? Int32(clamping: segment.duration) : iterator.duration,
                        dispose: iterator.dispose_method, blend: frame.blend)
                    first = false
                } while WebPDemuxNextFrame(&iterator) != 0
            }
        }
        var parameters = WebPMuxAnimParams(bgcolor: 0, loop_count: 0)
        try check(WebPMuxSetAnimationParams(mux, &parameters), "set the animation's loop")
        try check(WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)), "set the canvas size")
        if let chunk {
            try chunk.payload.withUnsafeBufferPointer { buffer throws(WebPError) in
                var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                try check(
                    WebPMuxSetChunk(mux, chunk.fourCC, &data, 1),
                    "add the \(chunk.fourCC) chunk")
            }
        }
        var output = WebPData()
        try check(WebPMuxAssemble(mux, &output), "assemble the animation")
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    static func push(
        _ bitstream: [UInt8], to mux: OpaquePointer, x: Int32, y: Int32, duration: Int32,
        dispose: WebPMuxAnimDispose, blend: WebPMuxAnimBlend
    ) throws(WebPError) {
        try bitstream.withUnsafeBufferPointer { buffer throws(WebPError) in
            var info = WebPMuxFrameInfo()
            info.bitstream = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            info.x_offset = x
            info.y_offset = y
            info.duration = duration
            info.id = WEBP_CHUNK_ANMF
            info.dispose_method = dispose
            info.blend_method = blend
            try check(WebPMuxPushFrame(mux, &info, 1), "add a frame")
        }
    }

    /// A frame's payload (ALPH and VP8, or VP8L) as the still WebP file the mux API takes:
    /// a VP8X header declares the alpha of a separate ALPH chunk.
    static func still(_ fragment: [UInt8], width: Int, height: Int) -> [UInt8] {
        var body = Array("WEBP".utf8)
        if fragment.starts(with: Array("ALPH".utf8)) {
            body +=
                Array("VP8X".utf8) + le32(10) + [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        }
        body += fragment
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    private static func le32(_ v: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }
    private static func le24(_ v: Int) -> [UInt8] {
        (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }

    static func check(_ result: WebPMuxError, _ doing: String) throws(WebPError) {
        guard result == WEBP_MUX_OK else {
            throw WebPError.muxFailed(doing: doing, code: Int(result.rawValue))
        }
    }

    /// Runs `body` with a demuxer over the complete WebP file `bytes`.
    static func withDemuxer<T>(
        _ bytes: [UInt8],
        _ body: (OpaquePointer) throws(WebPError) -> T
    ) throws(WebPError) -> T {
        try bytes.withUnsafeBufferPointer { buffer throws(WebPError) in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let demuxer = WebPDemux(&data) else {
                throw WebPError.incomplete
            }
            defer { WebPDemuxDelete(demuxer) }
            return try body(demuxer)
        }
    }
}
