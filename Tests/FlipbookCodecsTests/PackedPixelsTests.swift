import FlipbookGeometry
import FlipbookRaster
import Testing
@testable import FlipbookCodecs

/// A GIF frame's rectangle of whole rows is read from the frame itself, each pixel packed
/// as it is read (``PackedPixels``); any other rectangle is packed into an array first.
/// Both must give the encoder the same values, so the same file.
@Suite struct PackedPixelsTests {
    /// Premultiplied pixels of every kind: opaque, transparent, and translucent ones on
    /// both sides of the alpha-128 line, from a fixed pseudo-random sequence.
    static func mixedFrame(width: Int, height: Int, seed: UInt32) -> Pixmap {
        var state = seed
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        var data = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let kind = next() % 4
            let a: UInt8 = kind == 0 ? 255 : kind == 1 ? 0 : next()
            for c in 0..<3 { data[i * 4 + c] = a == 0 ? 0 : UInt8(Int(next()) * Int(a) / 255) }
            data[i * 4 + 3] = a
        }
        return Pixmap(width: width, height: height, premultipliedRGBA: data)
    }

    static let settings: [(background: Color?, matte: Color?)] = [
        (Color(red: 0.2, green: 0.4, blue: 0.9), nil),
        (nil, nil),
        (nil, Color(red: 1, green: 1, blue: 1)),
    ]

    @Test(arguments: 0..<3)
    func wholeRowsReadInPlaceEqualThePackedArray(_ setting: Int) {
        let (background, matte) = Self.settings[setting]
        let frame = Self.mixedFrame(width: 37, height: 23, seed: 7)
        let encoder = GIFFrameEncoder(
            width: 37, height: 23, background: background,
            options: GIFEncodingOptions(matte: matte))
        for rows in [0..<23, 5..<6, 3..<19] {
            let rect = PixelBounds(x0: 0, y0: rows.lowerBound, x1: 37, y1: rows.upperBound)
            let array = encoder.packedPixels(frame, rect)
            let inPlace = encoder.withPixels(frame, rect, packed: nil) { Array($0) }
            #expect(inPlace == array)
        }
    }

    /// A frame whose change spans whole rows, prepared as the exporter does (read in
    /// place) and from the same rectangle packed into an array: the same prepared frame.
    @Test(arguments: 0..<3)
    func preparedFramesMatchTheArrayPath(_ setting: Int) throws {
        let (background, matte) = Self.settings[setting]
        let (w, h) = (40, 30)
        // Rows 4…20 go from transparent to a band of mixed pixels, across the whole width
        // (no visible pixel vanishes, which on a transparent canvas the writer handles).
        var previous = GIFTestSupport.gradient(width: w, height: h)
        previous.data.replaceSubrange(
            (4 * w * 4)..<(21 * w * 4), with: repeatElement(0, count: 17 * w * 4))
        var band = Self.mixedFrame(width: w, height: 17, seed: 11)
        for x in [0, w - 1] {
            band.data.replaceSubrange((x * 4)..<(x * 4 + 4), with: [200, 0, 0, 255])
        }
        var frame = previous
        frame.data.replaceSubrange((4 * w * 4)..<(21 * w * 4), with: band.data)
        for quality in [100, 90, 40] {
            let encoder = GIFFrameEncoder(
                width: w, height: h, background: background,
                options: GIFEncodingOptions(quality: quality, matte: matte))
            guard case .changed(let changed) = encoder.changes(frame, previous: previous) else {
                Issue.record("the frame changed")
                continue
            }
            #expect(changed.pixels == nil, "whole rows are read in place")
            let packed = encoder.packedPixels(frame, changed.rect)
            let viaArray = encoder.prepare(
                frame,
                .changed(
                    GIFFrameChanges.Changed(
                        rect: changed.rect, pixels: packed, unchanged: changed.unchanged,
                        unchangedCount: changed.unchangedCount)))
            let inPlace = encoder.prepare(frame, previous: previous)
            #expect(inPlace.image == viaArray.image)
            #expect(inPlace.palette == viaArray.palette)
            #expect(inPlace.transparentIndex == viaArray.transparentIndex)
            #expect(
                (inPlace.left, inPlace.top, inPlace.width, inPlace.height)
                    == (viaArray.left, viaArray.top, viaArray.width, viaArray.height))
        }
    }
}
