#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer's last pass: the global color map put in the order of its use over the whole
/// file, and the images drawn with it re-coded for the new order.
///
/// Why: the screen descriptor, and with it the global map, is written before any later
/// frame exists, so the map starts out in frame 0's order of use. A small late frame (a
/// blinking cursor, a typed letter) whose colors are rare in frame 0 then needs high
/// indices and 8-bit LZW codes, where the same frame with its colors near the front of the
/// map takes 4–6-bit codes (the LZW minimum code size follows the highest index an image
/// uses, see ``GIFWriter``). `gifsicle -O3` reorders the map that way; this pass does it
/// here, once every frame is written.
///
/// The order is chosen like gifsicle's: every image drawn with the global map counts once
/// for each color it draws; the least counted color goes last, the images that draw it
/// drop out of the count (their highest index is now that far back anyway), and so on.
/// Ties keep the old order. An image's transparent index becomes the lowest index it
/// does not draw.
///
/// Re-coding is a renumbering, not a new compression: the new map is a permutation of the
/// old one, so the image's LZW parse stays valid string for string. Each code is mapped
/// (a root through the permutation; the clear and end codes and every string code shifted
/// by the change in code size), with the same clears, so the pixels decode exactly as
/// before; a code is never wider than before unless the image's own code size grew (its
/// colors moved back in the map), and the writer keeps whichever file is smaller. The file is read twice from disk (once to count, once to rewrite),
/// holding one image's compressed data at a time and about 40 bytes per image (48 KB for
/// 1,200 frames, against 4 MB for one 750×1334 frame's pixels).
///
/// Bytes other than the map, the graphics control extensions' transparent index and the
/// re-coded images are copied as giflib wrote them. The file is read with its own small
/// parser, not giflib's: `DGifGetImageDesc` keeps every image's descriptor, which grows
/// with the frame count.
enum GIFGlobalMapOrder {
    /// What one image drawn with the global map uses.
    struct ImageUse {
        /// The opaque indices it draws (a 256-bit set).
        var colors: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// Whether its pixels include its transparent index.
        var drawsTransparent = false

        func contains(_ i: Int) -> Bool {
            let word: UInt64
            switch i >> 6 {
            case 0: word = colors.0
            case 1: word = colors.1
            case 2: word = colors.2
            default: word = colors.3
            }
            return word >> UInt64(i & 63) & 1 != 0
        }

        mutating func insert(_ i: Int) {
            let bit = UInt64(1) << UInt64(i & 63)
            switch i >> 6 {
            case 0: colors.0 |= bit
            case 1: colors.1 |= bit
            case 2: colors.2 |= bit
            default: colors.3 |= bit
            }
        }

        var members: [Int] { (0..<256).filter { contains($0) } }
    }

    /// The file's images in order: nil for an image with its own (local) map.
    struct Survey {
        var mapSize: Int
        var images: [ImageUse?]
    }

    /// Rewrites the GIF at `input` into `output` with the global map in the order of use.
    /// Returns the number of bytes written, or nil (nothing written) when the file has no
    /// global map or the new order would change nothing. Throws on a file it cannot parse
    /// (the caller keeps the original).
    static func rewrite(input: String, into output: AtomicFileWriter) throws -> Int? {
        let survey = try scan(input)
        guard survey.mapSize > 0, survey.images.contains(where: { $0 != nil }) else { return nil }
        let order = order(mapSize: survey.mapSize, images: survey.images.compactMap { $0 })
        guard order != Array(0..<survey.mapSize) else { return nil }
        return try write(input, into: output, survey: survey, order: order)
    }

    /// `order[new] = old`: the new map lists the old entries in this order. Peels the least
    /// used color off the end, one at a time (see the type's summary).
    static func order(mapSize n: Int, images: [ImageUse]) -> [Int] {
        var penalty = [Int](repeating: 0, count: n)
        var members = images.map { $0.members.filter { $0 < n } }
        var active = [Bool](repeating: true, count: images.count)
        // The images drawing each color, to drop them out when it goes.
        var users = [[Int]](repeating: [], count: n)
        for (k, colors) in members.enumerated() {
            for c in colors { penalty[c] += 1; users[c].append(k) }
        }
        var remaining = [Bool](repeating: true, count: n)
        var fromTheEnd: [Int] = []
        fromTheEnd.reserveCapacity(n)
        for _ in 0..<n {
            // The least counted color; among equals the one latest in the old map goes last.
            var pick = -1
            for c in stride(from: n - 1, through: 0, by: -1) where remaining[c] {
                if pick < 0 || penalty[c] < penalty[pick] { pick = c }
            }
            remaining[pick] = false
            fromTheEnd.append(pick)
            for k in users[pick] where active[k] {
                active[k] = false
                for c in members[k] { penalty[c] -= 1 }
                members[k] = []
            }
        }
        return fromTheEnd.reversed()
    }

