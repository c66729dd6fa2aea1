import CFlipbookZlib
import FlipbookGeometry
import FlipbookRaster

/// A decoded APNG (or a plain PNG, as one frame): every frame composited as a browser
/// shows it, with its delay.
public struct APNGDecoded: Sendable {
    public var width: Int
    public var height: Int
    /// acTL's num_plays (0 = forever).
    public var plays: Int
    /// Full-canvas premultiplied frames.
    public var frames: [Pixmap]
    /// Each frame's delay as written: delay_num / delay_den seconds (a den of 0 means 100).
    public var delays: [(numerator: Int, denominator: Int)]

    /// Each frame's delay in seconds.
    public var delaySeconds: [Double] {
        delays.map { Double($0.numerator) / Double($0.denominator == 0 ? 100 : $0.denominator) }
    }

    /// Delays in whole milliseconds that do not accumulate rounding: frame k starts at
    /// ⌊1000·(sum of the delays before it)⌋ ms, as FlipbookDiff times GIF and WebP frames.
    public var millisecondDelays: [Int] {
        var starts: [Int] = [], total = 0.0
        for d in delaySeconds {
            starts.append(Int((total * 1000 + 1e-9).rounded(.down)))
            total += d
        }
        starts.append(Int((total * 1000).rounded()))
        return (0..<delays.count).map { starts[$0 + 1] - starts[$0] }
    }
}

