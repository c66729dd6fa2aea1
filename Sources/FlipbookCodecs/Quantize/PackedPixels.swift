/// The packed straight colors of a frame's rectangle (0x00BBGGRR for a visible pixel,
/// ``ColorQuantizer/transparentPixel`` for a transparent one), as the quantizers, the lossy
/// LZW coder and the frame encoder read them: either an array of them, or the frame's
/// own rows packed as they are read.
///
/// Why the second: a GIF frame's rectangle was packed into an array of its own, 4 bytes a
/// pixel (4 MB for a 750×1334 frame) per thread preparing frames, alive for the whole
/// quantizing and compressing, beside the frame itself (which the next frame's
/// differencing still reads). When the rectangle spans whole rows, its pixels are
/// contiguous in the frame, and each read packs one with ``PixelPacker`` instead: the same
/// value the array held, so the same bytes come out, with no array.
struct PackedPixels: RandomAccessCollection {
    typealias Index = Int
    typealias Indices = Range<Int>
    typealias Element = UInt32

    private let base: UnsafePointer<UInt32>?
    let endIndex: Int
    /// nil: `base` holds packed colors. Otherwise it holds the renderer's premultiplied
    /// pixels, packed on every read.
    private let packer: PixelPacker?

    var startIndex: Int { 0 }

    /// Colors packed already.
    init(_ packed: UnsafeBufferPointer<UInt32>) {
        base = packed.baseAddress
        endIndex = packed.count
        packer = nil
    }

    /// A frame's premultiplied pixels (little-endian RGBA words), packed as they are read.
    init(premultiplied: UnsafeBufferPointer<UInt32>, packer: PixelPacker) {
        base = premultiplied.baseAddress
        endIndex = premultiplied.count
        self.packer = packer
    }

    @inline(__always) subscript(i: Int) -> UInt32 {
        let p = base.unsafelyUnwrapped[i]
        guard let packer else { return p }
        return packer.pack(UInt32(littleEndian: p))
    }

    /// Calls `body` with `array`'s colors as packed pixels.
    static func with<R>(_ array: [UInt32], _ body: (PackedPixels) throws -> R) rethrows -> R {
        try array.withUnsafeBufferPointer { try body(PackedPixels($0)) }
    }
}
