import FlipbookGeometry

/// An image used as paint: bilinear samples of a premultiplied ``Pixmap``.
///
/// Rules:
/// - `transform` maps device pixel coordinates to image pixel coordinates; a device
///   pixel is sampled at its center (x + 0.5, y + 0.5) and image pixel (i, j) has its
///   center at (i + 0.5, j + 0.5).
/// - Bilinear weights are applied to premultiplied pixels, so transparent neighbours add
///   no dark fringe; weights are 8-bit fixed point (1/256, truncated), the result rounds.
///   Sample positions are 32.32 fixed point, stepped from device column 0 of the row, and
///   the order of the two mixes depends only on the transform (axis-aligned: vertical
///   first), so a pixel's value is a function of its position alone, not of the span
///   that paints it (``ImageCache`` relies on this).
/// - Outside the image the nearest edge pixel repeats (clamp-to-edge); callers clip with
///   the destination rectangle.
/// - An exact integer translation copies pixels without filtering.
public struct ImagePattern: Sendable {
    public let image: Pixmap
    public let transform: AffineTransform

    /// O(1): the image is not scanned (patterns are built per frame; the blend loop
    /// already stores opaque pixels directly).
    public init(image: Pixmap, transform: AffineTransform) {
        self.image = image
        self.transform = transform
    }
}

