import FlipbookRaster
import Testing

@testable import FlipbookCodecs

/// The APNG writer's choice of stream for one frame, checked against what its rules promise:
/// the stream inflates (zlib's own decoder) and unfilters (the PNG specification's
/// reconstruction) to the frame's pixels, and the default effort's wider search for frames
/// that deflate well never writes more than the narrow rule it extends (the level-6 winner
/// deflated again at level 12 and reblocked), which is rebuilt here from the `fast`
/// effort's stream.
@Suite struct APNGFrameCompressionTests {
    /// Straight RGBA frames: a flat panel with rounded, soft-edged cards and a stripe of
    /// text-like marks (deflates far beyond 32:1), a vertical gradient, noise, and flat
    /// rows with a row of noise every 16 (between 16:1 and 32:1: ranked again, no more).
    static let frames: [(name: String, width: Int, height: Int, rgba: [UInt8])] = {
        let width = 160, height = 120
        var panel: [UInt8] = []
        var gradient: [UInt8] = []
        var noise: [UInt8] = []
        var sparse: [UInt8] = []
        var seed: UInt32 = 5
        for y in 0..<height {
            for x in 0..<width {
                var pixel: [UInt8] = [242, 242, 247, 255]
                let cx = Double(min(max(x, 20), 140)), cy = Double(min(max(y, 30), 50))
                let (ex, ey) = (Double(x) - cx, Double(y) - cy)
                let d = (ex * ex + ey * ey).squareRoot()
                if d < 12 {
                    let t = max(0, min(1, 11.5 - d))
                    pixel = [0, 1, 2].map { UInt8(Double(pixel[$0]) * (1 - t) + 255 * t) } + [255]
                }
                if (70..<78).contains(y), (x / 3) % 5 < 3, x > 12, x < 148 {
                    pixel = [40, 40, 60, 255]
                }
                panel += pixel
                gradient += [UInt8(y * 2), UInt8(255 - y), UInt8(x), 255]
                seed = seed &* 1_103_515_245 &+ 12345
                let random = [
                    UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8), 9,
                    255,
                ]
                noise += random
                sparse += y % 16 == 0 ? random : [200, 210, UInt8(x), 255]
            }
        }
        return [
            ("panel", width, height, panel), ("gradient", width, height, gradient),
            ("noise", width, height, noise), ("sparse", width, height, sparse),
        ]
    }()

    @Test(arguments: [0, 1, 2, 3])
    func theWiderSearchNeverWritesMoreThanTheNarrowRule(frame index: Int) throws {
        let frame = Self.frames[index]
        let work = APNGFrameWork(
            rect: PixelBounds(x0: 0, y0: 0, x1: frame.width, y1: frame.height),
            source: frame.rgba, over: nil)
        let rowBytes = (frame.width * 4 + 1) * frame.height
        let fast = try APNGFrameEncoder.compress(work, mode: .rgba, effort: .fast)
        let winner = try #require(APNGDeflateTests.inflate(fast.data, count: rowBytes))
        let narrow = DeflateReblocker.reblock(
            try LibDeflate(level: APNGFrameEncoder.smallLevel).compress(winner))
        let written = try APNGFrameEncoder.compress(work, mode: .rgba, effort: .default)
        let rows = try #require(APNGDeflateTests.inflate(written.data, count: rowBytes))
        #expect(
            PNGRowFilterStrategyTests.unfilter(rows, stride: frame.width * 4, bpp: 4)
                == frame.rgba, "\(frame.name)")
        #expect(written.data.count <= narrow.count, "\(frame.name)")
        // Each frame takes the path it is made for; noise must take the narrow one (the same
        // bytes).
        let looksFurther = fast.data.count * APNGFrameEncoder.looksFurther <= rowBytes
        let ranksAgain = fast.data.count * APNGFrameEncoder.ranksAgain <= rowBytes
        #expect(
            looksFurther == (frame.name == "panel" || frame.name == "gradient"),
            "\(frame.name): \(fast.data.count) B")
        #expect(ranksAgain == (frame.name != "noise"), "\(frame.name): \(fast.data.count) B")
        if !ranksAgain { #expect(written.data == narrow, "\(frame.name)") }
        // Filtering the candidates again instead of keeping their rows changes no byte.
        let refiltered = try APNGFrameEncoder.compress(
            work, mode: .rgba, effort: .default, keptRowsBudget: 0)
        #expect(refiltered.data == written.data && refiltered.blendOver == written.blendOver)
    }
}
