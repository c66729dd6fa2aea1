import FlipbookGeometry
import FlipbookScene

/// Shape items (`shapes` of a shape layer, `it` of a group) → ``VectorItem``s.
///
/// Units converted here: opacities and percentages to fractions, trim start/end to
/// 0…1 and offset to turns, colors to 0…1.
extension LottieReader {
    func shapeItems(_ node: JSONNode) -> [VectorItem] {
        guard node.exists else { return [] }
        guard let list = node.elements else {
            error(node, "expected an array of shape items, got \(node.kind)")
            return []
        }
        return list.compactMap(shapeItem)
    }

    private func percent(_ node: JSONNode, _ what: String, default value: Double) -> AnimatedValue {
        animated(node, what, default: [value]) { $0.map { $0 / 100 } } ?? .constant([value / 100])
    }

    private func value(_ node: JSONNode, _ what: String, default fallback: [Double])
        -> AnimatedValue
    {
        animated(node, what, default: fallback) ?? .constant(fallback)
    }

    /// One item; nil for an item players pass over (not an object, no type: ThorVG draws
    /// the layer without it), with a warning.
    private func shapeItem(_ node: JSONNode) -> VectorItem? {
        guard node.isObject else {
            leaveOut(node, "expected a shape item object, got \(node.kind)")
            return nil
        }
        guard let type = node["ty"].string else {
            leaveOut(
                node["ty"],
                "expected the shape type `ty` (gr, rc, el, sr, sh, fl, st, gf, gs, tm, rp, …), got \(node["ty"].kind)"
            )
            return nil
        }
        if node["hd"].bool == true { return nil }
        let reversed = node["d"].number == 3
        switch type {
        case "gr":
            let items = shapeItems(node["it"])
            var transform = KeyframedTransform()
            // The group's transform is its `tr` item, usually last.
            if let index = (node["it"].elements ?? []).firstIndex(where: { $0["ty"].string == "tr" }
            ) {
                transform = keyframedTransform(node["it"][index], autoOrient: false)
            }
            return .group(VectorGroup(items: items, transform: transform))
        case "tr":
            // A group's transform, read by the group itself.
            return nil
        case "rc":
            return .rect(
                position: value(node["p"], "a rect centre [x, y]", default: [0, 0]),
                size: value(node["s"], "a rect size [w, h]", default: [0, 0]),
                roundness: value(node["r"], "a corner radius", default: [0]), reversed: reversed)
        case "el":
            return .ellipse(
                position: value(node["p"], "an ellipse centre [x, y]", default: [0, 0]),
                size: value(node["s"], "an ellipse size [w, h]", default: [0, 0]),
                reversed: reversed)
        case "sr":
            let isStar = (node["sy"].number ?? 1) == 1
            return .polystar(
                VectorPolystar(
                    isStar: isStar, position: value(node["p"], "a centre [x, y]", default: [0, 0]),
                    points: value(node["pt"], "a point count", default: [5]),
                    rotation: value(node["r"], "a rotation in degrees", default: [0]),
                    outerRadius: value(node["or"], "an outer radius", default: [0]),
                    innerRadius: value(node["ir"], "an inner radius", default: [0]),
                    outerRoundness: value(node["os"], "an outer roundness", default: [0]),
                    innerRoundness: value(node["is"], "an inner roundness", default: [0]),
                    reversed: reversed))
        case "sh":
            guard let path = animatedPath(node["ks"]) else { return nil }
            return .path(path, reversed: false)
        case "fl", "gf":
            guard let paint = paint(node, gradient: type == "gf") else { return nil }
            return .fill(
                VectorFill(
                    paint: paint,
                    opacity: percent(node["o"], "an opacity in percent", default: 100),
                    rule: node["r"].number == 2 ? .evenOdd : .nonZero))
        case "st", "gs":
            guard let paint = paint(node, gradient: type == "gs") else { return nil }
            var dashes: [AnimatedValue] = []
            var offset = AnimatedValue.constant([0])
            for d in node["d"].elements ?? [] {
                let v = value(d["v"], "a dash length", default: [0])
                switch d["n"].string {
                case "o": offset = v
                case "d", "g": dashes.append(v)
                // ThorVG and rlottie draw the stroke without such an entry.
                default: leaveOut(d["n"], "expected a dash kind (d, g or o), got \(d["n"].kind)")
                }
            }
            let caps: [Double: LineCap] = [1: .butt, 2: .round, 3: .square]
            let joins: [Double: LineJoin] = [1: .miter, 2: .round, 3: .bevel]
            return .stroke(
                VectorStroke(
                    paint: paint,
                    opacity: percent(node["o"], "an opacity in percent", default: 100),
                    width: value(node["w"], "a stroke width", default: [1]),
                    cap: caps[node["lc"].number ?? 2] ?? .round,
                    join: joins[node["lj"].number ?? 2] ?? .round,
                    miterLimit: node["ml"].number ?? node["ml2"]["k"].number ?? 4, dashes: dashes,
                    dashOffset: offset))
        case "tm":
            return .trim(
                start: percent(node["s"], "a trim start in percent", default: 0),
                end: percent(node["e"], "a trim end in percent", default: 100),
                offset: animated(node["o"], "a trim offset in degrees", default: [0]) {
                    $0.map { $0 / 360 }
                }
                    ?? .constant([0]),
                individually: node["m"].number == 2)
        case "rp":
            let tr = node["tr"]
            var transform = keyframedTransform(tr, autoOrient: false)
            transform.opacity = .constant([1])
            return .repeater(
                VectorRepeater(
                    copies: value(node["c"], "a copy count", default: [1]),
                    offset: value(node["o"], "a copy offset", default: [0]),
                    newerAbove: node["m"].number != 2, transform: transform,
                    startOpacity: percent(tr["so"], "a start opacity in percent", default: 100),
                    endOpacity: percent(tr["eo"], "an end opacity in percent", default: 100)))
        case "rd":
            return .roundCorners(radius: value(node["r"], "a corner radius", default: [0]))
        case "mm":
            let mode =
                tolerating("drawn with the default, 1") { integer(node["mm"], "a merge mode `mm`") }
                ?? 1
            if mode != 1 { warn("merge paths mode \(mode) (drawn as merge)") }
            return .merge(mode: mode)
        case "op":
            let joins: [Double: LineJoin] = [1: .miter, 2: .round, 3: .bevel]
            return .offsetPath(
                amount: value(node["a"], "an offset amount", default: [0]),
                join: joins[node["lj"].number ?? 1] ?? .miter,
                miterLimit: value(node["ml"], "a miter limit", default: [4]))
        case "pb":
            return .puckerBloat(
                amount: percent(node["a"], "a pucker/bloat amount in percent", default: 0))
        case "zz":
            // `pt` (1 corner, 2 smooth) is a property object in current exports, a bare
            // number in old ones; its first value is taken.
            let pointType =
                node["pt"].number ?? node["pt"]["k"].number ?? node["pt"]["k"][0]["s"][0].number
            return .zigZag(
                size: value(node["s"], "a zig-zag size", default: [0]),
                ridges: value(node["r"], "a ridge count", default: [0]), smooth: pointType == 2)
        case "tw":
            warn("twist")
            return .twist(
                angle: value(node["a"], "a twist angle", default: [0]),
                center: value(node["c"], "a twist centre", default: [0, 0]))
        default:
            warn("shape item `\(type)`")
            return nil
        }
    }

