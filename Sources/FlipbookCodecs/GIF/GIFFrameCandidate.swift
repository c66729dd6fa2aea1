#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlipbookGeometry
import FlipbookRaster

/// One way of writing a frame's rectangle: a palette, the indices, and the compressed image
/// (unchanged pixels free to repeat their own color where the palette holds it exactly).
struct FrameCandidate {
    let result: ColorQuantizer.Result
    let image: LZWImage
    let isGlobal: Bool

    init(_ result: ColorQuantizer.Result, image: LZWImage, global: Bool) {
        self.result = result
        self.image = image
        isGlobal = global
    }

    /// Compresses `result`'s indices for the rectangle (`pixels` its source, `unchanged`
    /// marking the pixels equal to the previous frame's, rows of `width`): losslessly (with
    /// `ownColorChoice`, unchanged pixels written transparent are free to repeat their own
    /// color), and with ``LZWEncoder/compressLossy`` when there is a `lossyTolerance`.
    init(
        _ result: ColorQuantizer.Result, pixels: PackedPixels, unchanged: [Bool],
        ownColorChoice: Bool, global: Bool,
        width: Int, lossyTolerance: Int?
    ) {
        isGlobal = global
        let alternates =
            ownColorChoice && result.transparentIndex != nil
            ? Self.ownColors(result, pixels: pixels, unchanged: unchanged) : nil
        // A local map is as large as the palette needs; against the global map, codes need
        // only the bits of the highest index used (lossy LZW only picks indices already in
        // its table, so never a higher one).
        let bits = LZWEncoder.minCodeSize(
            colors: global
                ? max(
                    Self.highest(result.indices), alternates.map(Self.highest) ?? 0,
                    result.transparentIndex ?? 0) + 1
                : Self.mapSize(result))
        let exact = LZWEncoder.compress(result.indices, minCodeSize: bits, alternates: alternates)
        if let lossyTolerance {
            let (image, kept) = LZWEncoder.compressLossy(
                result.indices, minCodeSize: bits, width: width, pixels: pixels,
                unchanged: unchanged, palette: result.palette,
                transparentIndex: result.transparentIndex,
                tolerance: lossyTolerance)
            // Lossy LZW is greedy: where it saves nothing, the lossless image (no error) wins.
            guard image.byteCount < exact.byteCount else {
                self.result = result
                self.image = exact
                return
            }
            self.image = image
            var lossyResult = result
            lossyResult.indices = image.indices
            lossyResult.isExact = result.isExact && kept
            self.result = lossyResult
            return
        }
        self.result = result
        image = exact
    }

    /// The largest value in `indices` (0 when empty).
    static func highest(_ indices: [UInt8]) -> Int {
        indices.withUnsafeBufferPointer { p in
            var m: UInt8 = 0
            for v in p { m = max(m, v) }
            return Int(m)
        }
    }

    /// The color map's entries (a power of two, at least 2).
    static func mapSize(_ result: ColorQuantizer.Result) -> Int {
        var size = 2
        while size < result.palette.count { size *= 2 }
        return size
    }

    /// Bytes this candidate adds to the file: local color map and image data.
    var fileBytes: Int { (isGlobal ? 0 : 3 * Self.mapSize(result)) + image.byteCount }

    /// For each pixel, its index, except that an `unchanged` pixel written transparent gets
    /// the index of its exact color when the palette has it.
    static func ownColors(_ result: ColorQuantizer.Result, pixels: PackedPixels, unchanged: [Bool])
        -> [UInt8]?
    {
        let lookup = PaletteLookup(result.palette, skipping: result.transparentIndex)
        var alternates = result.indices
        var any = false
        alternates.withUnsafeMutableBufferPointer { alternates in
            unchanged.withUnsafeBufferPointer { unchanged in
                var last: UInt32 = .max, lastOwn: Int? = nil
                for i in 0..<pixels.count where unchanged[i] {
                    let p = pixels[i]
                    if p != last { last = p; lastOwn = lookup.index(of: p) }
                    if let own = lastOwn {
                        alternates[i] = UInt8(own)
                        any = true
                    }
                }
            }
        }
        return any ? alternates : nil
    }
}

/// Exact color → palette index, through a 512-slot open-addressing table.
struct PaletteLookup {
    private var keys = [UInt32](repeating: .max, count: 512)
    private var values = [UInt8](repeating: 0, count: 512)

    init(_ palette: [UInt32], skipping: Int?) {
        for (i, c) in palette.enumerated() where i != skipping {
            var s = Self.slot(c)
            while keys[s] != .max && keys[s] != c { s = (s + 1) & 511 }
            if keys[s] == .max { keys[s] = c; values[s] = UInt8(i) }
        }
    }

    @inline(__always) private static func slot(_ c: UInt32) -> Int { Int((c &* 0x9E37_79B1) >> 23) }

    func index(of color: UInt32) -> Int? {
        var s = Self.slot(color)
        while keys[s] != .max {
            if keys[s] == color { return Int(values[s]) }
            s = (s + 1) & 511
        }
        return nil
    }
}
