#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Björn Ottosson's Oklab perceptual color space (2020), used for palette building and
/// nearest-color matching: Euclidean distance in Oklab tracks perceived difference far
/// better than (weighted) RGB, so gradients keep their smoothness and darks get their share
/// of palette entries.
///
/// sRGB (8-bit, gamma-encoded) → linear via the sRGB transfer function (table of 256), →
/// LMS through Ottosson's M1, cube root, → Lab through M2. The inverse runs the other way
/// and clamps to the sRGB gamut. L is 0…1; a, b roughly −0.4…0.4.
public enum Oklab {
    public struct Lab: Sendable, Equatable {
        public var l: Float, a: Float, b: Float
        public init(l: Float, a: Float, b: Float) { self.l = l; self.a = a; self.b = b }
        @inline(__always) public func distanceSquared(_ o: Lab) -> Float {
            let dl = l - o.l, da = a - o.a, db = b - o.b
            return dl * dl + da * da + db * db
        }
    }

    /// sRGB 8-bit → linear light.
    static let linearTable: [Float] = (0..<256).map { i in
        let c = Double(i) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// Oklab of an 8-bit sRGB color.
    @inline(__always) public static func fromSRGB(_ r: Int, _ g: Int, _ b: Int) -> Lab {
        linearTable.withUnsafeBufferPointer { t in fromLinear(t[r], t[g], t[b]) }
    }

    /// Oklab of a packed 0x00BBGGRR color.
    @inline(__always) public static func fromPacked(_ p: UInt32) -> Lab {
        fromSRGB(Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF))
    }

    public static func fromLinear(_ r: Float, _ g: Float, _ b: Float) -> Lab {
        let l = cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return Lab(
            l: 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            a: 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            b: 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// Linear sRGB of an Oklab color (not clamped).
    public static func toLinear(_ c: Lab) -> (r: Float, g: Float, b: Float) {
        let l_ = c.l + 0.3963377774 * c.a + 0.2158037573 * c.b
        let m_ = c.l - 0.1055613458 * c.a - 0.0638541728 * c.b
        let s_ = c.l - 0.0894841775 * c.a - 1.2914855480 * c.b
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        return (
            4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
        )
    }

    /// The nearest 8-bit sRGB color (gamut-clamped), packed 0x00BBGGRR.
    public static func toPacked(_ c: Lab) -> UInt32 {
        let (r, g, b) = toLinear(c)
        @inline(__always) func encode(_ v: Float) -> UInt32 {
            let x = Double(min(1, max(0, v)))
            let e = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
            return UInt32((e * 255).rounded())
        }
        return encode(r) | encode(g) << 8 | encode(b) << 16
    }
}