    private func paint(_ node: JSONNode, gradient: Bool) -> VectorPaint? {
        guard gradient else {
            return color(node["c"], default: [0, 0, 0, 1]).map { VectorPaint.solid($0) }
        }
        let g = node["g"]
        // Without a usable stop count the gradient (and so its fill or stroke) is left out.
        let read = tolerating("left out") {
            integer(g["p"], "the gradient's colour stop count `p`")
        }
        guard let stopCount = read, stopCount >= 1 else {
            // A count that is there but not an integer has had its warning.
            if read != nil || !g["p"].exists {
                leaveOut(
                    g["p"], "expected the gradient's colour stop count `p`, got \(g["p"].kind)")
            }
            return nil
        }
        // A gradient's stops are colour (4 numbers each) then opacity (2 each); the array
        // is checked before it is read, so a million stops cost nothing.
        let values =
            g["k"]["k"].isArray && g["k"]["k"][0].has("t")
            ? g["k"]["k"][0]["s"].count : g["k"]["k"].count
        var stopsSeen = 0
        guard
            count(
                &stopsSeen, max(stopCount, values / 4), limit: limits.maxGradientStops, at: g,
                item: .gradientStops)
        else { return nil }
        guard let stops = animated(g["k"], "gradient stops") else { return nil }
        return .gradient(
            VectorGradient(
                radial: node["t"].number == 2, colorStopCount: stopCount, stops: stops,
                start: value(node["s"], "a gradient start point [x, y]", default: [0, 0]),
                end: value(node["e"], "a gradient end point [x, y]", default: [0, 0]),
                // lottie-ios's Core Animation engine draws a radial gradient as a CAGradientLayer
                // from its start and end points alone, without the highlight
                // (Sources/Private/CoreAnimation/Animations/GradientAnimations.swift).
                highlightLength: coreAnimation
                    ? .constant([0])
                    : value(node["h"], "a highlight length in percent", default: [0]),
                highlightAngle: value(node["a"], "a highlight angle in degrees", default: [0])))
    }
}
