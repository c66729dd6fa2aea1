import FlipbookGeometry

/// What a fill puts inside its coverage: a solid color, a gradient or an image.
///
/// Rules: solid colors are straight-alpha and get premultiplied (and scaled by the
/// fill's opacity) once per fill; gradients and images produce premultiplied pixels a
/// span at a time through ``SpanShader``.
public enum Paint: Sendable {
    case solid(Color)
    case gradient(Gradient)
    case image(ImagePattern)
}

/// Produces premultiplied source pixels for a run of device pixels in one row.
protocol SpanShader {
    /// Whether every produced pixel is opaque.
    var shadesOpaque: Bool { get }
    /// Writes `count` pixels starting at device pixel (x, y) (sampled at pixel centers).
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
    /// The one pixel value ``shade(x:y:count:into:)`` would write to all `count` pixels,
    /// when it can tell cheaply that there is one (else nil): the painter then blends it
    /// as a solid color, or skips it when it is transparent.
    func uniformColor(x: Int, y: Int, count: Int) -> UInt32?
}

extension SpanShader {
    func uniformColor(x: Int, y: Int, count: Int) -> UInt32? { nil }
}
