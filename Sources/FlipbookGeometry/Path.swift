/// One segment command of a ``Path``.
public enum PathElement: Sendable, Hashable {
    case move(Point)
    case line(Point)
    /// Quadratic Bézier: control point, end point.
    case quad(Point, Point)
    /// Cubic Bézier: two control points, end point.
    case cubic(Point, Point, Point)
    case close
}

/// A vector outline made of subpaths: the shape every fill, stroke, clip and mask draws.
///
/// Arcs and ellipses are stored as cubic Béziers (see `PathBuilders.swift`), so the
/// rasterizer needs to flatten only lines, quadratics and cubics.
public struct Path: Sendable, Hashable {
    public var elements: [PathElement]

    public init(_ elements: [PathElement] = []) {
        self.elements = elements
    }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) { elements.append(.move(p)) }
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    public mutating func quad(to p: Point, control c: Point) { elements.append(.quad(c, p)) }
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.append(.cubic(c1, c2, p))
    }
    public mutating func close() { elements.append(.close) }

    /// The path with every point mapped through `t`.
    public func applying(_ t: AffineTransform) -> Path {
        Path(
            elements.map { e in
                switch e {
                case .move(let p): .move(t.apply(p))
                case .line(let p): .line(t.apply(p))
                case .quad(let c, let p): .quad(t.apply(c), t.apply(p))
                case .cubic(let c1, let c2, let p): .cubic(t.apply(c1), t.apply(c2), t.apply(p))
                case .close: .close
                }
            })
    }

    /// The bounding box of every point and control point (a cheap superset of the
    /// exact bounds), or nil for a path with no points.
    public var controlBounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); minY = min(minY, p.y)
            maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(minX, minY, maxX - minX, maxY - minY)
    }
}
