import FlipbookGeometry

/// An 8-bit coverage mask on a pixmap's pixel grid: clip paths, layer masks, group alpha.
///
/// Rules:
/// - 0 is "nothing passes", 255 "everything passes"; combining masks multiplies
///   coverages with exact rounding (div255).
/// - `bounds` is always the tight box of the non-zero pixels, so every user can skip the
///   rest of the grid.
public struct Mask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width * height` bytes. Any change clears ``openBox``.
    public internal(set) var data: [UInt8] { didSet { openBox = .empty } }
    /// Tight box of the non-zero coverage (empty when there is none).
    public internal(set) var bounds: PixelBounds
    /// A box whose every pixel is 255 (the clip passes everything there), or empty when
    /// none is known: set for an axis-aligned rectangle (a layer's bounds, the common clip)
    /// so that ``ClipPainter`` hands rows inside it on untouched.
    public internal(set) var openBox = PixelBounds.empty

    /// Equal coverage (``openBox`` is a derived hint, not compared).
    public static func == (a: Mask, b: Mask) -> Bool {
        a.width == b.width && a.height == b.height && a.bounds == b.bounds && a.data == b.data
    }

    /// An all-zero mask.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative mask size")
        self.width = width
        self.height = height
        data = [UInt8](repeating: 0, count: width * height)
        bounds = .empty
    }

    /// The coverage of `path` mapped through `transform`, anti-aliased.
    public static func path(_ path: Path, transform: AffineTransform, rule: FillRule,
                            width: Int, height: Int) -> Mask {
        var mask = Mask(width: width, height: height)
        let box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        guard let area = Rasterizer.deviceBounds(of: path, transform: transform, within: box) else {
            return mask
        }
        var painter = MaskPainter(width: width)
        mask.data.withUnsafeMutableBufferPointer { buf in
            painter.data = buf.baseAddress!
            Rasterizer.rasterize(path, transform: transform, rule: rule, area: area,
                                 clip: nil, painter: &painter)
        }
        mask.bounds = painter.written
        mask.openBox = Self.interior(ofRect: path, transform: transform).intersection(mask.bounds)
        return mask
    }

    /// The whole pixels inside `path` when it is an axis-aligned rectangle on the device
    /// (else empty): the rasterizer gives them exactly 255, since every row between the
    /// rectangle's first and last whole row gets a cover of exactly ±1 from its left edge
    /// (`CoverageCacheTests` checks the bytes).
    static func interior(ofRect path: Path, transform t: AffineTransform) -> PixelBounds {
        guard t.b == 0, t.c == 0, path.elements.count == 5, case .close = path.elements[4],
              case .move(let p0) = path.elements[0], case .line(let p1) = path.elements[1],
              case .line(let p2) = path.elements[2], case .line(let p3) = path.elements[3] else { return .empty }
        let q = [p0, p1, p2, p3].map { t.apply($0) }
        let xs = Set(q.map(\.x)), ys = Set(q.map(\.y))
        // Four corners on two x values and two y values, each edge along one axis.
        guard xs.count == 2, ys.count == 2, (0..<4).allSatisfy({ q[$0].x == q[($0 + 1) % 4].x
                                                                   || q[$0].y == q[($0 + 1) % 4].y }),
              let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              abs(minX) < 1e9, abs(maxX) < 1e9, abs(minY) < 1e9, abs(maxY) < 1e9 else { return .empty }
        let box = PixelBounds(x0: Int(minX.rounded(.up)), y0: Int(minY.rounded(.up)),
                              x1: Int(maxX.rounded(.down)), y1: Int(maxY.rounded(.down)))
        return box.isEmpty ? .empty : box
    }

    /// The alpha channel of a pixmap.
    public init(alphaOf pixmap: Pixmap) {
        self.init(width: pixmap.width, height: pixmap.height)
        let n = width * height
        pixmap.data.withUnsafeBufferPointer { src in
            data.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n { dst[i] = src[4 * i + 3] }
            }
        }
        bounds = tightBounds(within: PixelBounds(x0: 0, y0: 0, x1: width, y1: height))
    }

    /// Multiplies this mask by `other` (same size) pixel by pixel.
    public mutating func intersect(_ other: Mask) {
        precondition(other.width == width && other.height == height, "mask sizes differ")
        let keep = bounds.intersection(other.bounds)
        let w = width
        let old = bounds
        let open = openBox.intersection(other.openBox)   // 255 · 255 / 255 = 255
        data.withUnsafeMutableBufferPointer { dst in
            other.data.withUnsafeBufferPointer { src in
                for y in old.y0..<old.y1 {
                    let row = y * w
                    if y < keep.y0 || y >= keep.y1 {
                        for x in old.x0..<old.x1 { dst[row + x] = 0 }
                        continue
                    }
                    for x in old.x0..<old.x1 {
                        if x < keep.x0 || x >= keep.x1 {
                            dst[row + x] = 0
                        } else {
                            let v = UInt32(dst[row + x]) * UInt32(src[row + x])
                            dst[row + x] = UInt8(Compositing.div255(v))
                        }
                    }
                }
            }
        }
        bounds = tightBounds(within: keep)
        openBox = open
    }

    /// Multiplies every coverage by `factor` (clamped to 0…1).
    public mutating func scale(by factor: Double) {
        let f = factor.isNaN ? 0 : min(max(factor, 0), 1)
        if f >= 1 { return }
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8((Double(v) * f).rounded()) }
        let b = bounds, w = width
        data.withUnsafeMutableBufferPointer { dst in
            for y in b.y0..<b.y1 {
                for x in b.x0..<b.x1 { dst[y * w + x] = table[Int(dst[y * w + x])] }
            }
        }
        bounds = tightBounds(within: b)
    }

    /// Coverage at a pixel; 0 outside the mask.
    public func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return data[y * width + x]
    }

    func tightBounds(within box: PixelBounds) -> PixelBounds {
        var result = PixelBounds.empty
        guard !box.isEmpty else { return result }
        data.withUnsafeBufferPointer { d in
            for y in box.y0..<box.y1 {
                let row = y * width
                var x = box.x0
                while x < box.x1 && d[row + x] == 0 { x += 1 }
                if x == box.x1 { continue }
                var end = box.x1
                while d[row + end - 1] == 0 { end -= 1 }
                result = result.union(PixelBounds(x0: x, y0: y, x1: end, y1: y + 1))
            }
        }
        return result
    }
}
