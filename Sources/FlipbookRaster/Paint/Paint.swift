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
    /// Pixels of the span to which ``shade(x:y:count:into:)`` would write one value, when
    /// it can tell cheaply that there are some (else nil): the painter blends that run as
    /// a solid color, or skips it when it is transparent, and shades the pixels on either
    /// side as spans of their own. So a run shorter than the span may only come from a
    /// shader whose pixels do not depend on where their span starts.
    func uniformRun(x: Int, y: Int, count: Int) -> UniformRun?
}

extension SpanShader {
    func uniformRun(x: Int, y: Int, count: Int) -> UniformRun? { nil }
}

/// Pixels `start ..< start + count` of a span (counted from its first pixel), which all
/// take `color` (premultiplied).
struct UniformRun: Equatable {
    var start: Int
    var count: Int
    var color: UInt32

    var end: Int { start + count }
}
