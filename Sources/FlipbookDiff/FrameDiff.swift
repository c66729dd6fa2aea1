import FlipbookRaster

/// What distinguishes one pixel in a comparison, as the highlight image shows it.
public enum PixelClass: UInt8, Sendable {
    /// Equal, or within the color threshold.
    case same = 0
    /// Over the threshold and not anti-aliasing (or AA counted with includeAntiAliased).
    case differing = 1
    /// Over the threshold but classified as anti-aliasing, not counted.
    case antiAliased = 2
    /// Inside an ignore region, not compared.
    case ignored = 3
}

/// The comparison of two frames of the same size.
///
/// - `differingPixels`: pixels over the threshold and not excused as anti-aliasing.
/// - `antiAliasedPixels`: pixels over the threshold classified as anti-aliasing (0 when
///   AA pixels are counted as differing).
/// - `ratio`: differingPixels / (width · height).
/// - `bounds`: the smallest rectangle holding every differing pixel (nil when none).
/// - `psnr`: peak signal-to-noise ratio in dB, 10·log10(255² / MSE), MSE taken over the
///   four premultiplied channels of every compared (not ignored) pixel; +∞ when those are
///   identical.
public struct FrameDiff: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var differingPixels: Int
    public var antiAliasedPixels: Int
    public var ratio: Double
    public var bounds: PixelBounds?
    public var psnr: Double
    /// Whether the options' tolerance accepts this frame.
    public var withinTolerance: Bool
    /// One ``PixelClass`` raw value per pixel, row-major, when the comparison was asked to
    /// keep it (for drawing the highlight image); empty otherwise.
    public var classes: [UInt8]
    /// With ``DiffOptions/window``: the largest count of differing pixels in any window.
    public var windowDifferingPixels: Int?

    public init(
        width: Int, height: Int, differingPixels: Int, antiAliasedPixels: Int, ratio: Double,
        bounds: PixelBounds?, psnr: Double, withinTolerance: Bool, classes: [UInt8] = [],
        windowDifferingPixels: Int? = nil
    ) {
        self.windowDifferingPixels = windowDifferingPixels
        self.width = width
        self.height = height
        self.differingPixels = differingPixels
        self.antiAliasedPixels = antiAliasedPixels
        self.ratio = ratio
        self.bounds = bounds
        self.psnr = psnr
        self.withinTolerance = withinTolerance
        self.classes = classes
    }

    /// Whether any pixel is over the threshold (differing or AA).
    public var hasChanges: Bool { differingPixels > 0 || antiAliasedPixels > 0 }
}
