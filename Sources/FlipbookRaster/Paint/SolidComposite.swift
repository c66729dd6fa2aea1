import FlipbookGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pixel that ``Pixmap/fill(_:transform:rule:paint:opacity:clip:)`` leaves where a
/// solid color covers a pixel completely: the same premultiplication, rounding and
/// source-over, for one pixel. Lets a renderer composite a full-canvas solid layer over a
/// uniform background once instead of once per pixel, with identical bytes.
package enum SolidComposite {
    /// `color` at `opacity` over the premultiplied pixel `below`.
    package static func over(_ color: Color, opacity: Double, onto below: UInt32) -> UInt32 {
        let op = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        guard op > 0, (op * 255).rounded() > 0 else { return below }
        let c = color.clamped
        let premul = Gradient.premultiplied(
            Color(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * op))
        guard premul >> 24 != 0 else { return below }
        return premul >> 24 == 255 ? premul : Compositing.over(premul, below)
    }

    /// The premultiplied pixel of a color (as ``Pixmap/init(width:height:filledWith:)``).
    package static func premultiplied(_ color: Color) -> UInt32 { Gradient.premultiplied(color) }
}

extension Pixmap {
    /// A pixmap of one premultiplied pixel value.
    package init(width: Int, height: Int, filledWithPremultiplied value: UInt32) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        let count = width * height
        self.init(
            width: width, height: height,
            premultipliedRGBA: [UInt8](unsafeUninitializedCapacity: count * 4) { bytes, n in
                // Every new frame starts here: sixteen pixels per store (the library's
                // `initialize(repeating:)` stores four) and the C library's memset for
                // transparent, the usual start (4 % of a 256×256 Lottie frame's time).
                if let base = bytes.baseAddress {
                    if value == 0 {
                        memset(base, 0, count * 4)
                    } else {
                        base.withMemoryRebound(to: UInt32.self, capacity: count) {
                            Compositing.fill($0, count: count, color: value)
                        }
                    }
                }
                n = count * 4
            })
    }
}
