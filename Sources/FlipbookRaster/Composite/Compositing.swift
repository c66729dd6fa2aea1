/// Premultiplied source-over on packed RGBA8 pixels, one span at a time.
///
/// Rules:
/// - A pixel is one `UInt32` read from memory laid out R, G, B, A (little-endian: R is
///   the low byte, A the high byte).
/// - Scaling by an 8-bit factor rounds exactly: div255(v) = round(v / 255) for
///   v ≤ 255·255, computed as (v + 128 + ((v + 128) >> 8)) >> 8, two channels at a time.
/// - Source-over: dst' = src + dst · (255 − src.a) / 255. With valid premultiplied
///   inputs (every color channel ≤ alpha) no channel can overflow.
/// - Coverage and opacity scale the source before it is composited.

#if _endian(big)
    #error("Compositing assumes a little-endian machine")
#endif

enum Compositing {
    @inline(__always)
    static func div255(_ v: UInt32) -> UInt32 {
        let t = v &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// All four channels of `p` times `s`/255, rounded.
    @inline(__always)
    static func scale(_ p: UInt32, _ s: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* s &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* s &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        src &+ scale(dst, 255 &- (src >> 24))
    }

    /// Packs premultiplied channels.
    @inline(__always)
    static func pack(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
        r | (g << 8) | (b << 16) | (a << 24)
    }

    // MARK: Solid color spans

    /// Stores `color` into `count` pixels, sixteen per store on long runs (the compiler's
    /// own loop for `update(repeating:)` stores four at a time).
    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32) {
        var i = 0
        if count >= 32 {
            let wide = SIMD16<UInt32>(repeating: color)
            let raw = UnsafeMutableRawPointer(dst)
            while i + 16 <= count {
                raw.storeBytes(of: wide, toByteOffset: i * 4, as: SIMD16<UInt32>.self)
                i += 16
            }
        }
        (dst + i).update(repeating: color, count: count - i)
    }

    /// `count` pixels of `color` (premultiplied) at constant coverage.
    @inline(__always)
    static func blendSolid(
        _ dst: UnsafeMutablePointer<UInt32>, count: Int,
        color: UInt32, coverage: UInt32
    ) {
        if coverage >= 255 && color >> 24 == 255 {
            fill(dst, count: count, color: color)
            return
        }
        let src = coverage >= 255 ? color : scale(color, coverage)
        if src == 0 { return }
        // Four pixels at a time in 16-bit lanes (the compiler's vector multiplies), the
        // same per-channel arithmetic as `scale` and `over`: d·(255 − a) + 128 and the
        // div255 fold fit in 16 bits, so the bytes are those of the scalar formula.
        let inverse = SIMD16<UInt16>(repeating: UInt16(255 &- (src >> 24)))
        let sourceBytes = unsafeBitCast(SIMD4<UInt32>(repeating: src), to: SIMD16<UInt8>.self)
        let source = SIMD16<UInt16>(truncatingIfNeeded: sourceBytes)
        let raw = UnsafeMutableRawPointer(dst)
        var i = 0
        while i + 4 <= count {
            let d = SIMD16<UInt16>(
                truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self)
            )
            var t = d &* inverse &+ 128
            t = (t &+ (t &>> 8)) &>> 8
            raw.storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: t &+ source), toByteOffset: i * 4,
                as: SIMD16<UInt8>.self)
            i += 4
        }
        while i < count { dst[i] = over(src, dst[i]); i += 1 }
    }

    /// `count` pixels of `color` with per-pixel coverage: four at a time as
    /// ``blendVector`` does (the same arithmetic per channel, so the same bytes), the rest
    /// one by one.
    @inline(__always)
    static func blendSolid(
        _ dst: UnsafeMutablePointer<UInt32>, count: Int,
        color: UInt32, coverage: UnsafePointer<UInt8>
    ) {
        let opaque = color >> 24 == 255
        let raw = UnsafeMutableRawPointer(dst)
        let colors = SIMD4<UInt32>(repeating: color)
        var i = 0
        while i + 4 <= count {
            let c = coverage4(coverage, at: i)
            if c == .zero { i += 4; continue }
            if opaque && c == SIMD4(repeating: 255) {
                raw.storeBytes(of: colors, toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            } else {
                let target = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self)
                raw.storeBytes(
                    of: over4(scale4(colors, lanes(c)), target), toByteOffset: i * 4,
                    as: SIMD4<UInt32>.self)
            }
            i += 4
        }
        for i in i..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            if c == 255 {
                dst[i] = opaque ? color : over(color, dst[i])
            } else {
                dst[i] = over(scale(color, c), dst[i])
            }
        }
    }

    // MARK: Shaded spans

    /// `count` source pixels over `dst` at constant coverage (see ``blendVector``).
    @inline(__always)
    static func blend(
        _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
        count: Int, coverage: UInt32
    ) {
        if coverage == 0 { return }
        blendVector(dst, src, count: count, coverage: min(coverage, 255))
    }

    /// `count` source pixels over `dst` with per-pixel coverage (see ``blendVector``).
    @inline(__always)
    static func blend(
        _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
        count: Int, coverage: UnsafePointer<UInt8>
    ) {
        blendVector(dst, src, count: count, coverage: coverage)
    }
}
