#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlipbookRaster

/// Premultiplied pixels to the straight-alpha channels a PNG stores.
enum StraightAlpha {
    /// straight(c, a) = min(255, round(c · 255 / a)), 0 when a = 0, at index a << 8 | c:
    /// the values ``Pixmap/straightRGBA()`` computes, looked up instead of divided.
    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { t[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return t
    }()

    /// The pixmap's pixels as `channels` straight-alpha bytes each: 1 (grey, opaque),
    /// 2 (grey + alpha) or 4 (RGBA).
    static func pack(_ pixmap: Pixmap, channels: Int) -> [UInt8] {
        let count = pixmap.width * pixmap.height
        return [UInt8](unsafeUninitializedCapacity: count * channels) { out, initialized in
            pixmap.data.withUnsafeBytes { raw in
                table.withUnsafeBufferPointer { t in
                    let src = raw.bindMemory(to: UInt8.self)
                    switch channels {
                    case 1:
                        for i in 0..<count { out[i] = src[i * 4] }
                    case 2:
                        for i in 0..<count {
                            let a = Int(src[i * 4 + 3])
                            out[i * 2] = t[a << 8 | Int(src[i * 4])]
                            out[i * 2 + 1] = UInt8(a)
                        }
                    default:
                        rgba(src, out, count: count, table: t)
                    }
                }
            }
            initialized = count * channels
        }
    }

    /// Four pixels at a time: a group whose alphas are all 255 is copied as it is.
    private static func rgba(
        _ src: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutableBufferPointer<UInt8>, count: Int,
        table t: UnsafeBufferPointer<UInt8>
    ) {
        let opaqueAlpha = SIMD16<UInt8>(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
        let raw = UnsafeRawPointer(src.baseAddress!)
        let dst = UnsafeMutableRawPointer(out.baseAddress!)
        var i = 0
        while i + 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self)
            if (v & opaqueAlpha) == opaqueAlpha {
                dst.storeBytes(of: v, toByteOffset: i * 4, as: SIMD16<UInt8>.self)
            } else {
                for j in i..<(i + 4) { pixel(src, out, j, t) }
            }
            i += 4
        }
        while i < count {
            pixel(src, out, i, t)
            i += 1
        }
    }

    @inline(__always)
    private static func pixel(
        _ src: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutableBufferPointer<UInt8>, _ j: Int,
        _ t: UnsafeBufferPointer<UInt8>
    ) {
        let k = j * 4
        let a = Int(src[k + 3])
        let row = a << 8
        out[k] = t[row | Int(src[k])]
        out[k + 1] = t[row | Int(src[k + 1])]
        out[k + 2] = t[row | Int(src[k + 2])]
        out[k + 3] = UInt8(a)
    }
}

/// Per-row PNG filter choice between Sub and Up.
///
/// UI frames are mostly rows equal to the row above (Up makes them zeros) and flat runs
/// along a row (Sub makes them zeros). A row identical to the previous one takes Up; any
/// other the filter with the smaller sum of absolute byte differences (libpng's own
/// heuristic, restricted to two filters and vectorised). Zeros then deflate as long runs.
enum RowFilterChoice {
    /// One PNG filter bit (0x10 Sub, 0x20 Up) per row; row 0 is left to libpng.
    static func subOrUp(
        _ rows: UnsafeRawBufferPointer, stride: Int, height: Int, bytesPerPixel bpp: Int
    ) -> [UInt8] {
        var filters = [UInt8](repeating: PNGEncoder.filterSub, count: height)
        guard let base = rows.baseAddress, height > 1 else { return filters }
        for y in 1..<height {
            let row = base + y * stride, above = row - stride
            if memcmp(row, above, stride) == 0 {
                filters[y] = PNGEncoder.filterUp
                continue
            }
            let (up, sub) = costs(row, above, count: stride, bpp: bpp)
            filters[y] = up <= sub ? PNGEncoder.filterUp : PNGEncoder.filterSub
        }
        return filters
    }

    /// Sums of |Int8(difference)| for the Up and Sub filters of one row.
    static func costs(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, count: Int, bpp: Int) -> (
        up: Int, sub: Int
    ) {
        var up = 0, sub = 0
        // The first pixel: Sub leaves it as it is.
        for i in 0..<min(bpp, count) {
            let c = row.load(fromByteOffset: i, as: UInt8.self)
            let d = c &- above.load(fromByteOffset: i, as: UInt8.self)
            up += Int(min(d, 0 &- d))
            sub += Int(min(c, 0 &- c))
        }
        var i = bpp
        while i + 16 <= count {
            // 16-bit lanes hold at most 255 × 128 before they are summed.
            var upV = SIMD16<UInt16>(repeating: 0), subV = SIMD16<UInt16>(repeating: 0)
            var n = 0
            while n < 128 && i + 16 <= count {
                let c = row.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let u = c &- above.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let s = c &- row.loadUnaligned(fromByteOffset: i - bpp, as: SIMD16<UInt8>.self)
                upV &+= SIMD16<UInt16>(truncatingIfNeeded: pointwiseMin(u, 0 &- u))
                subV &+= SIMD16<UInt16>(truncatingIfNeeded: pointwiseMin(s, 0 &- s))
                i += 16
                n += 1
            }
            up += Int(SIMD16<UInt32>(truncatingIfNeeded: upV).wrappedSum())
            sub += Int(SIMD16<UInt32>(truncatingIfNeeded: subV).wrappedSum())
        }
        while i < count {
            let c = row.load(fromByteOffset: i, as: UInt8.self)
            let u = c &- above.load(fromByteOffset: i, as: UInt8.self)
            let s = c &- row.load(fromByteOffset: i - bpp, as: UInt8.self)
            up += Int(min(u, 0 &- u))
            sub += Int(min(s, 0 &- s))
            i += 1
        }
        return (up, sub)
    }
}
