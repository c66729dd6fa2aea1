import Testing
import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookCodecs

/// The global map's order and the LZW code size of frames drawn with it: smaller codes,
/// the same pixels.
@Suite struct GIFCodeSizeTests {
    typealias S = GIFTestSupport

    /// Frame 0: 150 one-pixel stripes of distinct colors (the global map gets about 150
    /// entries: 8-bit codes) over a background that covers most of the canvas; later
    /// frames move a small square of the background's and the first stripe's colors.
    static func frames() -> [Pixmap] {
        let bg: (UInt8, UInt8, UInt8, UInt8) = (240, 240, 240, 255)
        typealias Rect = (x: Int, y: Int, w: Int, h: Int, color: (UInt8, UInt8, UInt8, UInt8))
        var stripes: [Rect] = []
        for i in 0..<150 {
            let color: (UInt8, UInt8, UInt8, UInt8) = (UInt8(i), UInt8(255 - i), 90, 255)
            stripes.append((x: 10 + i, y: 0, w: 1, h: 6, color: color))
        }
        var out: [Pixmap] = []
        for k in 0..<4 {
            let square: Rect = (x: 20 + 6 * k, y: 20, w: 6, h: 6, color: (0, 255, 90, 255))
            out.append(S.frame(width: 170, height: 40, fill: bg, rects: stripes + [square]))
        }
        return out
    }

    /// (has a local map, LZW minimum code size) of every image, and the global map's depth.
    static func images(_ bytes: [UInt8]) -> (
        globalBits: Int, images: [(local: Bool, codeSize: Int)]
    ) {
        var p = 13
        let globalBits = bytes[10] & 0x80 != 0 ? Int(bytes[10] & 7) + 1 : 0
        if globalBits > 0 { p += 3 << globalBits }
        var out: [(Bool, Int)] = []
        func skipBlocks() { while bytes[p] != 0 { p += Int(bytes[p]) + 1 }; p += 1 }
        while p < bytes.count && bytes[p] != 0x3B {
            if bytes[p] == 0x21 { p += 2; skipBlocks(); continue }
            let flags = bytes[p + 9]
            p += 10
            if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
            out.append((flags & 0x80 != 0, Int(bytes[p])))
            p += 1
            skipBlocks()
        }
        return (globalBits, out)
    }

    @Test func globalMapFramesUseTheCodeSizeOfTheirIndices() throws {
        let frames = Self.frames()
        let bytes = try S.encode(frames, delays: [3, 3, 3, 3])
        let decoded = try GIFReader.decode(bytes)
        for (d, f) in zip(decoded.frames, frames) { #expect(d.data == f.data) }
        let (globalBits, images) = Self.images(bytes)
        #expect(globalBits == 8)
        #expect(images.count == 4)
        // The moving square touches the background (the most used color: index 1 after the
        // transparent slot) and the square's color (a stripe's: a high index in frame 0's
        // order of use would need 8 bits; drawn from the global map it needs fewer only
        // because the map is ordered by use and the code size follows the indices).
        let later = images.dropFirst().filter { !$0.local }
        #expect(!later.isEmpty)
        #expect(later.allSatisfy { $0.codeSize < 8 })
    }
}
