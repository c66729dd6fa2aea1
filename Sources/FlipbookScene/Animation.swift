import FlipbookGeometry

/// One entry of the scene's `animations` list: a timing and what it changes.
///
/// The three forms of the format share this type: a UIView.animate `set:` block has
/// one target per key, a from/to animation one target, a keyframe animation one target
/// with ``AnimationChange/keyframes(values:keyTimes:curves:)``.
public struct Animation: Sendable {
    /// Begin time in seconds (`at`).
    public var begin: Double
    /// Seconds of one cycle (forward only; autoreverse doubles it).
    public var duration: Double
    public var timing: Timing
    /// Cycles; `.infinity` repeats forever. Fractions are allowed, as in Core Animation.
    public var repeatCount: Double
    public var autoreverses: Bool
    /// When true the earlier value returns after the animation ends.
    public var removedOnCompletion: Bool
    public var fillMode: FillMode
    public var targets: [AnimationTarget]
    /// Line of the entry in the scene file, for messages.
    public var line: Int?

    public init(
        begin: Double = 0, duration: Double, timing: Timing = .curve(.easeInEaseOut),
        repeatCount: Double = 1, autoreverses: Bool = false, removedOnCompletion: Bool = false,
        fillMode: FillMode = .forwards, targets: [AnimationTarget], line: Int? = nil
    ) {
        self.begin = begin
        self.duration = duration
        self.timing = timing
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.removedOnCompletion = removedOnCompletion
        self.fillMode = fillMode
        self.targets = targets
        self.line = line
    }

    /// Seconds from begin to the end of the last cycle (infinite when repeating forever).
    public var activeDuration: Double {
        duration * max(repeatCount, 0) * (autoreverses ? 2 : 1)
    }
}

/// What an animation shows outside its active time, as CAMediaTiming's fillMode.
public enum FillMode: String, Sendable {
    case removed, forwards, backwards, both

    public var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// One property of one layer driven by an animation.
public struct AnimationTarget: Sendable {
    public var layer: String
    /// As written, e.g. `transform.scale.x`; see ``PropertyCatalog``.
    public var keyPath: String
    public var change: AnimationChange
    public var line: Int?

    public init(layer: String, keyPath: String, change: AnimationChange, line: Int? = nil) {
        self.layer = layer
        self.keyPath = keyPath
        self.change = change
        self.line = line
    }
}

/// Values are flat vectors in the layout ``PropertyCatalog`` gives the key path
/// (a color is [r, g, b, a], a rect [x, y, w, h], a transform [tx, ty, sx, sy, degrees]).
public enum AnimationChange: Sendable {
    /// From `from` (or the current on-screen value when nil) to `to`.
    case to(from: [Double]?, to: [Double])
    /// `values` at `keyTimes` (fractions of the duration), one curve per segment.
    case keyframes(values: [[Double]], keyTimes: [Double], curves: [TimingCurve])
}

/// How progress runs over an animation's duration.
public enum Timing: Sendable, Hashable {
    case curve(TimingCurve)
    case spring(Spring)
}

/// A CAMediaTimingFunction: the cubic Bézier from (0, 0) through (x1, y1), (x2, y2) to (1, 1).
public struct TimingCurve: Sendable, Hashable {
    public var x1: Double
    public var y1: Double
    public var x2: Double
    public var y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let linear = TimingCurve(0, 0, 1, 1)
    public static let easeIn = TimingCurve(0.42, 0, 1, 1)
    public static let easeOut = TimingCurve(0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingCurve(0.42, 0, 0.58, 1)
    public static let `default` = TimingCurve(0.25, 0.1, 0.25, 1)

    /// The named curves of the format.
    public static let named: [String: TimingCurve] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut,
        "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]
}

/// A damped harmonic oscillator, as CASpringAnimation.
public struct Spring: Sendable, Hashable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    /// Whole distances per second.
    public var initialVelocity: Double

    public init(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
    }
}
