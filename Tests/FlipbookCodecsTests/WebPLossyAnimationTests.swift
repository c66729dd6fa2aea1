import Foundation
import FlipbookRaster
import Testing

@testable import FlipbookCodecs

/// The lossy WebP as written (``WebPLossyAnimation``): a player draws exactly the screen the
/// chooser judged, frame by frame, whatever mode and blending each frame took. Decoded by
/// libwebp's animation decoder (libwebpdemux), which crops, blends and keeps the canvas
/// itself; the chooser's screen is its own bookkeeping of boxes and decoded stills.
@Suite struct WebPLossyAnimationTests {
    static let width = 64, height = 48

    /// Frame k: a slow ramp under a soft glow that drifts 3 px a frame and a bar that grows
    /// (VP8 and near-lossless boxes blended over the canvas); with `transparent`, on a clear
    /// canvas a badge whose soft shadow fades in (boxes of half-transparent pixels, drawn
    /// without blending). Frame 3 repeats frame 2.
    static func frame(_ k: Int, transparent: Bool) -> Pixmap {
        let k = k == 3 ? 2 : k
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var c = [40 + Double(y), 60 + Double(x) / 2, 120 + Double(x + y) / 3]
                var a = transparent ? 0.0 : 1.0
                let dx = Double(x) - 10 - 3 * Double(k), dy = Double(y) - 20
                let glow = max(0, 1 - (dx * dx + dy * dy) / 300)
                for i in 0..<3 { c[i] += (250 - c[i]) * glow }
                if transparent {
                    // A square badge with a shadow that grows darker frame by frame.
                    let inBadge = (20..<40).contains(x) && (12..<32).contains(y)
                    let inShadow = (18..<44).contains(x) && (10..<36).contains(y)
                    if inBadge {
                        c = [30, 110, 200]
                        a = 1
                    } else if inShadow {
                        c = [0, 0, 0]
                        a = 0.1 + 0.08 * Double(k)
                    } else {
                        a = glow
                    }
                }
                if (4..<(10 + 6 * k)).contains(x) && (38..<42).contains(y) {
                    c = [230, 60, 40]
                    a = 1
                }
                let i = 4 * (y * width + x)
                for j in 0..<3 { rgba[i + j] = UInt8(min(255, c[j]).rounded()) }
                rgba[i + 3] = UInt8((255 * a).rounded())
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: rgba)
    }

    @Test(arguments: [false, true])
    func playersShowWhatTheChooserJudged(transparent: Bool) throws {
        let frames = (0..<6).map { Self.frame($0, transparent: transparent) }
        // A low quality, so the GIF floor leaves VP8 room on the ramp and glow.
        let options = WebPEncodingOptions(quality: 60)
        let chooser = try WebPLossyChooser(width: Self.width, height: Self.height, options: options)
        let animation = try WebPLossyAnimation(width: Self.width, height: Self.height)
        var shown: [OverWhiteImage] = []
        var written: [WebPLossyFrame] = []
        for (k, frame) in frames.enumerated() {
            let candidates = try WebPFrameCandidates(
                frame, previous: k > 0 ? frames[k - 1] : nil, options: options)
            let chosen = try chooser.choose(frame, candidates)
            try animation.add(chosen, start: 100 * k)
            if let chosen {
                written.append(chosen)
                shown.append(chooser.shown)
            }
        }
        let decoded = try WebPAnimationReader.decode(animation.finish(end: 100 * frames.count))
        // Frame 3 repeats frame 2: five frames, the third shown twice as long.
        #expect(decoded.durations == [100, 100, 200, 100, 100])
        #expect(decoded.frames.count == shown.count)
        for (k, (player, judged)) in zip(decoded.frames, shown).enumerated() {
            let differing = zip(OverWhiteImage(player).rgb, judged.rgb).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(k): \(differing) channels differ")
        }
        // The paths this covers: VP8 boxes and blended ones (opaque), boxes drawn
        // without blending (transparent).
        if transparent {
            #expect(written.dropFirst().contains { !$0.blend })
        } else {
            #expect(written.contains { if case .vp8 = $0.mode { true } else { false } })
            #expect(written.contains { $0.blend })
        }
    }

    /// The floor is the GIF we write: the chooser's GIF screen is, frame by frame, what
    /// giflib decodes from GIFWriter's file of the same frames at the same quality, also
    /// where visible pixels vanish on a transparent canvas (the writer then disposes the
    /// frame before to background and redraws the cleared region). Exactly so on an opaque
    /// canvas and for a frame the next one does not clear; a frame whose successor clears
    /// the canvas the writer quantizes again over the cleared region, a look ahead the
    /// chooser does not take, and a few channels differ there (without the clearing, the
    /// vanished glow stays on the chooser's screen: 14–26 % of the channels differ; at most 2 %
    /// are allowed).
    @Test(arguments: [false, true])
    func theFloorIsTheGIFWeWrite(transparent: Bool) throws {
        let frames = (0..<6).map { Self.frame($0, transparent: transparent) }
        let options = WebPEncodingOptions(quality: 60)
        let chooser = try WebPLossyChooser(width: Self.width, height: Self.height, options: options)
        var floors: [OverWhiteImage] = []
        for (k, frame) in frames.enumerated() {
            let candidates = try WebPFrameCandidates(
                frame, previous: k > 0 ? frames[k - 1] : nil, options: options)
            if try chooser.choose(frame, candidates) != nil { floors.append(chooser.gifShown) }
        }
        let path = NSTemporaryDirectory() + "flipbook-floor-" + UUID().uuidString + ".gif"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFWriter(
            path: path, width: Self.width, height: Self.height, loopCount: 0, background: nil,
            options: GIFEncodingOptions(quality: options.quality))
        for frame in frames { try writer.append(frame, delayCentiseconds: 10) }
        try writer.finish()
        let decoded = try GIFReader.read(path: path)
        #expect(decoded.frames.count == floors.count)
        for (k, (gif, floor)) in zip(decoded.frames, floors).enumerated() {
            let differing = zip(OverWhiteImage(gif).rgb, floor.rgb).filter { $0 != $1 }.count
            let exact = !transparent || k == floors.count - 1
            #expect(
                differing <= (exact ? 0 : floor.rgb.count / 50),
                "frame \(k): \(differing) of \(floor.rgb.count) channels differ")
        }
    }

    /// A box blends only when every pixel that changed turned opaque: a pixel that turns
    /// half-transparent, over an opaque or a transparent one, makes the box replace the
    /// canvas. Boxes start at even offsets (ANMF stores them halved).
    @Test func blendingNeedsEveryChangedPixelOpaque() {
        func canvas(_ alpha: UInt8, changing pixel: Int? = nil, to changed: [UInt8] = [])
            -> Pixmap
        {
            var rgba = [UInt8](repeating: alpha, count: 8 * 6 * 4)
            if let pixel { rgba.replaceSubrange((4 * pixel)..<(4 * pixel + 4), with: changed) }
            return Pixmap(width: 8, height: 6, straightRGBA: rgba)
        }
        let opaque = canvas(255), clear = canvas(0)
        let turnsOpaque = WebPFrameCrop(
            canvas(255, changing: 3 * 8 + 5, to: [10, 20, 30, 255]), previous: opaque)
        #expect(turnsOpaque.blended != nil && turnsOpaque.changed == [29])
        #expect(turnsOpaque.box == PixelBounds(x0: 4, y0: 2, x1: 6, y1: 4))
        for (previous, frame) in [
            (opaque, canvas(255, changing: 29, to: [10, 20, 30, 128])),
            (clear, canvas(0, changing: 29, to: [10, 20, 30, 128])),
        ] {
            #expect(WebPFrameCrop(frame, previous: previous).blended == nil)
        }
        let first = WebPFrameCrop(opaque, previous: nil)
        #expect(first.blended == nil && first.box == PixelBounds(x0: 0, y0: 0, x1: 8, y1: 6))
        #expect(WebPFrameCrop(opaque, previous: opaque).changed.isEmpty)
    }

    /// VP8's qualities: ``WebPEncodingOptions/vp8Quality`` and three rungs 10 apart below
    /// it, none under 1, no duplicates, lowest first.
    @Test(arguments: [
        (90, [70, 80, 90, 100]), (100, [70, 80, 90, 100]), (50, [30, 40, 50, 60]),
        (5, [1, 5, 15]), (1, [1, 11]),
    ])
    func vp8Ladder(quality: Int, ladder: [Int]) {
        #expect(WebPEncodingOptions(quality: quality).vp8Ladder == ladder)
    }
}
