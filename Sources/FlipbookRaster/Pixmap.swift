import FlipbookGeometry

/// A rectangle of premultiplied RGBA pixels, 8 bits per channel, rows top to bottom,
/// no padding between rows (`data.count == width * height * 4`).
///
/// Premultiplied storage is what source-over compositing wants; encoders unpremultiply
/// when they write.
public struct Pixmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var data: [UInt8]
    /// When set, drawing (path fills and composited pixmaps) writes only these rows and
    /// leaves the others as they are; what lands on a row is exactly what it would be
    /// without the limit (the rasterizer's work area and spans do not depend on it).
    /// Frame reuse repaints the changed rows of a previous frame with it.
    public var writableRows: Range<Int>? = nil

    /// A transparent pixmap.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        self.width = width
        self.height = height
        self.data = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// A pixmap of one color, written once (not cleared first): the frame's background.
    public init(width: Int, height: Int, filledWith color: Color) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        self.width = width
        self.height = height
        let value = Gradient.premultiplied(color)
        let count = width * height
        self.data = [UInt8](unsafeUninitializedCapacity: count * 4) { bytes, initialized in
            bytes.withMemoryRebound(to: UInt32.self) { pixels in
                if let base = pixels.baseAddress {
                    Compositing.fill(base, count: count, color: value)
                }
            }
            initialized = count * 4
        }
    }

    /// Wraps premultiplied RGBA bytes.
    public init(width: Int, height: Int, premultipliedRGBA data: [UInt8]) {
        precondition(data.count == width * height * 4, "pixel data does not match the size")
        self.width = width
        self.height = height
        self.data = data
    }

    /// Builds a pixmap from straight-alpha RGBA bytes (as PNG stores them).
    public init(width: Int, height: Int, straightRGBA: [UInt8]) {
        precondition(straightRGBA.count == width * height * 4, "pixel data does not match the size")
        self.width = width
        self.height = height
        var out = straightRGBA
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
        self.data = out
    }

    /// The pixels as straight-alpha RGBA bytes (as PNG and GIF encoders want them).
    /// Fully transparent pixels become (0, 0, 0, 0).
    public func straightRGBA() -> [UInt8] {
        var out = data
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = UInt32(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a != 255 {
                    p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                    p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                    p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
                }
                i += 4
            }
        }
        return out
    }

    /// Premultiplied (r, g, b, a) of the pixel at column x, row y.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (data[i], data[i + 1], data[i + 2], data[i + 3])
    }
}
