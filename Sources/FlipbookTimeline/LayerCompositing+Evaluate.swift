import FlipbookGeometry
import FlipbookScene

/// A layer's ``LayerCompositing`` evaluated at one time.
public struct RenderCompositing: Sendable, Equatable {
    public var masks: [RenderVectorMask]
    public var effects: [RenderEffect]
    public var blendMode: BlendMode
    public var maskMode: MaskMode

    /// Whether anything here needs the layer flattened before it is composited.
    public var needsGroup: Bool { !masks.isEmpty || !effects.isEmpty || blendMode != .normal }
}

public struct RenderVectorMask: Sendable, Equatable {
    public var mode: VectorMask.Mode
    /// In the layer's bounds space.
    public var path: Path
    public var opacity: Double
    public var inverted: Bool
    public var expansion: Double
    public var feather: Point
}

public enum RenderEffect: Sendable, Equatable {
    /// Offset in the layer's space, blur sigma in points, spread 0…1 (see
    /// ``LayerEffect/dropShadow(color:opacity:direction:distance:blur:spread:)``).
    case dropShadow(color: Color, offset: Point, sigma: Double, spread: Double)
    case gaussianBlur(sigma: Point)
    case fill(color: Color, amount: Double)
    case tint(black: Color, white: Color, amount: Double)
}

extension LayerTiming {
    /// The layer's local time for its parent's `seconds`.
    public func localTime(_ seconds: Double) -> Double {
        let local = (seconds - beginTime) * speed
        guard let remap else { return local }
        return remap.scalar(at: local)
    }
}

extension LayerCompositing {
    func evaluate(at t: Double) -> RenderCompositing {
        RenderCompositing(
            masks: masks.map { m in
                let f = m.feather.value(at: t)
                return RenderVectorMask(
                    mode: m.mode, path: VectorPathValue.path(m.path.value(at: t)),
                    opacity: m.opacity.scalar(at: t), inverted: m.inverted,
                    expansion: m.expansion.scalar(at: t),
                    feather: Point(f.first ?? 0, f.count > 1 ? f[1] : (f.first ?? 0)))
            },
            effects: effects.map { Self.evaluate($0, at: t) },
            blendMode: blendMode, maskMode: maskMode)
    }

    private static func color(_ v: AnimatedValue, _ t: Double) -> Color {
        let c = v.value(at: t)
        func ch(_ i: Int) -> Double { i < c.count ? c[i] : 1 }
        return Color(red: ch(0), green: ch(1), blue: ch(2), alpha: c.count > 3 ? c[3] : 1)
    }

    private static func evaluate(_ effect: LayerEffect, at t: Double) -> RenderEffect {
        switch effect {
        case .dropShadow(let c, let opacity, let direction, let distance, let blur, let spread):
            var shadow = color(c, t)
            shadow.alpha *= opacity.scalar(at: t)
            // Direction is clockwise from up (0° casts upward).
            let radians = direction.scalar(at: t) * .pi / 180
            let d = distance.scalar(at: t)
            return .dropShadow(
                color: shadow, offset: Point(sin(radians) * d, -cos(radians) * d),
                sigma: max(0, blur.scalar(at: t)), spread: spread.scalar(at: t))
        case .gaussianBlur(let blurriness, let dimensions):
            // After Effects' blurriness is about 1/0.3 of the Gaussian's sigma (lottie-web).
            let sigma = max(0, blurriness.scalar(at: t)) * 0.3
            return .gaussianBlur(
                sigma: Point(dimensions == 3 ? 0 : sigma, dimensions == 2 ? 0 : sigma))
        case .fill(let c, let opacity):
            return .fill(color: color(c, t), amount: opacity.scalar(at: t))
        case .tint(let black, let white, let amount):
            return .tint(
                black: color(black, t), white: color(white, t), amount: amount.scalar(at: t))
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