/// Reads animated PNGs: the chunk structure (acTL, fcTL, fdAT, their sequence numbers and
/// CRCs) by us, range-checked before anything is allocated; each frame's image data is
/// decoded by libpng as a PNG of the frame's size made from the file's header chunks
/// (``PNGCodec``), then composited with the frame's blend and dispose ops. A PNG without
/// acTL reads as its single image.
public enum APNGReader {
    /// Largest canvas accepted (pixels).
    public static let maxCanvasPixels = 1 << 26
    public static func read(path: String, maxBytes: Int = GIFDecodeBudget.defaultMaxBytes)
        throws(PNGError) -> APNGDecoded
    {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path) } catch {
            throw PNGError.unreadableFile(error)
        }
        do { return try decode(bytes, maxBytes: maxBytes) } catch {
            throw PNGError.inFile(path: path, error)
        }
    }

    /// Whether the bytes are a PNG with an acTL chunk before its image data.
    public static func isAnimated(_ bytes: [UInt8]) -> Bool {
        guard let chunks = try? APNGChunks(bytes) else { return false }
        return chunks.list.prefix { $0.type != "IDAT" }.contains { $0.type == "acTL" }
    }

    /// Decodes `bytes`, refusing first an animation whose decoded frames (4 bytes per canvas
    /// pixel per frame, plus two working canvases, as ``GIFDecodeBudget`` counts) would
    /// take more than `maxBytes`; the frame regions decoded one at a time count too.
    public static func decode(_ bytes: [UInt8], maxBytes: Int = GIFDecodeBudget.defaultMaxBytes)
        throws(PNGError) -> APNGDecoded
    {
        let maxTotalPixels = maxBytes / 4
        let chunks = try APNGChunks(bytes)
        guard let ihdr = chunks.list.first, ihdr.type == "IHDR", ihdr.length == 13 else {
            throw PNGError.missingHeader
        }
        let width = chunks.be32(ihdr.start), height = chunks.be32(ihdr.start + 4)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15,
            width * height <= maxCanvasPixels
        else {
            throw PNGError.sizeOutOfRange(width: width, height: height)
        }
        let controls = try frameControls(
            chunks, width: width, height: height, maxTotalPixels: maxTotalPixels)
        guard !controls.isEmpty else {
            let still = try PNGCodec.decode(bytes)
            return APNGDecoded(
                width: width, height: height, plays: 0, frames: [still], delays: [(0, 100)])
        }
        guard width * height * (controls.count + 2) <= maxTotalPixels else {
            throw PNGError.overMemoryLimit(
                frames: controls.count, width: width, height: height, maxBytes: maxBytes)
        }
        // The chunks every frame's PNG shares: the header's depth and color type, palette, transparency.
        let shared = chunks.list.filter {
            ($0.type == "PLTE" || $0.type == "tRNS") && $0.offset < chunks.firstIDAT
        }
        .map { chunks.raw($0) }
        let plays = chunks.list.first { $0.type == "acTL" }.map { chunks.be32($0.start + 4) } ?? 0
        var decoded = APNGDecoded(
            width: width, height: height, plays: plays, frames: [], delays: [])
        var canvas = Pixmap(width: width, height: height)
        for control in controls {
            if RenderCancellation.shared.isCancelled { throw PNGError.interrupted }
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            png += APNGWriter.chunkBytes(
                "IHDR",
                APNGWriter.be32(control.width) + APNGWriter.be32(control.height)
                    + Array(bytes[(ihdr.start + 8)..<(ihdr.start + 13)]))
            for s in shared { png += s }
            png += APNGWriter.chunkBytes("IDAT", control.data)
            png += APNGWriter.chunkBytes("IEND", [])
            let image: Pixmap
            do { image = try PNGCodec.decode(png) } catch {
                throw PNGError.inFrame(index: decoded.frames.count, error)
            }
            let saved = control.dispose == 2 ? canvas : nil
            composite(image, onto: &canvas, at: control.x, control.y, over: control.blend == 1)
            decoded.frames.append(canvas)
            decoded.delays.append((control.delayNumerator, control.delayDenominator))
            switch control.dispose {
            case 1: clear(&canvas, control)
            case 2: canvas = saved!
            default: break
            }
        }
        return decoded
    }

    /// One frame: its fcTL fields and its image data (IDAT or fdAT payloads, joined).
    struct FrameControl {
        var chunkOffset: Int
        var width: Int, height: Int, x: Int, y: Int
        var delayNumerator: Int, delayDenominator: Int
        var dispose: UInt8, blend: UInt8
        var data: [UInt8] = []
    }

    /// The frames in file order, every field and sequence number checked. Empty when the
    /// PNG has no acTL (a still image). The default image (IDAT) is the first frame only
    /// when an fcTL precedes it.
    static func frameControls(
        _ chunks: APNGChunks, width: Int, height: Int,
        maxTotalPixels: Int
    ) throws(PNGError) -> [FrameControl] {
        guard let actl = chunks.list.first(where: { $0.type == "acTL" }) else { return [] }
        guard actl.length == 8 else {
            throw PNGError.chunkLength(type: "acTL", length: actl.length, expected: 8)
        }
        let declared = chunks.be32(actl.start)
        var frames: [FrameControl] = []
        var expected = 0, totalPixels = 0
        for chunk in chunks.list {
            switch chunk.type {
            case "fcTL":
                guard chunk.length == 26 else {
                    throw PNGError.chunkLength(type: "fcTL", length: chunk.length, expected: 26)
                }
                let s = chunk.start
                try checkSequence(chunks.be32(s), &expected)
                let f = FrameControl(
                    chunkOffset: chunk.offset, width: chunks.be32(s + 4),
                    height: chunks.be32(s + 8),
                    x: chunks.be32(s + 12), y: chunks.be32(s + 16),
                    delayNumerator: chunks.be16(s + 20),
                    delayDenominator: chunks.be16(s + 22), dispose: chunks.bytes[s + 24],
                    blend: chunks.bytes[s + 25])
                let n = frames.count
                guard f.width > 0, f.height > 0, f.x + f.width <= width, f.y + f.height <= height
                else {
                    throw PNGError.frameOutsideCanvas(
                        frame: n, x: f.x, y: f.y, width: f.width, height: f.height,
                        canvasWidth: width, canvasHeight: height)
                }
                guard f.dispose <= 2, f.blend <= 1 else {
                    throw PNGError.unknownFrameOp(frame: n)
                }
                if n == 0, f.x != 0 || f.y != 0 || f.width != width || f.height != height,
                    chunk.offset < chunks.firstIDAT
                {
                    throw PNGError.firstFrameNotWhole
                }
                totalPixels += f.width * f.height
                guard totalPixels <= maxTotalPixels else {
                    throw PNGError.frameRegionsOverLimit(maxPixels: maxTotalPixels)
                }
                frames.append(f)
            case "IDAT":
                // Part of the animation only when an fcTL came before it.
                if let last = frames.indices.last, frames.count == 1 {
                    frames[last].data += chunks.payload(chunk)
                }
            case "fdAT":
                guard chunk.length >= 4 else {
                    throw PNGError.shortFrameData
                }
                try checkSequence(chunks.be32(chunk.start), &expected)
                guard let last = frames.indices.last, chunk.offset > chunks.firstIDAT else {
                    throw PNGError.frameDataBeforeControl
                }
                frames[last].data += chunks.bytes[(chunk.start + 4)..<(chunk.start + chunk.length)]
            default: break
            }
        }
        guard frames.count == declared else {
            throw PNGError.frameCountMismatch(declared: declared, found: frames.count)
        }
        for (i, f) in frames.enumerated() where f.data.isEmpty {
            throw PNGError.frameWithoutData(frame: i)
        }
        return frames
    }

    private static func checkSequence(_ value: Int, _ expected: inout Int) throws(PNGError) {
        guard value == expected else {
            throw PNGError.sequenceNumber(found: value, expected: expected)
        }
        expected += 1
    }

    /// A BACKGROUND disposal: the frame's region made transparent.
    private static func clear(_ canvas: inout Pixmap, _ f: FrameControl) {
        let width = canvas.width
        canvas.data.withUnsafeMutableBytes { raw in
            for row in f.y..<(f.y + f.height) {
                raw.baseAddress!.advanced(by: (row * width + f.x) * 4).initializeMemory(
                    as: UInt8.self, repeating: 0,
                    count: f.width * 4)
            }
        }
    }

    /// Draws `image` at (x, y): replacing the region (SOURCE) or over it (OVER, straight
    /// alpha as the APNG spec gives it, computed premultiplied: c = s + d·(1 − αs)).
    static func composite(
        _ image: Pixmap, onto canvas: inout Pixmap, at x: Int, _ y: Int, over: Bool
    ) {
        let w = image.width
        image.data.withUnsafeBytes { src in
            canvas.data.withUnsafeMutableBytes { dst in
                for row in 0..<image.height {
                    let s = row * w * 4, d = ((y + row) * canvas.width + x) * 4
                    if !over {
                        dst.baseAddress!.advanced(by: d).copyMemory(
                            from: src.baseAddress!.advanced(by: s), byteCount: w * 4)
                        continue
                    }
                    for i in 0..<w {
                        let a = Int(src[s + i * 4 + 3])
                        if a == 0 { continue }
                        for c in 0..<4 {
                            let sc = Int(src[s + i * 4 + c]), dc = Int(dst[d + i * 4 + c])
                            dst[d + i * 4 + c] = UInt8(min(255, sc + (dc * (255 - a) + 127) / 255))
                        }
                    }
                }
            }
        }
    }
}

