import CGIFLib
import FlipbookRaster

/// A decoded GIF: every frame composited as a browser shows it, with its delay.
public struct GIFDecoded: Sendable {
    public var width: Int
    public var height: Int
    /// The NETSCAPE2.0 loop count (0 = forever), or nil when the file has none.
    public var loopCount: Int?
    /// Full-canvas premultiplied frames (GIF pixels are either opaque or transparent).
    public var frames: [Pixmap]
    /// Centiseconds per frame, as written (a browser plays 0–1 as 10).
    public var delays: [Int]
}

/// GIF decoding through giflib (`DGifOpen` from memory + `DGifSlurp`), then compositing.
///
/// Compositing follows browsers: the canvas starts transparent; each image is drawn over
/// it (its transparent index leaves the canvas showing through; pixels outside the canvas
/// are clipped); the composited canvas is the frame; then the image's disposal is applied —
/// unspecified/none keep the canvas, "background" clears the image's rectangle to
/// transparent, "previous" restores the canvas as it was before the image was drawn.
///
/// Truncated or corrupt input throws ``GIFError`` with giflib's message; out-of-range color
/// indices decode as transparent, images without any color map are rejected.
public enum GIFReader {
    /// Largest canvas accepted (pixels), against absurd dimensions in corrupt headers.
    public static let maxCanvasPixels = 1 << 26

    public static func read(path: String, maxBytes: Int = GIFDecodeBudget.defaultMaxBytes) throws
        -> GIFDecoded
    {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch { throw GIFError.file(error) }
        do { return try decode(bytes, maxBytes: maxBytes) } catch let error as GIFError {
            throw GIFError.inFile(path: path, error)
        }
    }

