import CWebP
import FlipbookRaster

/// A lossy animated WebP written frame by frame from ``WebPLossyChooser``'s frames, through
/// libwebpmux's container writer (`WebPMux`): each frame's box at its offset, blended or not
/// as chosen, never disposed, so a player draws exactly what the chooser simulated (libwebp's
/// animation encoder would crop, blend and re-encode again, with its own tolerance for
/// "unchanged": on scenes/bench/long-gradients.yaml that left the file 0.004 below the SSIM
/// the chooser had counted). A frame identical to the one before lengthens it.
package final class WebPLossyAnimation {
    private let mux: OpaquePointer
    private let width: Int, height: Int
    /// The frame written last, with its start, until the next one's start gives its length.
    private var pending: (frame: WebPLossyFrame, start: Int)?

    package init(width: Int, height: Int) throws(WebPError) {
        guard width > 0, height > 0, width <= 16383, height <= 16383 else {
            throw WebPError.frameTooLarge(width: width, height: height)
        }
        guard let mux = WebPMuxNew() else { throw WebPError.outOfMemoryForContainer }
        self.mux = mux
        self.width = width
        self.height = height
    }

    deinit { WebPMuxDelete(mux) }

    /// Adds `frame` (nil: the frame before, shown on) starting at `start` ms. The first
    /// frame must cover the canvas.
    package func add(_ frame: WebPLossyFrame?, start: Int) throws(WebPError) {
        guard let frame else { return }
        try flush(until: start)
        pending = (frame, start)
    }

    /// The animation, its last frame shown until `end` ms.
    package func finish(end: Int) throws(WebPError) -> [UInt8] {
        try flush(until: end)
        var parameters = WebPMuxAnimParams(bgcolor: 0, loop_count: 0)
        try WebPAnimationMux.check(
            WebPMuxSetAnimationParams(mux, &parameters), "set the animation's loop")
        try WebPAnimationMux.check(
            WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)), "set the canvas size")
        var output = WebPData()
        try WebPAnimationMux.check(WebPMuxAssemble(mux, &output), "assemble the animation")
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    private func flush(until end: Int) throws(WebPError) {
        guard let (frame, start) = pending else { return }
        pending = nil
        try WebPAnimationMux.push(
            frame.bytes, to: mux, x: Int32(frame.box.x0), y: Int32(frame.box.y0),
            duration: Int32(clamping: end - start), dispose: WEBP_MUX_DISPOSE_NONE,
            blend: frame.blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND)
    }
}
