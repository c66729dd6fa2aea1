/// How a Lottie shadow's After Effects parameters become what the renderer draws: a Gaussian
/// blur σ in points, a direction (degrees clockwise from up, the drop-shadow effect's
/// convention) and a spread. Players disagree, so every formula lives here, one per profile.
///
/// Drop Shadow effect (`ef` type 25), softness s:
/// - lottie-web (SVGDropShadowEffect): feGaussianBlur stdDeviation = s / 4. The default.
/// - lottie-ios, Core Animation engine: CALayer.shadowRadius = s / 5. A CALayer shadow of
///   radius r measures as a Gaussian of σ ≈ 0.93 r on its snapshots (issue_1169_shadow_effect:
///   r = 2 pt, fitted σ = 1.875 pt; shadow_style_animated: r = 6 pt, σ = 5.55 pt), so σ = r,
///   which is also what ``LayerShadow`` draws for a shadowRadius.
/// - ThorVG: σ = 0.3 s (its BLUR_TO_SIGMA, shared with the Gaussian blur). rlottie draws none.
///
/// Layer style drop shadow (`sy` type 1), size z, choke (spread) c %:
/// - After Effects / Photoshop: size is a CSS-like blur extent, σ = z / 2 (the blur that
///   the spread leaves, z·(1 − c), as Photoshop's spread turns blur into a harder edge;
///   see ``styleSpread``). lottie-ios: shadowRadius = z / 2, σ = z / 2 as well, choke ignored.
///   lottie-web, ThorVG and rlottie draw no layer styles.
/// - Angle a is where the light comes from, counter-clockwise from +x (90: from above, so the
///   shadow falls below): direction 270 − a. lottie-ios casts at (cos a, sin a) in y-down
///   space, which agrees at 90° but mirrors left and right elsewhere: direction a + 90.
///
/// Every mapping is linear in its parameter, so applying it to keyframe values is exact
/// under interpolation.
enum DropShadowMapping {
    /// Whose drawing a shadow follows (the coming `--lottie-compat` option selects it).
    enum Profile: Sendable {
        /// After Effects as lottie-web draws it.
        case lottieWeb
        /// lottie-ios's Core Animation engine.
        case coreAnimation
    }

    /// σ (points) for the drop-shadow effect's softness.
    static func effectSigma(softness: Double, _ profile: Profile) -> Double {
        switch profile {
        case .lottieWeb: return softness / 4
        case .coreAnimation: return softness / 5 * caSigmaPerShadowRadius
        }
    }

    /// σ (points) for a layer style's size.
    static func styleSigma(size: Double, _ profile: Profile) -> Double {
        switch profile {
        case .lottieWeb: return size / 2
        case .coreAnimation: return size / 2 * caSigmaPerShadowRadius
        }
    }

    /// The effect's direction for a layer style's light angle.
    static func styleDirection(angle: Double, _ profile: Profile) -> Double {
        switch profile {
        case .lottieWeb: return 270 - angle
        case .coreAnimation: return angle + 90
        }
    }

    /// The choke's share (0…1) of the style's size given to spread rather than blur:
    /// the matte grows before it is blurred, so its edge hardens (Photoshop's spread).
    /// Core Animation has no spread: lottie-ios ignores the choke.
    static func styleSpread(choke: Double, _ profile: Profile) -> Double {
        switch profile {
        case .lottieWeb: return min(max(choke / 100, 0), 1)
        case .coreAnimation: return 0
        }
    }

    /// CALayer draws a shadow of radius r as a Gaussian of σ = r (see above).
    static let caSigmaPerShadowRadius = 1.0
}
