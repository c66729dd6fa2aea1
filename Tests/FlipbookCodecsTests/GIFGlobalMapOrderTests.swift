import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookCodecs

/// The writer's last pass (``GIFGlobalMapOrder``): the global map reordered by use over
/// every frame, the images drawn with it renumbered. Expectations: the source frames
/// (exact: every frame here has at most 256 colors), the file as first written (the pass
/// must decode to the same pixels), and code sizes worked out by hand.
@Suite struct GIFGlobalMapOrderTests {
    typealias S = GIFTestSupport
    typealias RGBA = (UInt8, UInt8, UInt8, UInt8)

    /// Frame 0: 150 stripes of distinct colors over a background, and 40 more colors one
    /// pixel each (frame 0's order of use puts them last: indices 151…190, 8-bit codes).
    /// Every later frame redraws an 8×5 box in those 40 colors, rotated (40 codes: with
    /// them first in the map, 6-bit codes). The box's local map would cost 192 bytes, so
    /// the frame encoder draws it with the global map even in the first order.
    static func rareColorBox(frames count: Int = 12, transparentCanvas: Bool = false) -> [Pixmap] {
        let bg: RGBA = transparentCanvas ? (0, 0, 0, 0) : (240, 240, 240, 255)
        var rects: [(x: Int, y: Int, w: Int, h: Int, color: RGBA)] = []
        for i in 0..<150 {
            rects.append((x: 10 + i, y: 0, w: 1, h: 6, color: (UInt8(i), UInt8(255 - i), 90, 255)))
        }
        func rare(_ i: Int) -> RGBA { (UInt8(200 - 3 * i), 30, UInt8(60 + 4 * i), 255) }
        for i in 0..<40 { rects.append((x: 10 + i, y: 38, w: 1, h: 1, color: rare(i))) }
        return (0..<count).map { k in
            var box: [(x: Int, y: Int, w: Int, h: Int, color: RGBA)] = []
            if k > 0 {
                for i in 0..<40 {
                    box.append(
                        (x: 60 + i % 8, y: 20 + i / 8, w: 1, h: 1, color: rare((i + k) % 40)))
                }
            }
            return S.frame(width: 170, height: 40, fill: bg, rects: rects + box)
        }
    }

    @Test func lateFramesGetTheLowIndicesAndTheSamePixels() throws {
        let frames = Self.rareColorBox()
        let delays = [Int](repeating: 4, count: frames.count)
        let written = try S.encode(frames, delays: delays, reordersGlobalMap: false)
        let reordered = try S.encode(frames, delays: delays)
        let before = try GIFReader.decode(written), after = try GIFReader.decode(reordered)
        #expect(after.frames.count == frames.count)
        for (k, f) in frames.enumerated() {
            #expect(after.frames[k].data == f.data, "frame \(k)")
            #expect(after.frames[k].data == before.frames[k].data, "frame \(k)")
        }
        #expect(after.delays == before.delays)
        let old = GIFCodeSizeTests.images(written).images,
            new = GIFCodeSizeTests.images(reordered).images
        #expect(old.count == frames.count && new.count == frames.count)
        // As first written the box's colors sit at the end of frame 0's order: 8 bits.
        #expect(old.dropFirst().allSatisfy { !$0.local && $0.codeSize == 8 })
        // Reordered: the box's 40 colors lead the map and its transparent index comes next
        // (unused): indices 0…39, 6-bit codes for every later frame.
        for image in new.dropFirst() {
            #expect(!image.local)
            #expect(image.codeSize == 6)
        }
        #expect(reordered.count < written.count)
        // The same bytes every time.
        #expect(try S.encode(frames, delays: delays) == reordered)
    }

    @Test func transparentCanvasDecodesTheSame() throws {
        var frames = Self.rareColorBox(frames: 9, transparentCanvas: true)
        // A frame where visible pixels vanish (disposal to background) in the middle.
        frames[4] = S.frame(
            width: 170, height: 40, fill: (0, 0, 0, 0),
            rects: [(x: 50, y: 10, w: 20, h: 20, color: (20, 40, 200, 255))])
        let delays = [Int](repeating: 4, count: frames.count)
        let written = try S.encode(
            frames, delays: delays, background: nil, reordersGlobalMap: false)
        let reordered = try S.encode(frames, delays: delays, background: nil)
        let before = try GIFReader.decode(written), after = try GIFReader.decode(reordered)
        #expect(after.frames.count == frames.count)
        for (k, f) in frames.enumerated() {
            #expect(after.frames[k].straightRGBA() == S.gifVisible(f), "frame \(k)")
            #expect(after.frames[k].data == before.frames[k].data, "frame \(k)")
        }
        #expect(reordered.count < written.count)
    }

    /// Six of 256 colors in a pseudo-random pattern over 300×200 pixels (runs of 1–4, so
    /// the table fills with strings of several lengths and clears several times), and the
    /// palette, for the recoding tests.
    static func noisyImage() -> (indices: [UInt8], palette: [(UInt8, UInt8, UInt8)], used: [UInt8])
    {
        let used: [UInt8] = [3, 77, 130, 200, 254, 255]
        var state: UInt32 = 12345
        let indices = (0..<(300 * 200)).map { i -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return used[Int((state >> 16) % 6 + UInt32(i / 997 % 2)) % 6]
        }
        let palette = (0..<256).map { i -> (UInt8, UInt8, UInt8) in
            (UInt8(i), UInt8(255 - i), UInt8((i * 7) & 255))
        }
        return (indices, palette, used)
    }

