#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CGIFLib
import FlipbookGeometry
import FlipbookRaster

extension GIFWriter {
    /// A pixel whose color (after quantization and lossy LZW) is the one already on screen
    /// may as well be transparent, and a transparent pixel may as well repeat the color on
    /// screen when the palette holds it. The frame encoder only knows which SOURCE pixels
    /// are unchanged; here, serially, the displayed canvas is known, so the image is
    /// compressed again with those pixels free to take either index, and the rectangle is
    /// cropped to the pixels that change the screen (`mayCrop`: not for a frame that is
    /// disposed to background, whose rectangle is the region cleared); the smallest image
    /// is kept. Then the canvas takes the frame's colors. This is what `gifsicle -O3`
    /// found in our files.
    func showThrough(_ frame: GIFPreparedFrame, mayCrop: Bool) -> GIFPreparedFrame {
        if displayed.isEmpty {
            displayed = [UInt32](repeating: ColorQuantizer.transparentPixel, count: width * height)
        }
        var out = frame
        let indices = frame.image.indices
        // The palette in a full 256-entry table (indices never exceed it); the transparent
        // entry holds a value that no displayed pixel has (not even a cleared one).
        var colors = [UInt32](repeating: 0xFE00_0000, count: 256)
        for (k, c) in frame.palette.enumerated() where k != frame.transparentIndex { colors[k] = c }
        let (left, top, w, h, canvas) = (frame.left, frame.top, frame.width, frame.height, width)
        if let t = frame.transparentIndex, !indices.isEmpty {
            let lookup = PaletteLookup(frame.palette, skipping: t)
            // The free choice and the all-opaque candidate cost a compression each on this
            // serial thread. Flat frames that compress below 1/64 byte a pixel (the card
            // scene's: 0.01) have strings too long for them to win (on the card scene both
            // together saved 0.1 %, for a fifth of the writer's time); small rectangles are
            // cheap to try.
            let worthAnotherPass =
                64 * frame.image.byteCount >= indices.count || indices.count <= 1 << 14
            var any = false
            // Pixels drawn opaque that may be transparent instead.
            var freed = 0
            // The box of the pixels that must be drawn (their color is not on screen).
            var (x0, y0, x1, y1) = (w, h, 0, 0)
            let alternates = [UInt8](unsafeUninitializedCapacity: indices.count) { alt, count in
                indices.withUnsafeBufferPointer { idx in
                    colors.withUnsafeBufferPointer { colors in
                        displayed.withUnsafeBufferPointer { shown in
                            var lastShown: UInt32 = .max, lastOwn = t
                            for y in 0..<h {
                                let row = (top + y) * canvas + left, base = y * w
                                var first = -1, last = -1
                                for x in 0..<w {
                                    let k = idx[base + x]
                                    let s = shown[row + x]
                                    var a = k
                                    if Int(k) == t {
                                        if s >> 24 == 0 {
                                            if s != lastShown {
                                                lastShown = s; lastOwn = lookup.index(of: s) ?? t
                                            }
                                            a = UInt8(lastOwn)
                                        }
                                    } else if colors[Int(k)] == s {
                                        a = UInt8(t)
                                        freed += 1
                                    } else {
                                        if first < 0 { first = x }
                                        last = x
                                    }
                                    alt[base + x] = a
                                    any = any || a != k
                                }
                                if first >= 0 {
                                    x0 = min(x0, first); x1 = max(x1, last + 1)
                                    if y0 > y { y0 = y }
                                    y1 = y + 1
                                }
                            }
                        }
                    }
                }
                count = indices.count
            }
            if any && worthAnotherPass {
                let again = LZWEncoder.compress(
                    indices, minCodeSize: frame.image.minCodeSize, alternates: alternates)
                if again.byteCount < out.image.byteCount { out.image = again }
                // Every pixel in the color on screen where the palette has it: no
                // transparency breaking the strings (what gifsicle -O3 found on text-ui).
                var opaque = indices
                var changed = false
                for i in 0..<opaque.count where Int(opaque[i]) == t && alternates[i] != opaque[i] {
                    opaque[i] = alternates[i]
                    changed = true
                }
                if changed && worthAnotherPass {
                    let solid = LZWEncoder.compress(opaque, minCodeSize: frame.image.minCodeSize)
                    if solid.byteCount < out.image.byteCount { out.image = solid }
                }
                // Every pixel that may be transparent is: a frame redrawn in full before a
                // clear (transparent canvases; `mayCrop` false) where most of it is on
                // screen already. The free choice above starts strings with the pixel's
                // own color and keeps them mixed; one transparent run compresses to half
                // as many codes there (what gifsicle -O3 found on transparent-canvas).
                // Opaque canvases never get here: cropping trims what they show already.
                if !mayCrop && 2 * freed >= indices.count {
                    var clear = indices
                    for i in 0..<clear.count where alternates[i] == UInt8(t) { clear[i] = UInt8(t) }
                    let cleared = LZWEncoder.compress(clear, minCodeSize: frame.image.minCodeSize)
                    if cleared.byteCount < out.image.byteCount { out.image = cleared }
                }
            }
            if mayCrop && x0 < x1 && (x0 > 0 || y0 > 0 || x1 < w || y1 < h) {
                let cw = x1 - x0, ch = y1 - y0
                var primary = [UInt8](repeating: 0, count: cw * ch), other = primary
                for y in 0..<ch {
                    for x in 0..<cw {
                        primary[y * cw + x] = indices[(y0 + y) * w + x0 + x]
                        other[y * cw + x] = alternates[(y0 + y) * w + x0 + x]
                    }
                }
                let cropped = LZWEncoder.compress(
                    primary, minCodeSize: frame.image.minCodeSize, alternates: other)
                if cropped.byteCount < out.image.byteCount {
                    out.image = cropped
                    (out.left, out.top, out.width, out.height) = (left + x0, top + y0, cw, ch)
                }
            }
        }
        let (ol, ot, ow, oh) = (out.left, out.top, out.width, out.height)
        out.image.indices.withUnsafeBufferPointer { chosen in
            colors.withUnsafeBufferPointer { colors in
                displayed.withUnsafeMutableBufferPointer { shown in
                    for y in 0..<oh {
                        let row = (ot + y) * canvas + ol, base = y * ow
                        for x in 0..<ow {
                            let c = colors[Int(chosen[base + x])]
                            if c >> 24 == 0 { shown[row + x] = c }
                        }
                    }
                }
            }
        }
        return out
    }
}