    /// For image use `use` under the new order (`position[old] = new`): its transparent
    /// index (the lowest it does not draw) and its LZW minimum code size.
    static func placement(_ use: ImageUse, position: [Int]) -> (transparent: Int, codeSize: Int) {
        var taken = ImageUse()
        var highest = 0
        for c in use.members {
            taken.insert(position[c])
            highest = max(highest, position[c])
        }
        var t = 0
        while taken.contains(t) { t += 1 }
        if use.drawsTransparent { highest = max(highest, t) }
        var bits = 2
        while (1 << bits) <= highest { bits += 1 }
        return (t, bits)
    }

    // MARK: - Reading

    /// First pass: the global map's size and, for every image drawn with it, the indices
    /// its codes draw (the root codes: every string is made of them).
    static func scan(_ path: String) throws -> Survey {
        let reader = try GIFByteReader(path: path)
        let (mapSize, _) = try reader.header()
        var images: [ImageUse?] = []
        var transparent: Int?
        while true {
            switch try reader.byte() {
            case 0x21:
                if let t = try reader.skipExtension() { transparent = t }
            case 0x2C:
                let descriptor = try reader.bytes(9)
                if descriptor[8] & 0x80 != 0 {
                    // the map and the code size
                    try reader.skip(3 << (Int(descriptor[8] & 7) + 1) + 1)
                    try reader.skipBlocks()
                    images.append(nil)
                } else {
                    let codeSize = Int(try reader.byte())
                    let data = try reader.blocks()
                    let use = try use(of: data, codeSize: codeSize, transparent: transparent)
                    guard use.members.allSatisfy({ $0 < mapSize }) else {
                        throw GIFError.indexOutsideGlobalMap(path: path)
                    }
                    images.append(use)
                }
                transparent = nil
            case 0x3B:
                return Survey(mapSize: mapSize, images: images)
            default:
                throw GIFError.unexpectedBlock(path: path)
            }
        }
    }

    /// The root codes of one image's LZW data.
    static func use(of data: [UInt8], codeSize: Int, transparent: Int?) throws -> ImageUse {
        guard (2...8).contains(codeSize) else {
            throw GIFError.lzwCodeSizeOutOfRange(codeSize)
        }
        var use = ImageUse()
        var bits = LZWBitReader(data)
        var widths = LZWCodeWidths(codeSize: codeSize)
        while let code = bits.next(widths.bits) {
            if code == widths.clear + 1 { break }
            if code < widths.clear {
                if code == transparent { use.drawsTransparent = true } else { use.insert(code) }
            }
            widths.advance(code)
        }
        return use
    }

    // MARK: - Writing

