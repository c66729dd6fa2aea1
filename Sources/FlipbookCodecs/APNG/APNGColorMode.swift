/// The pixel format of a whole APNG, chosen from the pixels of all its frames (as apngasm
/// and apngopt choose theirs): the fewest bytes a pixel that still hold every pixel exactly.
///
/// - `gray`: every visible pixel grey (R = G = B) and opaque, the rest fully transparent:
///   one byte a pixel, filtered like any continuous sample (unlike palette indices). `key` is
///   a grey level no frame uses, written as tRNS, standing for "transparent" (see `rgb`).
/// - `palette`: at most 256 distinct RGBA colours in all frames: one byte a pixel (PLTE, and
///   tRNS for the colours that are not opaque).
/// - `grayAlpha`: every visible pixel grey: two bytes a pixel (monochrome Lottie art with
///   soft edges).
/// - `rgb`: every pixel opaque or fully transparent: three bytes a pixel. `key` is an RGB
///   colour no frame uses, written as tRNS: it stands for "transparent", so the pixels that
///   blend OVER leaves unchanged can still be written (opaque scenes would otherwise be
///   SOURCE only), and so can hard-edged transparency, such as the margins of a Lottie
///   fitted into `--size` (starstrips at 256×256: 259,357 bytes before, in RGBA; 241,867 in
///   RGB, as apngasm writes it, with the least-entropy rows of ``PNGRowFilters`` too).
///   Without a free key only opaque frames are RGB.
/// - `rgba`: anything else.
enum APNGColorMode: Sendable {
    case rgba
    case rgb(key: UInt32?)
    case palette(APNGPalette)
    case gray(key: UInt8?)
    case grayAlpha

    /// IHDR's color type.
    var colorType: UInt8 {
        switch self {
        case .rgba: return 6
        case .rgb: return 2
        case .palette: return 3
        case .gray: return 0
        case .grayAlpha: return 4
        }
    }

    var bytesPerPixel: Int {
        switch self {
        case .rgba: return 4
        case .rgb: return 3
        case .palette, .gray: return 1
        case .grayAlpha: return 2
        }
    }

    /// Palette indices are labels, not levels: the predicting row filters do not apply.
    var isIndexed: Bool {
        if case .palette = self { return true }
        return false
    }

    /// The chunks between IHDR and the image data: PLTE and tRNS.
    var headerChunks: [(String, [UInt8])] {
        switch self {
        case .rgba, .rgb(key: nil), .gray(key: nil), .grayAlpha: return []
        case .gray(let key?): return [("tRNS", [0, key])]
        case .rgb(let key?):
            // 16-bit samples, of which an 8-bit image uses the low byte.
            return [
                (
                    "tRNS",
                    [
                        0, UInt8(key & 0xFF), 0, UInt8((key >> 8) & 0xFF), 0,
                        UInt8((key >> 16) & 0xFF),
                    ]
                )
            ]
        case .palette(let palette):
            let plte = palette.colors.flatMap {
                [UInt8($0 & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8(($0 >> 16) & 0xFF)]
            }
            // Non-opaque colours come first, so tRNS stops at the last of them.
            let alphas = palette.colors.prefix { $0 >> 24 != 255 }.map { UInt8($0 >> 24) }
            return [("PLTE", plte)] + (alphas.isEmpty ? [] : [("tRNS", alphas)])
        }
    }

    /// Straight RGBA pixels (R first) in this format; nil when one cannot be written in it
    /// (a transparent pixel of an OVER variant in `rgb` without a key).
    func convert(_ rgba: [UInt8]) -> [UInt8]? {
        switch self {
        case .rgba: return rgba
        case .rgb(let key):
            let count = rgba.count / 4
            var out = [UInt8](repeating: 0, count: count * 3)
            var possible = true
            rgba.withUnsafeBytes { raw in
                let p = raw.bindMemory(to: UInt32.self)
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<count {
                        var c = UInt32(littleEndian: p[i])
                        if c >> 24 != 255 {
                            // Only transparent pixels (OVER's "unchanged" ones among them)
                            // are not opaque here: the mode was chosen so.
                            guard let key else { possible = false; return }
                            c = key
                        }
                        o[3 * i] = UInt8(truncatingIfNeeded: c)
                        o[3 * i + 1] = UInt8(truncatingIfNeeded: c >> 8)
                        o[3 * i + 2] = UInt8(truncatingIfNeeded: c >> 16)
                    }
                }
            }
            return possible ? out : nil
        case .gray(let key):
            var possible = true
            let out = rgba.withUnsafeBytes { raw in
                raw.bindMemory(to: UInt32.self).map { word -> UInt8 in
                    let c = UInt32(littleEndian: word)
                    if c >> 24 == 255 { return UInt8(truncatingIfNeeded: c) }
                    // Only transparent pixels are not opaque here (the mode was chosen so).
                    guard let key else { possible = false; return 0 }
                    return key
                }
            }
            return possible ? out : nil
        case .grayAlpha:
            let count = rgba.count / 4
            return [UInt8](unsafeUninitializedCapacity: count * 2) { out, initialized in
                for i in 0..<count {
                    out[2 * i] = rgba[4 * i]
                    out[2 * i + 1] = rgba[4 * i + 3]
                }
                initialized = count * 2
            }
        case .palette(let palette):
            return rgba.withUnsafeBytes { raw in
                let p = raw.bindMemory(to: UInt32.self)
                return p.map {
                    UInt8(truncatingIfNeeded: palette.table.index(of: UInt32(littleEndian: $0)))
                }
            }
        }
    }