    static func data(_ blocks: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var p = 0
        while p < blocks.count {
            data += blocks[(p + 1)..<(p + 1 + Int(blocks[p]))]; p += Int(blocks[p]) + 1
        }
        return data
    }

    /// Renumbering alone, through table clears: the six colors moved from high indices to
    /// 0…5 (code size 8 → 3). The same codes, narrower.
    @Test func renumberingKeepsThePixelsThroughTableClears() throws {
        let (w, h) = (300, 200)
        let (indices, palette, used) = Self.noisyImage()
        let image = LZWEncoder.compress(indices, minCodeSize: 8)
        var roots = [Int](repeating: -1, count: 256)
        for (new, old) in used.enumerated() { roots[Int(old)] = new }
        let renumbered = try #require(
            try GIFGlobalMapOrder.renumber(Self.data(image.blocks), from: 8, to: 3, roots: roots))
        #expect(renumbered.count < image.blocks.count)
        let newPalette = used.map { palette[Int($0)] } + [(0, 0, 0), (0, 0, 0)]
        let decoded = try GIFReader.decode(
            Self.gif(width: w, height: h, palette: newPalette, codeSize: 3, blocks: renumbered))
        let original = try GIFReader.decode(
            Self.gif(width: w, height: h, palette: palette, codeSize: 8, blocks: image.blocks))
        #expect(decoded.frames[0].data == original.frames[0].data)
        let px = decoded.frames[0].data
        for i in stride(from: 0, to: w * h, by: 997) {
            let c = palette[Int(indices[i])]
            #expect(
                px[i * 4] == c.0 && px[i * 4 + 1] == c.1 && px[i * 4 + 2] == c.2
                    && px[i * 4 + 3] == 255)
        }
    }

    /// The other way (code size 3 → 8): the old stream clears after about 4,085 strings,
    /// the new table holds 3,838, so renumbering cannot fit and the image is decoded,
    /// mapped and compressed again, to the same pixels.
    @Test func growingCodeSizeIsCompressedAgain() throws {
        let (w, h) = (300, 200)
        let (indices, palette, used) = Self.noisyImage()
        var compact = [UInt8](repeating: 0, count: 256)
        for (k, u) in used.enumerated() { compact[Int(u)] = UInt8(k) }
        let image = LZWEncoder.compress(indices.map { compact[Int($0)] }, minCodeSize: 3)
        var roots = [Int](repeating: -1, count: 8)
        for (old, new) in used.enumerated() { roots[old] = Int(new) }
        let data = Self.data(image.blocks)
        #expect(try GIFGlobalMapOrder.renumber(data, from: 3, to: 8, roots: roots) == nil)
        #expect(
            try LZWDecoder.decode(data, codeSize: 3, pixels: w * h)
                == indices.map { compact[Int($0)] })
        let recoded = try GIFGlobalMapOrder.recode(
            data, from: 3, to: 8, roots: roots, pixels: w * h)
        let decoded = try GIFReader.decode(
            Self.gif(width: w, height: h, palette: palette, codeSize: 8, blocks: recoded))
        let px = decoded.frames[0].data
        for i in 0..<(w * h) {
            let c = palette[Int(indices[i])]
            guard
                px[i * 4] == c.0 && px[i * 4 + 1] == c.1 && px[i * 4 + 2] == c.2
                    && px[i * 4 + 3] == 255
            else {
                Issue.record("pixel \(i) differs")
                break
            }
        }
    }

    /// The order: images that draw few colors get them first; the least used go last; ties
    /// keep the old order.
    @Test func orderPeelsTheLeastUsedColors() {
        func use(_ colors: [Int]) -> GIFGlobalMapOrder.ImageUse {
            var u = GIFGlobalMapOrder.ImageUse()
            for c in colors { u.insert(c) }
            return u
        }
        // Frame 0 draws 0…7; three small frames draw 6 and 7; one draws 5 and 7.
        let images = [use(Array(0..<8)), use([6, 7]), use([6, 7]), use([7, 6]), use([5, 7])]
        let order = GIFGlobalMapOrder.order(mapSize: 8, images: images)
        #expect(order == [6, 7, 5, 0, 1, 2, 3, 4])
        // Nothing to gain: the old order stays.
        #expect(GIFGlobalMapOrder.order(mapSize: 4, images: [use([0, 1, 2, 3])]) == [0, 1, 2, 3])
        var position = [Int](repeating: 0, count: 8)
        for (new, old) in order.enumerated() { position[old] = new }
        var small = use([6, 7])
        small.drawsTransparent = true
        let placed = GIFGlobalMapOrder.placement(small, position: position)
        #expect(placed.transparent == 2 && placed.codeSize == 2)
    }

    /// A one-image GIF with a global map (padded to a power of two) and the given LZW data.
    static func gif(
        width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], codeSize: Int, blocks: [UInt8]
    ) -> [UInt8] {
        var depth = 1
        while 1 << depth < palette.count { depth += 1 }
        var out = Array("GIF89a".utf8)
        out += [
            UInt8(width & 255), UInt8(width >> 8), UInt8(height & 255), UInt8(height >> 8),
            0x80 | UInt8(depth - 1), 0, 0,
        ]
        for i in 0..<(1 << depth) {
            let c = i < palette.count ? palette[i] : (0, 0, 0)
            out += [c.0, c.1, c.2]
        }
        out += [
            0x2C, 0, 0, 0, 0, UInt8(width & 255), UInt8(width >> 8), UInt8(height & 255),
            UInt8(height >> 8), 0,
        ]
        out += [UInt8(codeSize)] + blocks + [0, 0x3B]
        return out
    }
}
