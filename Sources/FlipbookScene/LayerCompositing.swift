import FlipbookGeometry

/// A layer's clock relative to its superlayer's, as CAMediaTiming: local time is
/// (parent − beginTime) × speed, then, when `remap` is set, the remap's value at that
/// time (After Effects' time remapping, in seconds). Applies to the layer's own values
/// and to its sublayers.
public struct LayerTiming: Sendable {
    public var beginTime: Double
    public var speed: Double
    /// [seconds] keyed on the local time.
    public var remap: AnimatedValue?

    public init(beginTime: Double = 0, speed: Double = 1, remap: AnimatedValue? = nil) {
        self.beginTime = beginTime
        self.speed = speed
        self.remap = remap
    }
}

/// How a layer's flattened pixels combine with what is beneath them (the separable and
/// non-separable modes of PDF and CSS compositing, which After Effects shares).
public enum BlendMode: String, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight,
        softLight
    case difference, exclusion, hue, saturation, color, luminosity
}

/// What a layer's `mask` contributes: its alpha (Core Animation's rule), its luminance,
/// or either inverted (After Effects' track mattes).
public enum MaskMode: String, Sendable, CaseIterable {
    case alpha, alphaInverted, luminance, luminanceInverted
}

/// An After Effects layer mask: a path combined with the masks before it.
public struct VectorMask: Sendable {
    public enum Mode: String, Sendable {
        case add, subtract, intersect, lighten, darken, difference, none
    }

    public var mode: Mode
    /// A ``VectorPathValue`` per keyframe, in the layer's coordinates.
    public var path: AnimatedValue
    /// 0…1.
    public var opacity: AnimatedValue
    public var inverted: Bool
    /// Points the outline grows (negative: shrinks).
    public var expansion: AnimatedValue
    /// Blur of the mask's edge, in points ([x, y]).
    public var feather: AnimatedValue

    public init(
        mode: Mode, path: AnimatedValue, opacity: AnimatedValue = .constant([1]),
        inverted: Bool = false,
        expansion: AnimatedValue = .constant([0]), feather: AnimatedValue = .constant([0, 0])
    ) {
        self.mode = mode
        self.path = path
        self.opacity = opacity
        self.inverted = inverted
        self.expansion = expansion
        self.feather = feather
    }
}

/// An effect applied to a layer's flattened pixels.
public enum LayerEffect: Sendable {
    /// A blurred, offset copy of the layer's alpha beneath it (After Effects' Drop Shadow
    /// effect and drop-shadow layer style). Color [r, g, b(, a)], opacity 0…1, direction in
    /// degrees clockwise from up, distance in points, blur the Gaussian's σ in points (the
    /// importer converts softness or size to it), spread 0…1 the share of the blurred edge
    /// made solid (a style's choke).
    case dropShadow(
        color: AnimatedValue, opacity: AnimatedValue, direction: AnimatedValue,
        distance: AnimatedValue, blur: AnimatedValue, spread: AnimatedValue = .constant([0]))
    /// Gaussian blur: blurriness in points; dimensions 1 both, 2 horizontal, 3 vertical.
    case gaussianBlur(blurriness: AnimatedValue, dimensions: Int)
    /// Replaces every color; the opacity (0…1) scales alpha.
    case fill(color: AnimatedValue, opacity: AnimatedValue)
    /// Maps luminance from black to white onto the two colors; amount mixes.
    case tint(black: AnimatedValue, white: AnimatedValue, amount: AnimatedValue)
}

/// What a layer adds to Core Animation's model for formats that need it (Lottie): its
/// own clock, an After Effects transform, layer masks, effects, a blend mode, and the
/// span of its parent's time in which it exists.
public struct LayerCompositing: Sendable {
    public var timing: LayerTiming?
    /// Replaces position, anchor point, transform and opacity when set.
    public var transform: KeyframedTransform?
    public var masks: [VectorMask]
    public var effects: [LayerEffect]
    public var blendMode: BlendMode
    /// How `Layer.mask` applies.
    public var maskMode: MaskMode
    /// The layer exists only while its parent's time is in this range (seconds).
    public var activeRange: Range<Double>?

    public init(
        timing: LayerTiming? = nil, transform: KeyframedTransform? = nil, masks: [VectorMask] = [],
        effects: [LayerEffect] = [], blendMode: BlendMode = .normal, maskMode: MaskMode = .alpha,
        activeRange: Range<Double>? = nil
    ) {
        self.timing = timing
        self.transform = transform
        self.masks = masks
        self.effects = effects
        self.blendMode = blendMode
        self.maskMode = maskMode
        self.activeRange = activeRange
    }
}