    /// The mode for frames whose straight RGBA pixels (source and OVER variants) are `works`.
    static func choose(_ works: [APNGFrameWork]) -> APNGColorMode {
        var table = ColorTable()
        var tooMany = false, opaque = true
        // Grey: every visible pixel R = G = B; binary: every source pixel opaque or transparent.
        var gray = true, binary = true
        // One bit per RGB colour (2 MiB): which opaque colours occur, to find an unused key.
        var used = [UInt64](repeating: 0, count: 1 << 18)
        scan: for work in works {
            for (pixels, isSource) in [(work.source, true), (work.over ?? [], false)] {
                pixels.withUnsafeBytes { raw in
                    let p = raw.bindMemory(to: UInt32.self)
                    // transparent with colour: never a straight pixel
                    var last: UInt32 = 0x00FF_FFFF
                    for word in p {
                        let c = UInt32(littleEndian: word)
                        if c == last { continue }
                        last = c
                        let alpha = c >> 24
                        if alpha == 255 {
                            used[Int((c & 0xFF_FFFF) >> 6)] |= 1 << UInt64(c & 63)
                        } else if isSource {
                            opaque = false
                            if alpha != 0 { binary = false }
                        }
                        if alpha != 0 && (c ^ (c >> 8)) & 0xFFFF != 0 { gray = false }
                        if !tooMany && !table.insert(c) { tooMany = true }
                    }
                }
                if tooMany && !binary && !gray { break scan }
            }
        }
        if gray && binary {
            // An opaque grey level never used (grey colour c is bit c·0x010101 of `used`).
            let freeGray = (0..<256).first { level in
                let c = level * 0x01_0101
                return used[c >> 6] & (1 << UInt64(c & 63)) == 0
            }.map { UInt8($0) }
            if opaque || freeGray != nil { return .gray(key: freeGray) }
        }
        if !tooMany { return .palette(APNGPalette(table: table)) }
        if gray { return .grayAlpha }
        // Opaque, or hard-edged transparency that a key colour can stand for.
        guard binary else { return .rgba }
        guard let free = used.firstIndex(where: { $0 != .max }) else {
            return opaque ? .rgb(key: nil) : .rgba
        }
        return .rgb(key: 0xFF00_0000 | UInt32(free * 64 + (~used[free]).trailingZeroBitCount))
    }
}

/// At most 256 colours and their indices, in the order PLTE lists them.
struct APNGPalette: Sendable {
    let colors: [UInt32]
    let table: ColorTable

    /// The colours of `table` ordered: not opaque first (alpha, then value), then opaque by value.
    init(table counted: ColorTable) {
        colors = counted.colors.sorted { a, b in
            let ka = (a >> 24 == 255 ? 1 : 0, a >> 24, a), kb = (b >> 24 == 255 ? 1 : 0, b >> 24, b)
            return ka < kb
        }
        var indexed = ColorTable()
        for c in colors { _ = indexed.insert(c) }
        table = indexed
    }
}

/// An open-addressed set of up to 256 RGBA colours, each with its insertion index.
struct ColorTable: Sendable {
    private var keys = [UInt32](repeating: 0, count: 1024)
    private var slots = [Int16](repeating: -1, count: 1024)
    private(set) var colors: [UInt32] = []

    @inline(__always) private static func home(_ c: UInt32) -> Int { Int((c &* 0x9E37_79B1) >> 22) }

    /// Adds `c`; false when it is new and 256 colours are held already.
    mutating func insert(_ c: UInt32) -> Bool {
        var i = Self.home(c)
        while slots[i] >= 0 {
            if keys[i] == c { return true }
            i = (i + 1) & 1023
        }
        guard colors.count < 256 else { return false }
        keys[i] = c
        slots[i] = Int16(colors.count)
        colors.append(c)
        return true
    }

    /// The index of a colour the table holds.
    @inline(__always) func index(of c: UInt32) -> Int {
        var i = Self.home(c)
        while keys[i] != c || slots[i] < 0 { i = (i + 1) & 1023 }
        return Int(slots[i])
    }
}
