#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CGIFLib
import FlipbookGeometry
import FlipbookRaster

/// Streaming animated-GIF writer (GIF89a through giflib): frames arrive in order, one at a
/// time, and memory stays bounded by about two frames (the frame being written and the one
/// held back so identical successors can extend its delay and so its disposal can be
/// chosen once the next frame is known).
///
/// The file is written to a temporary file beside `path` (``AtomicFileWriter``) and renamed
/// into place by ``finish()``; ``abandon()`` or a failure leaves the target untouched.
///
/// Layout: screen descriptor with the first frame's palette as the global color map (when
/// it was prepared with ``prepareFirst(_:)``), a NETSCAPE2.0 loop extension, the comment
/// extension (when ``comment`` is given; ``GIFComment/read(path:)`` finds it), then per frame a
/// Graphics Control Extension (delay, disposal, transparent index) and an image, with its
/// own local color map (palette padded to a power of two) unless it uses the global one.
/// Images arrive compressed (``GIFPreparedFrame/image``, made by ``LZWEncoder`` on the
/// preparing thread) and are handed to giflib as code blocks (`EGifPutCode`).
///
/// Disposal: every frame is "do not dispose", except the frame before one flagged
/// ``GIFPreparedFrame/needsClearedCanvas`` (transparent canvas, visible pixels vanish),
/// which is "restore to background": it is first drawn in full over its rectangle and the
/// box of the pixels that vanish, so the clear empties exactly that region, which the
/// flagged frame then redraws. See also ``showThrough(_:)``.
///
/// Parallel use: ``encoder`` is a `Sendable` value; call ``GIFFrameEncoder/prepare(_:previous:redraw:)``
/// for frame i with frame i−1 as `previous` on any thread, then ``write(_:delayCentiseconds:)``
/// the results in order on one thread. ``append(_:delayCentiseconds:)`` does both serially.
public final class GIFWriter {
    public let path: String
    /// The frame encoder; it gains the global palette when the first frame is prepared
    /// through ``prepareFirst(_:)`` (before any other frame is prepared).
    public private(set) var encoder: GIFFrameEncoder
    /// The NETSCAPE2.0 loop count (0 = forever; n means n repeats after the first play in
    /// browsers). Negative: no loop extension (play once).
    public let loopCount: Int
    /// Text for a comment extension before the first image (nil or empty: none).
    public let comment: String?
    private var file: AtomicFileWriter?
    private var gif: UnsafeMutablePointer<GifFileType>?
    private var pending: (frame: GIFPreparedFrame, delay: Int)?
    private var wroteScreen = false
    let width: Int, height: Int
    private var lastSource: Pixmap?
    /// The colors on screen after the frames emitted so far (packed 0x00BBGGRR;
    /// ``ColorQuantizer/transparentPixel`` where the canvas is transparent), for
    /// ``showThrough(_:)``.
    var displayed: [UInt32] = []
    /// Frames written to the file so far (identical frames merged, pending frame excluded).
    public private(set) var writtenFrameCount = 0
    /// Whether ``finish()`` runs the last pass (``GIFGlobalMapOrder``); tests turn it off to
    /// compare with the file as first written.
    var reordersGlobalMap = true

    public init(
        path: String, width: Int, height: Int, loopCount: Int, background: Color?,
        options: GIFEncodingOptions = GIFEncodingOptions(), comment: String? = nil
    ) throws {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw GIFError.sizeOutOfRange(path: path, width: width, height: height)
        }
        self.path = path
        self.loopCount = loopCount
        self.comment = comment
        self.width = width
        self.height = height
        encoder = GIFFrameEncoder(
            width: width, height: height, background: background, options: options)
        let file: AtomicFileWriter
        do { file = try AtomicFileWriter(path: path) } catch { throw GIFError.file(error) }
        self.file = file
        var err: Int32 = 0
        guard let stream = file.stream,
            let gif = EGifOpen(
                UnsafeMutableRawPointer(stream),
                { gif, bytes, count in
                    guard let gif, let bytes, count > 0 else { return 0 }
                    let stream = gif.pointee.UserData.assumingMemoryBound(to: FILE.self)
                    return Int32(fwrite(bytes, 1, Int(count), stream))
                }, &err)
        else {
            file.abandon()
            self.file = nil
            throw GIFError.giflib("EGifOpen", path: path, code: err)
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
    }

    /// Prepares the first frame and makes its palette the file's global color map (later
    /// frames use it where it pays). Call before preparing any other frame with ``encoder``.
    public func prepareFirst(_ frame: Pixmap) throws -> GIFPreparedFrame {
        try checkSize(frame)
        let (updated, prepared) = encoder.prepareFirst(frame)
        if pending == nil && !wroteScreen && lastSource == nil { encoder = updated }
        return encoder.globalPalette == updated.globalPalette
            ? prepared : encoder.prepare(frame, previous: nil)
    }

