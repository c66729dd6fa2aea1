/// A half-open box of whole pixels, [x0, x1) × [y0, y1), used to bound raster work.
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
        let r = PixelBounds(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }

    public func union(_ o: PixelBounds) -> PixelBounds {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelBounds(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
}