    /// Decodes `bytes`, refusing first a file whose frames would take more than `maxBytes`
    /// (see ``GIFDecodeBudget``).
    public static func decode(_ bytes: [UInt8], maxBytes: Int = GIFDecodeBudget.defaultMaxBytes)
        throws -> GIFDecoded
    {
        try GIFDecodeBudget.check(bytes, canvasLimit: maxCanvasPixels, maxBytes: maxBytes)
        let source = ByteSource(bytes)
        let box = Unmanaged.passRetained(source)
        defer { box.release() }
        var err: Int32 = 0
        guard
            let gif = DGifOpen(
                box.toOpaque(),
                { gif, buffer, count in
                    guard let gif, let buffer, count > 0 else { return 0 }
                    let source = Unmanaged<ByteSource>.fromOpaque(gif.pointee.UserData)
                        .takeUnretainedValue()
                    return Int32(source.read(into: buffer, count: Int(count)))
                }, &err)
        else {
            throw GIFError.giflib("DGifOpen", code: err)
        }
        defer { DGifCloseFile(gif, &err) }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0, width * height <= maxCanvasPixels else {
            throw GIFError.canvasOutOfRange(width: width, height: height)
        }
        guard DGifSlurp(gif) == GIF_OK else {
            throw GIFError.giflib("DGifSlurp", code: gif.pointee.Error)
        }
        let count = Int(gif.pointee.ImageCount)
        guard count > 0, let images = gif.pointee.SavedImages else {
            throw GIFError.noImages
        }

        var decoded = GIFDecoded(
            width: width, height: height, loopCount: nil, frames: [], delays: [])
        var canvas = Pixmap(width: width, height: height)
        for i in 0..<count {
            let image = images[i]
            decoded.loopCount =
                decoded.loopCount
                ?? loopCount(in: image.ExtensionBlocks, count: Int(image.ExtensionBlockCount))
            var gcb = GraphicsControlBlock(
                DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                TransparentColor: NO_TRANSPARENT_COLOR)
            if DGifSavedExtensionToGCB(gif, Int32(i), &gcb) != GIF_OK {
                gcb = GraphicsControlBlock(
                    DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                    TransparentColor: NO_TRANSPARENT_COLOR)
            }
            guard let map = image.ImageDesc.ColorMap ?? gif.pointee.SColorMap,
                let colors = map.pointee.Colors
            else {
                throw GIFError.noColorMap(image: i)
            }
            let saved = gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            let desc = image.ImageDesc
            let (left, top, w, h) = (
                Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height)
            )
            if w > 0, h > 0 {
                guard let raster = image.RasterBits else {
                    throw GIFError.noPixels(image: i)
                }
                draw(
                    raster, left: left, top: top, width: w, height: h,
                    colors: colors, colorCount: Int(map.pointee.ColorCount),
                    transparent: Int(gcb.TransparentColor),
                    on: &canvas)
            }
            decoded.frames.append(canvas)
            decoded.delays.append(Int(gcb.DelayTime))
            switch gcb.DisposalMode {
            case DISPOSE_BACKGROUND:
                clear(left: left, top: top, width: w, height: h, on: &canvas)
            case DISPOSE_PREVIOUS:
                canvas = saved!
            default:
                break
            }
        }
        if decoded.loopCount == nil {
            decoded.loopCount = loopCount(
                in: gif.pointee.ExtensionBlocks, count: Int(gif.pointee.ExtensionBlockCount))
        }
        return decoded
    }

    /// The NETSCAPE2.0 (or ANIMEXTS1.0) loop count among saved extension blocks.
    static func loopCount(in blocks: UnsafeMutablePointer<ExtensionBlock>?, count: Int) -> Int? {
        guard let blocks, count > 1 else { return nil }
        for i in 0..<(count - 1)
        where blocks[i].Function == APPLICATION_EXT_FUNC_CODE && blocks[i].ByteCount == 11 {
            guard let app = blocks[i].Bytes else { continue }
            let name = String(decoding: UnsafeBufferPointer(start: app, count: 11), as: UTF8.self)
            guard name == "NETSCAPE2.0" || name == "ANIMEXTS1.0" else { continue }
            let sub = blocks[i + 1]
            guard sub.Function == CONTINUE_EXT_FUNC_CODE, sub.ByteCount >= 3, let b = sub.Bytes,
                b[0] == 1
            else { continue }
            return Int(b[1]) | Int(b[2]) << 8
        }
        return nil
    }

    private static func draw(
        _ raster: UnsafeMutablePointer<GifByteType>, left: Int, top: Int, width: Int, height: Int,
        colors: UnsafeMutablePointer<GifColorType>, colorCount: Int, transparent: Int,
        on canvas: inout Pixmap
    ) {
        let cw = canvas.width, ch = canvas.height
        canvas.data.withUnsafeMutableBufferPointer { out in
            for y in span(top, top + height, ch) {
                let srcRow = (y - top) * width - left
                for x in span(left, left + width, cw) {
                    let index = Int(raster[srcRow + x])
                    if index == transparent || index >= colorCount { continue }
                    let c = colors[index], o = (y * cw + x) * 4
                    out[o] = c.Red; out[o + 1] = c.Green; out[o + 2] = c.Blue; out[o + 3] = 255
                }
            }
        }
    }

    /// `lo..<hi` clipped to `0..<limit` (empty, never inverted).
    private static func span(_ lo: Int, _ hi: Int, _ limit: Int) -> Range<Int> {
        let a = min(max(0, lo), limit)
        return a..<max(a, min(hi, limit))
    }

    private static func clear(left: Int, top: Int, width: Int, height: Int, on canvas: inout Pixmap)
    {
        let cw = canvas.width
        guard width > 0, height > 0 else { return }
        let xs = span(left, left + width, cw)
        for y in span(top, top + height, canvas.height) where !xs.isEmpty {
            for o in ((y * cw + xs.lowerBound) * 4)..<((y * cw + xs.upperBound) * 4) {
                canvas.data[o] = 0
            }
        }
    }
}

/// The input side of `DGifOpen`: bytes consumed from the front.
private final class ByteSource {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<GifByteType>, count: Int) -> Int {
        let n = min(count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { src in
            buffer.update(from: src.baseAddress! + position, count: n)
        }
        position += n
        return n
    }
}
