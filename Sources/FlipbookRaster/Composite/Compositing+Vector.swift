/// Source-over of shaded spans four pixels at a time, in 16-bit lanes.
///
/// Why: a per-pixel loop with a branch for transparent and opaque pixels does not
/// vectorise, and image layers (soft shadows, glows) are mostly partly transparent
/// pixels. Four pixels are one 128-bit vector; each channel gets a 16-bit lane, so the
/// multiplies are SSE2's 16-bit ones (no 32-bit vector multiply needed).
///
/// Rules: per channel exactly ``Compositing/scale(_:_:)`` and ``Compositing/over(_:_:)``
/// (t = c·s + 128, (t + t >> 8) >> 8, then a 32-bit add of the source), so results are
/// byte-identical to the scalar loops; the last `count % 4` pixels go through those.
extension Compositing {
    /// Each channel of four pixels times the 16-bit lane factors `f` (one per channel,
    /// 0…255)/255, rounded.
    @inline(__always)
    static func scale4(_ p: SIMD4<UInt32>, _ f: SIMD8<UInt16>) -> SIMD4<UInt32> {
        let v = unsafeBitCast(p, to: SIMD8<UInt16>.self)
        var lo = (v & 0x00FF) &* f &+ 128
        lo = (lo &+ (lo &>> 8)) &>> 8
        var hi = (v &>> 8) &* f &+ 128
        hi = (hi &+ (hi &>> 8)) &>> 8
        return unsafeBitCast(lo | (hi &<< 8), to: SIMD4<UInt32>.self)
    }

    /// Four coverage bytes from `coverage[i]` on, one per 32-bit lane.
    @inline(__always)
    static func coverage4(_ coverage: UnsafePointer<UInt8>, at i: Int) -> SIMD4<UInt32> {
        SIMD4<UInt32>(
            UInt32(coverage[i]), UInt32(coverage[i + 1]),
            UInt32(coverage[i + 2]), UInt32(coverage[i + 3]))
    }

    /// A factor per pixel (0…255 in each 32-bit lane) spread to both 16-bit lanes of it.
    @inline(__always)
    static func lanes(_ f: SIMD4<UInt32>) -> SIMD8<UInt16> {
        unsafeBitCast(f | (f &<< 16), to: SIMD8<UInt16>.self)
    }

    /// Four premultiplied sources over four destinations.
    @inline(__always)
    static func over4(_ s: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
        s &+ scale4(d, lanes(255 &- (s &>> 24)))
    }

    /// `count` source pixels over `dst`, each source scaled by `coverage` (1…255).
    static func blendVector(
        _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
        count: Int, coverage: UInt32
    ) {
        let (d, s) = (UnsafeMutableRawPointer(dst), UnsafeRawPointer(src))
        let factor = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: coverage))
        var i = 0
        while i + 4 <= count {
            var source = s.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self)
            // Four transparent pixels change nothing, four opaque ones at full coverage
            // replace (runs of both are common in images and layer groups).
            if source == .zero { i += 4; continue }
            if coverage < 255 {
                source = scale4(source, factor)
            } else if source & 0xFF00_0000 == SIMD4(repeating: 0xFF00_0000) {
                d.storeBytes(of: source, toByteOffset: i * 4, as: SIMD4<UInt32>.self)
                i += 4
                continue
            }
            let target = d.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self)
            d.storeBytes(of: over4(source, target), toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < count {
            let source = coverage < 255 ? scale(src[i], coverage) : src[i]
            dst[i] = over(source, dst[i])
            i += 1
        }
    }

    /// `count` source pixels over `dst`, each scaled by its own coverage byte.
    static func blendVector(
        _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
        count: Int, coverage: UnsafePointer<UInt8>
    ) {
        let (d, s) = (UnsafeMutableRawPointer(dst), UnsafeRawPointer(src))
        var i = 0
        while i + 4 <= count {
            let c = coverage4(coverage, at: i)
            let source = scale4(
                s.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self), lanes(c))
            let target = d.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self)
            d.storeBytes(of: over4(source, target), toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < count {
            dst[i] = over(scale(src[i], UInt32(coverage[i])), dst[i])
            i += 1
        }
    }
}
