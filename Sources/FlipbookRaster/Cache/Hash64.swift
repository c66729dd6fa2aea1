import FlipbookGeometry

/// A 64-bit multiply-xorshift hash of numbers' bit patterns (for lookups only: never
/// part of any output).
struct Hash64 {
    private(set) var value: UInt64

    init(value: UInt64 = 0x9E37_79B9_7F4A_7C15) { self.value = value }

    mutating func add(_ v: Double) { add(v.bitPattern) }

    /// Every element's kind and coordinates, hashed in two independent lanes (x with the
    /// element's kind, and y) that are joined at the end: one lane made a chain of three
    /// dependent multiplies per line element, and hashing paths of thousands of elements
    /// (stroke outlines, for the caches' keys) was 3 % of a stroked Lottie file's time.
    mutating func add(_ path: Path) {
        var xs = Hash64(), ys = Hash64(value: 0x94D0_49BB_1331_11EB)
        for e in path.elements {
            switch e {
            case .move(let p): xs.add(p.x.bitPattern &+ 3); ys.add(p.y)
            case .line(let p): xs.add(p.x.bitPattern &+ 4); ys.add(p.y)
            case .quad(let c, let p):
                xs.add(c.x.bitPattern &+ 5); ys.add(c.y); xs.add(p.x); ys.add(p.y)
            case .cubic(let c1, let c2, let p):
                xs.add(c1.x.bitPattern &+ 6); ys.add(c1.y)
                xs.add(c2.x); ys.add(c2.y); xs.add(p.x); ys.add(p.y)
            case .close: xs.add(UInt64(7))
            }
        }
        add(xs.value); add(ys.value)
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
