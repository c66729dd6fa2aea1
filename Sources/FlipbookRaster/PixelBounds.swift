/// A half-open box of whole pixels, [x0, x1) × [y0, y1): the one pixel-rectangle type of the
/// package (raster work areas, a GIF frame's changed rectangle, a diff's bounding box and
/// ignored regions).
///
/// Rules: any box with x0 >= x1 or y0 >= y1 is empty; the union with an empty box is the
/// other box; intersections of disjoint boxes are empty.
public struct PixelBounds: Sendable, Hashable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    public static let empty = PixelBounds(x0: 0, y0: 0, x1: 0, y1: 0)

    public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    public var width: Int { max(0, x1 - x0) }
    public var height: Int { max(0, y1 - y0) }

    public func intersection(_ o: PixelBounds) -> PixelBounds {
        let r = PixelBounds(
            x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }

    public func union(_ o: PixelBounds) -> PixelBounds {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelBounds(
            x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
}

extension PixelBounds: Codable, CustomStringConvertible {
    /// Columns x..<x+width, rows y..<y+height.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x0: x, y0: y, x1: x + width, y1: y + height)
    }

    /// The left column (``x0``).
    public var x: Int { x0 }
    /// The top row (``y0``).
    public var y: Int { y0 }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x0 && px < x1 && py >= y0 && py < y1
    }

    /// "x,y w×h", as reports print a bounding box.
    public var description: String { "\(x),\(y) \(width)×\(height)" }

    private enum CodingKeys: String, CodingKey { case x, y, width, height }

    /// Reports and options write a rectangle as {x, y, width, height}.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try c.decode(Int.self, forKey: .x), y: try c.decode(Int.self, forKey: .y),
            width: try c.decode(Int.self, forKey: .width),
            height: try c.decode(Int.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
    }
}