extension ImagePattern: SpanShader {
    var shadesOpaque: Bool { false }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let (w, h) = (image.width, image.height)
        guard w > 0, h > 0 else {
            out.update(repeating: 0, count: count)
            return
        }
        let t = transform
        image.data.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { src in
                // (Within ±1e9: a hostile translation of 1e20 or infinity is whole too, but not an Int.)
                if t.a == 1, t.b == 0, t.c == 0, t.d == 1, abs(t.tx) < 1e9, abs(t.ty) < 1e9,
                    t.tx == t.tx.rounded(), t.ty == t.ty.rounded()
                {
                    // Pure integer translation: pixel centers land on pixel centers.
                    let row = min(max(y + Int(t.ty), 0), h - 1) * w
                    let dx = Int(t.tx)
                    for i in 0..<count {
                        out[i] = src[row + min(max(x + i + dx, 0), w - 1)]
                    }
                    return
                }
                // Sample positions in "pixel index" space (centers at integers), in 32.32
                // fixed point: bits above 32 are the pixel, the next 8 the weight. A pixel's
                // position is the row's position at device column 0 plus x steps, so its
                // value depends only on (x, y), never on where its span starts (a span that
                // starts elsewhere, a cached row and a fresh one give the same bytes).
                // Positions are held within ±2^24 image pixels and steps within ±2^16 (far
                // beyond any image, where samples clamp to its edge anyway).
                let one = 4_294_967_296.0
                func fixed(_ v: Double, _ limit: Double) -> Int64 {
                    Int64(min(max(v, -limit), limit) * one)
                }
                let py = Double(y) + 0.5
                let du = fixed(t.a, 65536), dv = fixed(t.b, 65536)
                var u = fixed(t.a * 0.5 + t.c * py + t.tx - 0.5, 16_777_216) &+ du &* Int64(x)
                var v = fixed(t.b * 0.5 + t.d * py + t.ty - 0.5, 16_777_216) &+ dv &* Int64(x)
                let maxX = w - 1, maxY = h - 1
                if t.b == 0 && t.c == 0 {
                    // Axis-aligned: the two source rows and their weight are the same for the
                    // whole row, so every pixel blends them vertically first, then
                    // horizontally (whatever the span's length).
                    let iy = Int(truncatingIfNeeded: v >> 32)
                    let wy = UInt32(truncatingIfNeeded: (v >> 24) & 0xFF)
                    let r0 = min(max(iy, 0), maxY) * w, r1 = min(max(iy + 1, 0), maxY) * w
                    let firstColumn = Int(truncatingIfNeeded: u >> 32)
                    let lastColumn = Int(truncatingIfNeeded: (u &+ du &* Int64(count - 1)) >> 32)
                    let lo = min(max(min(firstColumn, lastColumn), 0), maxX)
                    let hi = min(max(max(firstColumn, lastColumn) + 1, 0), maxX)
                    guard hi - lo < 2 * count + 16 else {
                        // Shrunk more than twofold: mix only the columns used, pixel by pixel.
                        for i in 0..<count {
                            let ix = Int(truncatingIfNeeded: u >> 32)
                            let wx = UInt32(truncatingIfNeeded: (u >> 24) & 0xFF)
                            let x0 = min(max(ix, 0), maxX), x1 = min(max(ix + 1, 0), maxX)
                            out[i] = Self.lerp(
                                Self.lerp(src[r0 + x0], src[r1 + x0], wy),
                                Self.lerp(src[r0 + x1], src[r1 + x1], wy), wx)
                            u &+= du
                        }
                        return
                    }
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: hi - lo + 1) { mixed in
                        let m = mixed.baseAddress!
                        Self.lerpRows(
                            src.baseAddress! + r0 + lo, src.baseAddress! + r1 + lo, wy,
                            count: hi - lo + 1, into: m)
                        if du == 1 << 32 {
                            // Unit scale: one horizontal weight for the whole span. Pixels
                            // whose two columns both lie in [lo, hi] mix vectorised.
                            let wx = UInt32(truncatingIfNeeded: (u >> 24) & 0xFF)
                            let ix = Int(truncatingIfNeeded: u >> 32)
                            let first = min(max(lo - ix, 0), count),
                                last = min(max(hi - ix, first), count)
                            for i in 0..<first {
                                let x0 = min(max(ix + i, lo), hi) - lo,
                                    x1 = min(max(ix + i + 1, lo), hi) - lo
                                out[i] = Self.lerp(m[x0], m[x1], wx)
                            }
                            Self.lerpRows(
                                m + (ix + first - lo), m + (ix + first + 1 - lo), wx,
                                count: last - first, into: out + first)
                            for i in last..<count {
                                let x0 = min(max(ix + i, lo), hi) - lo,
                                    x1 = min(max(ix + i + 1, lo), hi) - lo
                                out[i] = Self.lerp(m[x0], m[x1], wx)
                            }
                            return
                        }
                        for i in 0..<count {
                            let ix = Int(truncatingIfNeeded: u >> 32)
                            let wx = UInt32(truncatingIfNeeded: (u >> 24) & 0xFF)
                            let x0 = min(max(ix, lo), hi) - lo, x1 = min(max(ix + 1, lo), hi) - lo
                            out[i] = Self.lerp(m[x0], m[x1], wx)
                            u &+= du
                        }
                    }
                    return
                }
                for i in 0..<count {
                    let ix = Int(truncatingIfNeeded: u >> 32), iy = Int(truncatingIfNeeded: v >> 32)
                    let wx = UInt32(truncatingIfNeeded: (u >> 24) & 0xFF)
                    let wy = UInt32(truncatingIfNeeded: (v >> 24) & 0xFF)
                    let x0 = min(max(ix, 0), maxX), x1 = min(max(ix + 1, 0), maxX)
                    let r0 = min(max(iy, 0), maxY) * w, r1 = min(max(iy + 1, 0), maxY) * w
                    let top = Self.lerp(src[r0 + x0], src[r0 + x1], wx)
                    let bottom = Self.lerp(src[r1 + x0], src[r1 + x1], wx)
                    out[i] = Self.lerp(top, bottom, wy)
                    u &+= du; v &+= dv
                }
            }
        }
    }

    /// `out[i] = lerp(p[i], q[i], w)` for `count` pixels, written as one loop over bytes
    /// in 16-bit arithmetic so that the compiler vectorises it with 16-bit multiplies (the
    /// same per-channel arithmetic as ``lerp(_:_:_:)``: p·(256 − w) + q·w + 128 fits in
    /// 16 bits, so the results are identical). `out` may be `p` or `q`.
    @inline(__always)
    static func lerpRows(
        _ p: UnsafePointer<UInt32>, _ q: UnsafePointer<UInt32>, _ w: UInt32,
        count: Int, into out: UnsafeMutablePointer<UInt32>
    ) {
        if w == 0 {
            if UnsafePointer(out) != p { out.update(from: p, count: count) }
            return
        }
        let weight = UInt16(w), inverse = UInt16(256 - w)
        let (pb, qb, ob) = (UnsafeRawPointer(p), UnsafeRawPointer(q), UnsafeMutableRawPointer(out))
        for i in 0..<(count * 4) {
            let mixed =
                UInt16(pb.load(fromByteOffset: i, as: UInt8.self)) &* inverse
                &+ UInt16(qb.load(fromByteOffset: i, as: UInt8.self)) &* weight &+ 128
            ob.storeBytes(
                of: UInt8(truncatingIfNeeded: mixed >> 8), toByteOffset: i, as: UInt8.self)
        }
    }

    /// p + (q − p)·w/256 per channel, rounded (w in 0…255; branch-free).
    @inline(__always)
    static func lerp(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        let iw = 256 &- w
        let rb = ((p & 0x00FF_00FF) &* iw &+ (q & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
        let ag = (((p >> 8) & 0x00FF_00FF) &* iw &+ ((q >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080)
        return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
    }
}
