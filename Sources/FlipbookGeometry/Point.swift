/// A point or vector in a 2-D space whose y axis grows downward (UIKit's convention).
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(0, 0)

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }

    /// Euclidean length of the vector from the origin to this point.
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// A width and height.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(0, 0)
}

/// An axis-aligned rectangle given by its origin (top-left for positive sizes) and size.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }

    public static let zero = Rect(0, 0, 0, 0)

    public var origin: Point { Point(x, y) }
    public var size: Size { Size(width, height) }
    public var minX: Double { min(x, x + width) }
    public var minY: Double { min(y, y + height) }
    public var maxX: Double { max(x, x + width) }
    public var maxY: Double { max(y, y + height) }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle with non-negative width and height covering the same area.
    public var standardized: Rect { Rect(minX, minY, abs(width), abs(height)) }
}
