import Testing
import FlipbookRaster

@testable import FlipbookCodecs

/// The lossy WebP's per-frame choice: the fidelity measures it uses (against closed-form
/// values) and the choice itself on content where the answer is known in advance.
@Suite struct WebPLossyChoiceTests {
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> [UInt8])
        -> OverWhiteImage
    {
        var rgba: [UInt8] = []
        for y in 0..<height { for x in 0..<width { rgba += color(x, y) + [255] } }
        return OverWhiteImage(width: width, height: height, straightRGBA: rgba)
    }

    /// Oklab puts white at L = 1 and black at L = 0, both with a = b = 0, so they are 1
    /// apart; equal pixels are 0 apart.
    @Test func oklabDistanceOfBlackAndWhiteIsOne() {
        let white = Self.image(1, 1) { _, _ in [255, 255, 255] }
        let black = Self.image(1, 1) { _, _ in [0, 0, 0] }
        #expect(abs(FrameFidelity.oklabDistance(white, black, pixel: 0) - 1) < 0.001)
        #expect(FrameFidelity.oklabDistance(white, white, pixel: 0) == 0)
    }

    /// Two flat images, 100 and 110 in every channel: no variance, so SSIM is the
    /// luminance term (2·100·110 + C1) / (100² + 110² + C1) at every window centre, and
    /// only centres 5 px from the edge are written.
    @Test func ssimOfFlatImagesIsTheLuminanceTerm() {
        let a = Self.image(20, 16) { _, _ in [100, 100, 100] }
        let b = Self.image(20, 16) { _, _ in [110, 110, 110] }
        var map = [Float](repeating: -1, count: 20 * 16)
        FrameFidelity.ssim(
            a, b, region: PixelBounds(x0: 0, y0: 0, x1: 20, y1: 16), into: &map)
        let c1 = 6.5025
        let expected = Float((2 * 100 * 110 + c1) / (100 * 100 + 110 * 110 + c1))
        // Float sums of squares near 10⁴ over 121 taps: within 1e-4.
        #expect(abs(map[8 * 20 + 10] - expected) < 1e-4)
        #expect(map[0] == -1 && map[4 * 20 + 4] == -1 && map[5 * 20 + 5] != -1)
        map = [Float](repeating: -1, count: 20 * 16)
        FrameFidelity.ssim(a, a, region: PixelBounds(x0: 0, y0: 0, x1: 20, y1: 16), into: &map)
        #expect(abs(map[8 * 20 + 10] - 1) < 1e-6)
    }

    /// Each frame's mode, nil for a frame identical to the one before.
    static func choices(_ frames: [Pixmap]) throws -> [WebPFrameMode?] {
        let options = WebPEncodingOptions()
        let chooser = try WebPLossyChooser(
            width: frames[0].width, height: frames[0].height, options: options)
        return try frames.indices.map { i in
            try chooser.choose(
                frames[i],
                WebPFrameCandidates(
                    frames[i], previous: i > 0 ? frames[i - 1] : nil, options: options)
            )?.mode
        }
    }

    /// Few colours: our GIF draws them exactly, so VP8 (never exact) cannot reach its
    /// floor and every frame is near-lossless.
    @Test func fewColoursStayNearLossless() throws {
        let frames = (0..<4).map { k in
            Pixmap(
                width: 48, height: 32,
                straightRGBA: (0..<(48 * 32)).flatMap { p -> [UInt8] in
                    (p % 48 + k) % 6 < 3 ? [230, 20, 40, 255] : [20, 40, 230, 255]
                })
        }
        #expect(try Self.choices(frames) == Array(repeating: .nearLossless, count: 4))
    }
}
