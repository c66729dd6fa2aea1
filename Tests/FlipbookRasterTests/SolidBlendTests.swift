import Testing

@testable import FlipbookRaster

/// The solid-color blends give the bytes of the scalar formula, `over(scale(color, c),
/// dst)`, and so the bytes of blending that color shaded pixel by pixel: the gradient
/// painter blends a span of one color as a solid one (``SpanShader/uniformRun(x:y:count:)``), which
/// must not change a pixel.
struct SolidBlendTests {
    static let colors: [UInt32] = [
        0xFF33_6699,  // opaque
        0x8020_4060,  // half transparent (premultiplied)
        0x0100_0000,  // nearly transparent
        0,
    ]

    /// Destination pixels of every kind: opaque, translucent, clear.
    static let destination: [UInt32] = (0..<67).map { i in
        let a = UInt32([255, 0, 128, 3, 200][i % 5])
        let c = a * UInt32(i % 7) / 7
        return a << 24 | c << 16 | (a - c) << 8 | c
    }

    /// Coverage with runs of 0 and 255 (whole groups of four among them) and values between.
    static let coverage: [UInt8] = (0..<67).map { i in
        switch i / 8 % 4 {
        case 0: return 0
        case 1: return 255
        default: return UInt8(truncatingIfNeeded: i * 37)
        }
    }

    @Test(arguments: colors)
    func perPixelCoverageIsTheScalarFormula(color: UInt32) {
        for count in [1, 3, 4, 5, 8, 31, 67] {
            var got = Array(Self.destination.prefix(count))
            Self.coverage.withUnsafeBufferPointer { cov in
                got.withUnsafeMutableBufferPointer {
                    Compositing.blendSolid(
                        $0.baseAddress!, count: count, color: color, coverage: cov.baseAddress!)
                }
            }
            let want = (0..<count).map { i in
                Compositing.over(
                    Compositing.scale(color, UInt32(Self.coverage[i])), Self.destination[i])
            }
            #expect(got == want, "count \(count)")
            // The same as the shaded blend of a span filled with the color.
            var shaded = Array(Self.destination.prefix(count))
            let source = [UInt32](repeating: color, count: count)
            Self.coverage.withUnsafeBufferPointer { cov in
                shaded.withUnsafeMutableBufferPointer {
                    Compositing.blend(
                        $0.baseAddress!, source, count: count, coverage: cov.baseAddress!)
                }
            }
            #expect(got == shaded, "count \(count)")
        }
    }

    @Test(arguments: colors)
    func constantCoverageIsTheShadedBlend(color: UInt32) {
        for count in [1, 3, 4, 5, 67] {
            for c in [1, 77, 128, 254, 255] as [UInt32] {
                var got = Array(Self.destination.prefix(count))
                got.withUnsafeMutableBufferPointer {
                    Compositing.blendSolid($0.baseAddress!, count: count, color: color, coverage: c)
                }
                var shaded = Array(Self.destination.prefix(count))
                let source = [UInt32](repeating: color, count: count)
                shaded.withUnsafeMutableBufferPointer {
                    Compositing.blend($0.baseAddress!, source, count: count, coverage: c)
                }
                #expect(got == shaded, "count \(count), coverage \(c)")
            }
        }
    }
}