    /// The screen descriptor (with the global color map, if any) and the loop extension,
    /// written just before the first image.
    private func putScreen() throws {
        guard !wroteScreen else { return }
        wroteScreen = true
        if let global = encoder.globalPalette {
            let map = try colorMap(global)
            defer { GifFreeMapObject(map) }
            try check(
                EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map), "EGifPutScreenDesc")
        } else {
            try check(
                EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil), "EGifPutScreenDesc")
        }
        if loopCount >= 0 { try putLoopExtension(min(loopCount, 65535)) }
        // giflib cuts a comment longer than 255 bytes into sub-blocks.
        if let comment, !comment.isEmpty {
            try check(EGifPutComment(gif, comment), "EGifPutComment")
        }
    }

    private func colorMap(_ palette: [UInt32]) throws -> UnsafeMutablePointer<ColorMapObject> {
        var size = 2
        while size < palette.count { size *= 2 }
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, c) in palette.enumerated() {
            colors[i] = GifColorType(
                Red: UInt8(c & 0xFF), Green: UInt8((c >> 8) & 0xFF), Blue: UInt8((c >> 16) & 0xFF))
        }
        guard let map = GifMakeMapObject(Int32(size), colors) else {
            throw GIFError.cannotMakeColorMap(path: path)
        }
        return map
    }

    deinit { abandon() }

    /// Prepares (on this thread) and writes one frame. A delay ≤ 0 skips the frame (see
    /// ``GIFTiming/delays(frameCount:fps:)``); delays of 1 cs are written as 2 (browsers
    /// would play them as 10).
    public func append(_ frame: Pixmap, delayCentiseconds: Int) throws {
        guard delayCentiseconds > 0 else { return }
        try checkSize(frame)
        let prepared =
            lastSource == nil && pending == nil && !wroteScreen
            ? try prepareFirst(frame) : encoder.prepare(frame, previous: lastSource)
        try write(prepared, delayCentiseconds: delayCentiseconds)
        lastSource = frame
    }

    /// Writes a frame prepared with ``encoder`` against the previously written frame's
    /// source. Frames must arrive in order; a delay ≤ 0 skips the frame.
    public func write(_ prepared: GIFPreparedFrame, delayCentiseconds: Int) throws {
        guard gif != nil else {
            throw GIFError.alreadyFinished(path: path)
        }
        guard delayCentiseconds > 0 else { return }
        if let source = prepared.source { try checkSize(source) }
        if prepared.isIdenticalToPrevious, pending != nil {
            pending!.delay += delayCentiseconds
            return
        }
        guard let held = pending else {
            // The first frame is drawn on an empty canvas: always the whole canvas.
            var first = prepared
            if !prepared.covers(canvasWidth: width, canvasHeight: height)
                || prepared.isIdenticalToPrevious
            {
                guard let source = prepared.source else {
                    throw GIFError.firstFrameNotWhole(path: path)
                }
                first = encoder.prepare(source, previous: nil)
            }
            pending = (first, delayCentiseconds)
            return
        }
        var frame = held.frame
        var disposal = Int32(DISPOSE_DO_NOT)
        var next = prepared
        if prepared.needsClearedCanvas {
            // The held frame is drawn in full over its rectangle and the vanishing pixels'
            // box, then disposed to background (browsers clear that rectangle to
            // transparent); the new frame redraws the cleared region and its changes.
            let region = GIFFrameEncoder.union(
                prepared.vanishing,
                PixelBounds(
                    x0: frame.left, y0: frame.top, x1: frame.left + frame.width,
                    y1: frame.top + frame.height))!
            // Transparent canvases keep their sources (GIFPreparedFrame.source).
            frame = encoder.prepare(frame.source!, previous: nil, redraw: region)
            disposal = Int32(DISPOSE_BACKGROUND)
            next = encoder.prepare(prepared.source!, previous: frame.source, redraw: region)
        }
        pending = nil
        do {
            try emit(frame, delay: held.delay, disposal: disposal)
        } catch {
            abandon()
            throw error
        }
        pending = (next, delayCentiseconds)
    }

    /// Writes the held frame and the trailer, then renames the file into place.
    public func finish() throws {
        guard let gif, let file else {
            throw GIFError.alreadyFinished(path: path)
        }
        do {
            guard let held = pending else {
                throw GIFError.noFrames(path: path)
            }
            try emit(held.frame, delay: held.delay, disposal: Int32(DISPOSE_DO_NOT))
            pending = nil
            self.gif = nil
            var err: Int32 = 0
            guard EGifCloseFile(gif, &err) == GIF_OK else {
                throw GIFError.giflib("EGifCloseFile", path: path, code: err)
            }
            do { try commitReordered(file) } catch let error as FileIOError {
                throw GIFError.file(error)
            }
            self.file = nil
        } catch {
            abandon()
            throw error
        }
    }

    /// The last pass: the file again with its global color map in the order of use over
    /// every frame (``GIFGlobalMapOrder``), renamed into place if smaller; otherwise (or if
    /// the pass finds nothing to change) the file as written. Either decodes to the same
    /// pixels.
    private func commitReordered(_ file: AtomicFileWriter) throws {
        guard reordersGlobalMap, let stream = file.stream, fflush(stream) == 0 else {
            return try file.commit()
        }
        let written = ftell(stream)
        let reordered = try AtomicFileWriter(path: path)
        // A file the pass cannot parse is kept as written (it is a valid GIF either way).
        if let size = try? GIFGlobalMapOrder.rewrite(input: file.temporaryPath, into: reordered),
            size < written
        {
            file.abandon()
            try reordered.commit()
        } else {
            reordered.abandon()
            try file.commit()
        }
    }

    /// Stops writing and deletes the temporary file; the target is untouched.
    public func abandon() {
        if let gif {
            var err: Int32 = 0
            EGifCloseFile(gif, &err)
            self.gif = nil
        }
        file?.abandon()
        file = nil
        pending = nil
        lastSource = nil
    }

    private func checkSize(_ frame: Pixmap) throws {
        guard frame.width == encoder.width, frame.height == encoder.height else {
            throw GIFError.frameSizeMismatch(
                path: path, frameWidth: frame.width, frameHeight: frame.height,
                width: encoder.width, height: encoder.height)
        }
    }

    private func check(_ result: Int32, _ what: String) throws {
        guard result == GIF_OK else {
            throw GIFError.giflib(what, path: path, code: gif?.pointee.Error ?? 0)
        }
    }

    private func putLoopExtension(_ count: Int) throws {
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
        var app = Array("NETSCAPE2.0".utf8)
        try check(EGifPutExtensionBlock(gif, 11, &app), "EGifPutExtensionBlock")
        var loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        try check(EGifPutExtensionBlock(gif, 3, &loop), "EGifPutExtensionBlock")
        try check(EGifPutExtensionTrailer(gif), "EGifPutExtensionTrailer")
    }

    private func emit(_ original: GIFPreparedFrame, delay: Int, disposal: Int32) throws {
        let frame = showThrough(original, mayCrop: disposal != Int32(DISPOSE_BACKGROUND))
        if disposal == Int32(DISPOSE_BACKGROUND) {
            // Shown, then cleared: what the next frame is drawn over.
            for y in frame.top..<(frame.top + frame.height) {
                for x in frame.left..<(frame.left + frame.width) {
                    displayed[y * width + x] = ColorQuantizer.transparentPixel
                }
            }
        }
        try putScreen()
        var gcb = GraphicsControlBlock(
            DisposalMode: disposal, UserInputFlag: false,
            DelayTime: Int32(min(max(delay, 2), 65535)),
            TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var ext = [UInt8](repeating: 0, count: 4)
        let n = EGifGCBToExtension(&gcb, &ext)
        try check(
            EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(n), ext),
            "EGifPutExtension (graphics control)")

        let map = frame.usesGlobalPalette ? nil : try colorMap(frame.palette)
        defer { if let map { GifFreeMapObject(map) } }
        // giflib writes the code-size byte (the LZW minimum code size) from the depth of the
        // map the image uses. Against the global map, the frame encoder compressed for as few
        // bits as the frame's indices need (GIF allows a code size below the map's depth:
        // gifsicle writes such files, decoders read them), so the global map's depth is set
        // to that while giflib sets up the image, and restored.
        let global = frame.usesGlobalPalette ? gif?.pointee.SColorMap : nil
        let globalDepth = global?.pointee.BitsPerPixel ?? 0
        if let global {
            guard (2...max(2, Int(globalDepth))).contains(frame.image.minCodeSize) else {
                throw GIFError.codeSizeMismatch(
                    path: path, codeSize: frame.image.minCodeSize, mapDepth: Int(globalDepth),
                    global: true)
            }
            global.pointee.BitsPerPixel = Int32(frame.image.minCodeSize)
        }
        let described = EGifPutImageDesc(
            gif, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
            false, map)
        global?.pointee.BitsPerPixel = globalDepth
        try check(described, "EGifPutImageDesc")
        let depth =
            global != nil ? frame.image.minCodeSize : max(2, Int(map?.pointee.BitsPerPixel ?? 0))
        guard depth == frame.image.minCodeSize else {
            throw GIFError.codeSizeMismatch(
                path: path, codeSize: frame.image.minCodeSize, mapDepth: Int(depth), global: false)
        }
        try frame.image.blocks.withUnsafeBufferPointer { blocks in
            var offset = 0
            while offset < blocks.count {
                let block = blocks.baseAddress! + offset
                if offset == 0 {
                    try check(EGifPutCode(gif, Int32(depth), block), "EGifPutCode")
                } else {
                    try check(EGifPutCodeNext(gif, block), "EGifPutCodeNext")
                }
                offset += Int(blocks[offset]) + 1
            }
        }
        try check(EGifPutCodeNext(gif, nil), "EGifPutCodeNext")
        writtenFrameCount += 1
    }
}
