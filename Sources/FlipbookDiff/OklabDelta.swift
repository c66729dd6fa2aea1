import Foundation

/// HyAB distance in OKLab with the toe-corrected lightness Lr (Ottosson 2020; Abasi et al.
/// 2019), computed as pixelmatch's main branch computes it (index.js, `colorDelta`):
///
///     d = |ΔLr| + √(Δa² + Δb²)
///
/// sRGB channels (0…255, fractional after blending over a backdrop) are linearized through
/// a 257-entry table of the sRGB transfer function, interpolated linearly between entries;
/// the LMS responses go through a cube-root table of 4097 steps over 0…1, interpolated the
/// same way; L is replaced by Lr = (k3·L − k1 + √((k3·L − k1)² + 4·k2·k3·L)) / 2, k1 = 0.206,
/// k2 = 0.03, k3 = (1 + k1)/(1 + k2), which lowers sensitivity near black. Black↔white is
/// Lr(1) ≈ 0.999996, so a threshold is nearly the fraction of that span; pixelmatch does not
/// divide by it, and neither does this.
///
/// The tables and the order of every operation follow index.js, so a pixel lands on the
/// same side of the threshold as there. Only the table entries can differ in their last
/// bits, the platform's `pow` and `cbrt` not being V8's; that moves a distance by ~1e-16,
/// which changes no count of pixelmatch's test suite.
public enum OklabDelta {
    /// sRGB byte → linear light, with a 257th entry equal to the 256th so that interpolation
    /// at 255 stays in the table.
    static let linearTable: [Double] = {
        var table = (0..<256).map { (i: Int) -> Double in
            let c = Double(i) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        table.append(table[255])
        return table
    }()

    /// Steps of the cube-root table over 0…1.
    static let cubeRootSteps = 4096
    /// cbrt(i / 4096) for i in 0…4097 (one spare entry for interpolation at 1).
    static let cubeRootTable: [Double] = (0...(cubeRootSteps + 1)).map {
        cbrt(Double($0) / Double(cubeRootSteps))
    }

    /// Linear light of a channel in 0…255 (clamped, for premultiplied words whose color
    /// exceeds their alpha).
    @inline(__always)
    static func linear(_ c: Double) -> Double {
        let x = min(max(c, 0), 255)
        let i = Int(x)
        return linearTable[i] + (linearTable[i + 1] - linearTable[i]) * (x - Double(i))
    }

    /// Cube root of a value in 0…1 through the table.
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        let t = x * Double(cubeRootSteps)
        let i = min(max(Int(t), 0), cubeRootSteps)
        return cubeRootTable[i] + (cubeRootTable[i + 1] - cubeRootTable[i]) * (t - Double(i))
    }

    /// Cube-rooted LMS responses and the lightness Lr of an sRGB color (channels 0…255).
    @inline(__always)
    static func lms(_ c: (Double, Double, Double)) -> (l: Double, m: Double, s: Double, lr: Double)
    {
        let r = linear(c.0), g = linear(c.1), b = linear(c.2)
        let l = cubeRoot(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cubeRoot(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cubeRoot(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (l, m, s, toe(0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s))
    }

    /// (ΔLr, Δa, Δb) between two colors; a and b are taken from the LMS differences.
    @inline(__always)
    static func differences(_ x: (Double, Double, Double), _ y: (Double, Double, Double)) -> (
        Double, Double, Double
    ) {
        let p = lms(x), q = lms(y)
        let dl = p.l - q.l, dm = p.m - q.m, ds = p.s - q.s
        let da = 1.9779984951 * dl - 2.4285922050 * dm + 0.4505937099 * ds
        let db = 0.0259040371 * dl + 0.7827717662 * dm - 0.8086757660 * ds
        return (p.lr - q.lr, da, db)
    }

    /// (Lr, a, b) of an sRGB color with channels in 0…255.
    public static func lab(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
        let p = lms(c)
        return (
            p.lr, 1.9779984951 * p.l - 2.4285922050 * p.m + 0.4505937099 * p.s,
            0.0259040371 * p.l + 0.7827717662 * p.m - 0.8086757660 * p.s
        )
    }

    /// Ottosson's lightness estimate Lr from OKLab's L.
    @inline(__always)
    public static func toe(_ x: Double) -> Double {
        let k1 = 0.206, k2 = 0.03, k3 = (1 + k1) / (1 + k2)
        let t = k3 * x - k1
        return 0.5 * (t + (t * t + 4 * k2 * k3 * x).squareRoot())
    }

    /// The HyAB distance between two sRGB colors (channels 0…255).
    public static func between(_ x: (Double, Double, Double), _ y: (Double, Double, Double))
        -> Double
    {
        let (dLr, da, db) = differences(x, y)
        return abs(dLr) + (da * da + db * db).squareRoot()
    }

    /// HyAB between black and white (Lr(1) ≈ 0.999996).
    public static let blackToWhite = between((0, 0, 0), (255, 255, 255))

    /// Whether the distance between two colors exceeds `threshold`, decided as pixelmatch
    /// decides it: within when |ΔLr| < threshold and Δa² + Δb² ≤ (threshold − |ΔLr|)²
    /// (no square root; threshold 0 therefore flags any two pixels compared).
    @inline(__always)
    public static func exceeds(
        _ x: (Double, Double, Double), _ y: (Double, Double, Double),
        threshold: Double
    ) -> Bool {
        let (dLr, da, db) = differences(x, y)
        let rest = threshold - abs(dLr)
        return !(rest > 0 && da * da + db * db <= rest * rest)
    }
}
