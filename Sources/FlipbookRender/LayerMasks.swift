import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline

/// After Effects layer masks, track-matte modes and effects on a flattened layer.
///
/// Masks (in order, `none` skipped): the running coverage starts empty, or full when
/// the first mask subtracts or intersects (After Effects and lottie-web); each mask's
/// coverage is its path filled (non-zero), grown or shrunk by its expansion (the path's
/// stroke of twice the expansion added or taken away, round joins), feathered by a
/// Gaussian of σ = feather / 2, inverted when asked, scaled by its opacity, and
/// combined by its mode (``Mask/Combination``).
enum LayerMasks {
    static func coverage(
        _ masks: [RenderVectorMask], toGroup: AffineTransform, width: Int, height: Int
    ) -> Mask? {
        let active = masks.filter { $0.mode != .none }
        guard let first = active.first else { return nil }
        var result =
            first.mode == .subtract || first.mode == .intersect
            ? Mask.full(width: width, height: height) : Mask(width: width, height: height)
        let scale = abs(toGroup.determinant).squareRoot()
        for m in active {
            var shape = Mask.path(
                m.path, transform: toGroup, rule: .nonZero, width: width, height: height)
            if m.expansion != 0 {
                let ring = Stroker.outline(
                    of: m.path, style: StrokeStyle(width: 2 * abs(m.expansion), join: .round),
                    drawnThrough: toGroup)
                let band = Mask.path(
                    ring, transform: toGroup, rule: .nonZero, width: width, height: height)
                shape.combine(band, m.expansion > 0 ? .add : .subtract)
            }
            let feather = min(
                max(m.feather.x, m.feather.y) * scale, maximumSigma(width, height) * 2)
            if feather > 0.5 { shape = shape.blurred(sigma: feather / 2) }
            if m.inverted { shape = shape.inverted() }
            shape.scale(by: m.opacity)
            let op: Mask.Combination
            switch m.mode {
            case .add, .none: op = .add
            case .subtract: op = .subtract
            case .intersect: op = .intersect
            case .lighten: op = .lighten
            case .darken: op = .darken
            case .difference: op = .difference
            }
            result.combine(shape, op)
        }
        return result
    }

    /// The coverage a track matte or mask layer gives, by mode.
    static func matte(_ surface: Pixmap?, mode: MaskMode, width: Int, height: Int) -> Mask? {
        guard let surface else {
            // No matte drawn: an inverted matte lets everything through.
            return mode == .alphaInverted || mode == .luminanceInverted
                ? nil : Mask(width: width, height: height)
        }
        switch mode {
        case .alpha: return Mask(alphaOf: surface)
        case .alphaInverted: return Mask(alphaOf: surface).inverted()
        case .luminance: return Mask(luminanceOf: surface)
        case .luminanceInverted: return Mask(luminanceOf: surface).inverted()
        }
    }

    static func blendFunction(_ mode: BlendMode) -> BlendFunction? {
        switch mode {
        case .normal: nil
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .hardLight: .hardLight
        case .softLight: .softLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .hue: .hue
        case .saturation: .saturation
        case .color: .color
        case .luminosity: .luminosity
        }
    }

    /// How far (device pixels) effects spread a layer's pixels (at most 1000: a wider
    /// blur is as flat as it gets on any frame this size).
    static func reach(_ effects: [RenderEffect], scale: Double) -> Double {
        effects.reduce(0) { r, e in
            if case .gaussianBlur(let s) = e {
                return max(r, min(3 * max(s.x, s.y) * scale + 1, 1000))
            }
            return r
        }
    }

    /// The largest blur worth computing on a surface: beyond half its larger side the
    /// result is flat anyway, and the blur's working area grows with σ.
    static func maximumSigma(_ width: Int, _ height: Int) -> Double {
        min(Double(max(width, height)) / 2, 500)
    }

    /// Applies blur, fill and tint effects to the flattened layer, in order.
    static func apply(_ effects: [RenderEffect], to group: inout Pixmap, scale: Double) {
        for effect in effects {
            switch effect {
            case .gaussianBlur(let sigma):
                let limit = maximumSigma(group.width, group.height)
                if sigma.x > 0 || sigma.y > 0 {
                    group = group.blurred(
                        sigmaX: min(sigma.x * scale, limit), sigmaY: min(sigma.y * scale, limit))
                }
            case .fill(let color, let opacity):
                // After Effects' Fill: every pixel takes the color, its alpha scaled by the
                // effect's opacity (lottie-web's color matrix).
                recolor(&group, amount: 1) { _ in (color.red, color.green, color.blue) }
                if opacity < 1 {
                    let k = UInt32((unit(opacity) * 255).rounded())
                    for i in group.data.indices {
                        group.data[i] = UInt8((UInt32(group.data[i]) * k + 127) / 255)
                    }
                }
            case .tint(let black, let white, let amount):
                recolor(&group, amount: amount) { c in
                    let l = 0.299 * c.0 + 0.587 * c.1 + 0.114 * c.2
                    return (
                        black.red + (white.red - black.red) * l,
                        black.green + (white.green - black.green) * l,
                        black.blue + (white.blue - black.blue) * l
                    )
                }
            case .dropShadow:
                break
            }
        }
    }

    /// Maps every pixel's straight color, mixed with the original by `amount`.
    private static func recolor(
        _ group: inout Pixmap, amount: Double,
        _ map: ((Double, Double, Double)) -> (Double, Double, Double)
    ) {
        let k = unit(amount)
        for i in stride(from: 0, to: group.data.count, by: 4) {
            let a = Double(group.data[i + 3]) / 255
            guard a > 0 else { continue }
            let c = (
                Double(group.data[i]) / 255 / a, Double(group.data[i + 1]) / 255 / a,
                Double(group.data[i + 2]) / 255 / a
            )
            let m = map(c)
            let mixed = [c.0 + (m.0 - c.0) * k, c.1 + (m.1 - c.1) * k, c.2 + (m.2 - c.2) * k]
            for j in 0..<3 { group.data[i + j] = UInt8((unit(mixed[j]) * a * 255).rounded()) }
        }
    }

    /// `v` clamped to 0…1, NaN (from a hostile color or amount) giving 0.
    private static func unit(_ v: Double) -> Double {
        v.isNaN ? 0 : min(max(v, 0), 1)
    }
}
