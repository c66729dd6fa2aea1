import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookCodecs

/// The writer's show-through candidates on a transparent canvas: a frame redrawn in full
/// before a clear, whose pixels are nearly all on screen already, is written as one
/// transparent run around the few pixels that change.
@Suite struct GIFShowThroughTests {
    typealias S = GIFTestSupport
    typealias RGBA = (UInt8, UInt8, UInt8, UInt8)

    /// A 100×70 card in diagonal stripes of four colors (short LZW strings when drawn),
    /// with a one-pixel hole (transparent: the redrawn frame below then has a transparent
    /// index; a frame without one has no index to show through with).
    static func card(height: Int = 70, dot: Bool) -> Pixmap {
        let colors: [RGBA] = [
            (30, 60, 200, 255), (200, 60, 30, 255), (40, 160, 60, 255), (230, 200, 40, 255),
        ]
        var rects: [(x: Int, y: Int, w: Int, h: Int, color: RGBA)] = []
        for y in 0..<height {
            for x in 0..<100 where !(x == 50 && y == 50) {
                rects.append((x: 10 + x, y: 10 + y, w: 1, h: 1, color: colors[(x / 3 + y) % 4]))
            }
        }
        if dot { rects.append((x: 50, y: 40, w: 3, h: 3, color: (255, 255, 255, 255))) }
        return S.frame(width: 120, height: 90, fill: (0, 0, 0, 0), rects: rects)
    }

    /// (left, top, width, height, bytes of LZW data) of every image.
    static func images(_ bytes: [UInt8]) -> [(x: Int, y: Int, w: Int, h: Int, bytes: Int)] {
        var p = 13
        if bytes[10] & 0x80 != 0 { p += 3 << (Int(bytes[10] & 7) + 1) }
        var out: [(Int, Int, Int, Int, Int)] = []
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        while p < bytes.count && bytes[p] != 0x3B {
            if bytes[p] == 0x21 {
                p += 2
                while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
                p += 1
                continue
            }
            let rect = (u16(p + 1), u16(p + 3), u16(p + 5), u16(p + 7))
            let flags = bytes[p + 9]
            p += 10
            if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
            let start = p
            p += 1
            while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
            p += 1
            out.append((rect.0, rect.1, rect.2, rect.3, p - start))
        }
        return out
    }

    @Test func frameRedrawnBeforeAClearIsMostlyTransparent() throws {
        // Frame 1 adds a dot (a small rectangle); frame 2 loses the card's bottom row, so
        // frame 1 is redrawn over its dot and the vanishing row (rows 40…79, 100 wide:
        // 4,000 pixels, 9 of them new) and disposed to background.
        let frames = [
            Self.card(dot: false), Self.card(dot: true), Self.card(height: 69, dot: true),
        ]
        let bytes = try S.encode(frames, delays: [5, 5, 5], background: nil)
        let decoded = try GIFReader.decode(bytes)
        for (k, f) in frames.enumerated() {
            #expect(decoded.frames[k].straightRGBA() == S.gifVisible(f), "frame \(k)")
        }
        let images = Self.images(bytes)
        #expect(images.count == 3)
        let redrawn = images[1]
        #expect(redrawn.x == 10 && redrawn.y == 40 && redrawn.w == 100 && redrawn.h == 40)
        // One transparent run around a 3×3 dot: a run of n pixels takes about √(2n) LZW
        // codes (each string one pixel longer than the last), under 100 codes of at most
        // 8 bits here. The stripes in their own colors would take over 1,000 codes.
        #expect(redrawn.bytes < 120, "\(redrawn.bytes) bytes")
    }
}
