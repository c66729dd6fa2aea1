import FlipbookGeometry

/// Compositing with a blend mode (W3C Compositing and Blending Level 1, the modes PDF,
/// CSS and After Effects share): with straight colors Cs (source), Cb (backdrop) and
/// alphas αs, αb, the result is
///   co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs),  αo = αs + αb − αs·αb
/// in premultiplied terms, where B is the mode's blend function. Computed in floating
/// point per pixel and rounded to the nearest level.
package enum BlendFunction: Sendable, CaseIterable {
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
    case difference, exclusion, hue, saturation, color, luminosity
}

extension Pixmap {
    /// Composites `source` with its top-left at (x, y) through `mode`, scaled by `opacity`.
    package mutating func draw(
        _ source: Pixmap, x: Int, y: Int, opacity: Double, blend mode: BlendFunction,
        mask: Mask? = nil
    ) {
        let op = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        guard op > 0 else { return }
        var box = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
            .intersection(PixelBounds(x0: x, y0: y, x1: x + source.width, y1: y + source.height))
        if let mask { box = box.intersection(mask.bounds) }
        if let rows = writableRows {
            box = box.intersection(
                PixelBounds(x0: box.x0, y0: rows.lowerBound, x1: box.x1, y1: rows.upperBound))
        }
        guard !box.isEmpty else { return }
        for row in box.y0..<box.y1 {
            // A stop request (Ctrl-C), polled every 64 rows, leaves the composite
            // unfinished; the frame is then discarded.
            if (row - box.y0) & 63 == 63 && RenderCancellation.shared.isCancelled { return }
            for col in box.x0..<box.x1 {
                let s = ((row - y) * source.width + (col - x)) * 4
                var coverage = op
                if let mask { coverage *= Double(mask.data[row * width + col]) / 255 }
                let sa = Double(source.data[s + 3]) / 255 * coverage
                guard sa > 0 else { continue }
                let d = (row * width + col) * 4
                let ba = Double(data[d + 3]) / 255
                let sp = (0..<3).map { Double(source.data[s + $0]) / 255 * coverage }
                let bp = (0..<3).map { Double(data[d + $0]) / 255 }
                let cs = sp.map { $0 / sa }
                let cb = ba > 0 ? bp.map { $0 / ba } : [0, 0, 0]
                let mixed = Self.blend(mode, cb: cb, cs: cs)
                let ao = sa + ba - sa * ba
                for i in 0..<3 {
                    let co =
                        sp[i] * (1 - ba) + bp[i] * (1 - sa) + sa * ba * min(max(mixed[i], 0), 1)
                    data[d + i] = UInt8(min(max((co * 255).rounded(), 0), (ao * 255).rounded()))
                }
                data[d + 3] = UInt8(min(max((ao * 255).rounded(), 0), 255))
            }
        }
    }

    static func blend(_ mode: BlendFunction, cb: [Double], cs: [Double]) -> [Double] {
        func each(_ f: (Double, Double) -> Double) -> [Double] { (0..<3).map { f(cb[$0], cs[$0]) } }
        func hardLight(_ b: Double, _ s: Double) -> Double {
            s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1)
        }
        switch mode {
        case .multiply: return each { $0 * $1 }
        case .screen: return each { $0 + $1 - $0 * $1 }
        case .overlay: return each { hardLight($1, $0) }
        case .darken: return each { min($0, $1) }
        case .lighten: return each { max($0, $1) }
        case .colorDodge: return each { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }
        case .colorBurn: return each { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }
        case .hardLight: return each(hardLight)
        case .softLight:
            return each { b, s in
                if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
                let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                return b + (2 * s - 1) * (d - b)
            }
        case .difference: return each { abs($0 - $1) }
        case .exclusion: return each { $0 + $1 - 2 * $0 * $1 }
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        }
    }

    private static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    private static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }

    private static func clipColor(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min()!, x = c.max()!
        var out = c
        if n < 0 { out = out.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { out = out.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return out
    }

    private static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        return clipColor(c.map { $0 + d })
    }

    private static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let mx = c.max()!, mn = c.min()!
        guard mx > mn else { return [0, 0, 0] }
        return c.map { ($0 - mn) * s / (mx - mn) }
    }
}