/// The chunks of a PNG: offsets and lengths, every CRC checked, nothing past IEND.
struct APNGChunks {
    struct Chunk {
        /// Where the chunk (its length field) starts; `start` is where its data starts.
        var offset: Int
        var type: String
        var start: Int
        var length: Int
    }
    let bytes: [UInt8]
    var list: [Chunk] = []
    /// Where the first IDAT chunk starts (Int.max without one): found once, as every fdAT
    /// is checked against it (a search per fdAT was quadratic in the chunks before IDAT).
    var firstIDAT = Int.max

    init(_ bytes: [UInt8]) throws(PNGError) {
        self.bytes = bytes
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw bytes.isEmpty ? PNGError.emptyFile : PNGError.wrongSignature
        }
        var i = 8
        while true {
            guard i + 12 <= bytes.count else {
                throw PNGError.truncated(offset: i)
            }
            let length = be32(i)
            guard length < 1 << 31, i + 12 + length <= bytes.count else {
                throw PNGError.chunkPastEnd(offset: i, length: length)
            }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let crc = bytes.withUnsafeBufferPointer {
                crc32(0, $0.baseAddress! + i + 4, uInt(length + 4))
            }
            guard Int(crc) == be32(i + 8 + length) else {
                throw PNGError.badCRC(type: type, offset: i)
            }
            list.append(Chunk(offset: i, type: type, start: i + 8, length: length))
            if type == "IDAT" { firstIDAT = min(firstIDAT, i) }
            i += 12 + length
            if type == "IEND" { return }
        }
    }

    func be32(_ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8
            | Int(bytes[at + 3])
    }
    func be16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    func payload(_ c: Chunk) -> ArraySlice<UInt8> { bytes[c.start..<(c.start + c.length)] }
    func raw(_ c: Chunk) -> [UInt8] { Array(bytes[c.offset..<(c.start + c.length + 4)]) }
}
