/// A 2-D affine transform in CGAffineTransform's convention:
/// x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Sendable, Hashable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    @inlinable
    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    @inlinable
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `degrees`; positive angles turn from +x toward +y (clockwise on screen).
    public static func rotation(degrees: Double) -> AffineTransform {
        let r = degrees * .pi / 180
        let (s, co) = (sin(r), cos(r))
        return AffineTransform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// `self` applied first, then `other` (CGAffineTransformConcat(self, other)).
    /// Inlinable, as the other small members here: transforms are concatenated per layer
    /// and per drawing, and a call across modules cost more than the arithmetic.
    @inlinable
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    @inlinable
    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    @inlinable
    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or nil when the transform collapses the plane.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The most the transform lengthens any distance (the linear part's largest singular
    /// value): a path drawn through it is accurate to e device units when it is accurate
    /// to e / maximumStretch in its own units.
    public var maximumStretch: Double {
        let sum = a * a + b * b + c * c + d * d
        let det = determinant
        return ((sum + max(sum * sum - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
    }

    /// True when the transform only scales (possibly negatively) and translates:
    /// no rotation and no skew, so axis-aligned rectangles stay axis-aligned.
    @inlinable
    public var isAxisAligned: Bool { b == 0 && c == 0 }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