    /// Second pass: copies the file with the map permuted and the global images re-coded.
    static func write(_ path: String, into output: AtomicFileWriter, survey: Survey, order: [Int])
        throws -> Int
    {
        var position = [Int](repeating: 0, count: survey.mapSize)
        for (new, old) in order.enumerated() { position[old] = new }
        let placements = survey.images.map { $0.map { placement($0, position: position) } }
        let reader = try GIFByteReader(path: path)
        let out = GIFByteWriter(output)
        let (_, head) = try reader.header()
        // Header and screen descriptor as written, then the entries in the new order.
        out.put(head[0..<13])
        for old in order { out.put(head[(13 + 3 * old)..<(16 + 3 * old)]) }
        var image = 0
        var transparent: Int?
        while true {
            let introducer = try reader.byte()
            switch introducer {
            case 0x21:
                let label = try reader.byte()
                out.put([introducer, label])
                var first = true
                while true {
                    let n = Int(try reader.byte())
                    var block = try reader.bytes(n)
                    if first && label == 0xF9 && n == 4 && block[0] & 1 != 0 {
                        // The graphics control extension of the next image.
                        transparent = Int(block[3])
                        if image < placements.count, let p = placements[image] {
                            block[3] = UInt8(p.transparent)
                        }
                    }
                    first = false
                    out.put([UInt8(n)])
                    out.put(block[...])
                    if n == 0 { break }
                }
            case 0x2C:
                let descriptor = try reader.bytes(9)
                out.put([introducer])
                out.put(descriptor[...])
                if descriptor[8] & 0x80 != 0 {
                    out.put(try reader.bytes(3 << (Int(descriptor[8] & 7) + 1))[...])
                    out.put([try reader.byte()])
                    try reader.copyBlocks(to: out)
                } else {
                    guard image < placements.count, let p = placements[image] else {
                        throw GIFError.changedWhileReordering(path: path)
                    }
                    let codeSize = Int(try reader.byte())
                    var roots = [Int](repeating: -1, count: 1 << codeSize)
                    for c in 0..<min(roots.count, survey.mapSize) { roots[c] = position[c] }
                    if let transparent, transparent < roots.count {
                        roots[transparent] = p.transparent
                    }
                    let pixels =
                        (Int(descriptor[4]) | Int(descriptor[5]) << 8)
                        * (Int(descriptor[6]) | Int(descriptor[7]) << 8)
                    let recoded = try recode(
                        try reader.blocks(), from: codeSize, to: p.codeSize, roots: roots,
                        pixels: pixels)
                    out.put([UInt8(p.codeSize)])
                    out.put(recoded[...])
                    out.put([0])
                }
                image += 1
                transparent = nil
                try out.flushIfFull()
            case 0x3B:
                out.put([introducer])
                try out.flush()
                return out.written
            default:
                throw GIFError.unexpectedBlock(path: path)
            }
        }
    }

    /// The image's data for code size `new` with `roots[old index]` = new index, as
    /// sub-blocks: renumbered (``renumber(_:from:to:roots:)``) where that fits, else (a
    /// code size that grew leaves the table too little room for a long run between clears)
    /// decoded, mapped and compressed again.
    static func recode(_ data: [UInt8], from old: Int, to new: Int, roots: [Int], pixels: Int)
        throws -> [UInt8]
    {
        if let renumbered = try renumber(data, from: old, to: new, roots: roots) {
            return renumbered
        }
        var indices = try LZWDecoder.decode(data, codeSize: old, pixels: pixels)
        for i in 0..<indices.count {
            let r = roots[Int(indices[i])]
            guard r >= 0 && r < 1 << new else {
                throw GIFError.lzwRootUnmapped(Int(indices[i]))
            }
            indices[i] = UInt8(r)
        }
        return LZWEncoder.compress(indices, minCodeSize: new).blocks
    }

    /// The image's LZW codes renumbered for code size `new` (`roots[old index]` = new
    /// index) and cut into sub-blocks: the same strings, the same clears, so the decoder
    /// builds the same table under new numbers. The codes after the end code (padding) are
    /// dropped. nil when a string code would not fit the new table (code size grew: the
    /// table's 4,096 codes run out before the old stream's next clear).
    static func renumber(_ data: [UInt8], from old: Int, to new: Int, roots: [Int]) throws
        -> [UInt8]?
    {
        var bits = LZWBitReader(data)
        var before = LZWCodeWidths(codeSize: old), after = LZWCodeWidths(codeSize: new)
        var sink = LZWBitSink(capacity: data.count + 16)
        var failure: GIFError?, fits = true
        while let code = bits.next(before.bits) {
            var mapped = code - before.clear + after.clear
            if code < before.clear {
                mapped = roots[code]
                guard mapped >= 0 && mapped < after.clear else {
                    failure = GIFError.lzwRootUnmapped(code); break
                }
            } else if code > before.clear + 1 {
                guard code <= before.next && before.hasPrevious else {
                    failure = GIFError.lzwCodeNotInTable(code); break
                }
                guard mapped <= after.next && mapped < 4096 else { fits = false; break }
            }
            sink.put(mapped, bits: after.bits)
            if code == before.clear + 1 { break }
            before.advance(code)
            after.advance(mapped)
        }
        sink.flush()
        let blocks = sink.blocks()  // also frees the sink's buffer
        if let failure { throw failure }
        return fits ? blocks : nil
    }
}
