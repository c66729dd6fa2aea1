import FlipbookGeometry

/// A 64-bit multiply-xorshift hash of numbers' bit patterns (for lookups only: never
/// part of any output).
struct Hash64 {
    private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func add(_ v: Double) { add(v.bitPattern) }

    /// Every element's kind and coordinates.
    mutating func add(_ path: Path) {
        for e in path.elements {
            switch e {
            case .move(let p): add(UInt64(3)); add(p.x); add(p.y)
            case .line(let p): add(UInt64(4)); add(p.x); add(p.y)
            case .quad(let c, let p): add(UInt64(5)); add(c.x); add(c.y); add(p.x); add(p.y)
            case .cubic(let c1, let c2, let p):
                add(UInt64(6)); add(c1.x); add(c1.y); add(c2.x); add(c2.y); add(p.x); add(p.y)
            case .close: add(UInt64(7))
            }
        }
    }

    /// The transform's six numbers.
    mutating func add(_ t: AffineTransform) {
        add(t.a); add(t.b); add(t.c); add(t.d); add(t.tx); add(t.ty)
    }

    /// The box's four edges.
    mutating func add(_ b: PixelBounds) {
        add(UInt64(bitPattern: Int64(b.x0))); add(UInt64(bitPattern: Int64(b.y0)))
        add(UInt64(bitPattern: Int64(b.x1))); add(UInt64(bitPattern: Int64(b.y1)))
    }

    mutating func add(_ v: UInt64) {
        value = (value ^ v) &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 31
    }
}
