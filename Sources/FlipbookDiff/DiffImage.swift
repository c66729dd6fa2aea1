import FlipbookRaster

/// The picture of a difference: expected | highlighted difference | actual, side by side,
/// separated by ``gap``-pixel transparent columns.
///
/// The middle panel follows pixelmatch's diff output: pixels that are the same show the
/// expected frame's brightness (over white) faded to 10 % on white; differing pixels are
/// red (255, 0, 0); anti-aliasing pixels yellow (255, 255, 0); ignored regions a pale blue
/// wash over the faded frame.
public enum DiffImage {
    /// Transparent columns between the panels.
    public static let gap = 4

    /// Composes the three panels. `diff` must have been computed with `keepClasses`
    /// (`precondition`).
    public static func sideBySide(expected: Pixmap, actual: Pixmap, diff: FrameDiff) -> Pixmap {
        let w = expected.width, h = expected.height
        precondition(diff.classes.count == w * h, "the diff was computed without keepClasses")
        var out = Pixmap(width: 3 * w + 2 * gap, height: h)
        out.draw(expected, x: 0, y: 0)
        out.draw(highlight(expected: expected, diff: diff), x: w + gap, y: 0)
        out.draw(actual, x: 2 * (w + gap), y: 0)
        return out
    }

    /// The middle panel alone.
    public static func highlight(expected: Pixmap, diff: FrameDiff) -> Pixmap {
        let w = expected.width, h = expected.height
        var out = [UInt8](repeating: 255, count: w * h * 4)
        expected.data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(w * h) {
                    let o = i * 4
                    switch PixelClass(rawValue: diff.classes[i]) ?? .same {
                    case .differing:
                        dst[o] = 255; dst[o + 1] = 0; dst[o + 2] = 0
                    case .antiAliased:
                        dst[o] = 255; dst[o + 1] = 255; dst[o + 2] = 0
                    case .same, .ignored:
                        let word =
                            UInt32(src[o]) | UInt32(src[o + 1]) << 8 | UInt32(src[o + 2]) << 16
                            | UInt32(src[o + 3]) << 24
                        let faded = UInt8(
                            max(
                                0,
                                min(255, 255 + (ColorDelta.brightnessOverWhite(word) - 255) * 0.1)))
                        dst[o] = faded; dst[o + 1] = faded; dst[o + 2] = faded
                        if diff.classes[i] == PixelClass.ignored.rawValue {
                            dst[o] = UInt8(Int(faded) * 3 / 4);
                            dst[o + 1] = UInt8(Int(faded) * 7 / 8)
                        }
                    }
                }
            }
        }
        return Pixmap(width: w, height: h, premultipliedRGBA: out)
    }
}
