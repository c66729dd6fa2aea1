import FlipbookScene

extension VectorShape {
    /// Whether no value of the artwork is keyframed, so that ``evaluate(at:)`` gives the same
    /// nodes at every time (the timeline then evaluates it once). Conservative: glyph text
    /// (whose animators evaluate per frame) counts as animated, and so does any case this
    /// does not know to be plain values.
    var isStatic: Bool { items.allSatisfy(\.isStatic) }
}

extension VectorItem {
    fileprivate var isStatic: Bool {
        switch self {
        case .group(let g): return g.items.allSatisfy(\.isStatic) && g.transform.isStatic
        case .rect(let position, let size, let roundness, _):
            return position.isStatic && size.isStatic && roundness.isStatic
        case .ellipse(let position, let size, _): return position.isStatic && size.isStatic
        case .polystar(let s):
            return [
                s.position, s.points, s.rotation, s.outerRadius, s.innerRadius, s.outerRoundness,
                s.innerRoundness,
            ].allSatisfy(\.isStatic)
        case .path(let value, _): return value.isStatic
        case .fill(let f): return f.paint.isStatic && f.opacity.isStatic
        case .stroke(let s):
            return s.paint.isStatic && s.opacity.isStatic && s.width.isStatic
                && s.dashes.allSatisfy(\.isStatic) && s.dashOffset.isStatic
        case .trim(let start, let end, let offset, _):
            return start.isStatic && end.isStatic && offset.isStatic
        case .repeater(let r):
            return r.copies.isStatic && r.offset.isStatic && r.transform.isStatic
                && r.startOpacity.isStatic && r.endOpacity.isStatic
        case .roundCorners(let radius): return radius.isStatic
        case .merge: return true
        case .offsetPath(let amount, _, let miterLimit):
            return amount.isStatic && miterLimit.isStatic
        case .puckerBloat(let amount): return amount.isStatic
        case .zigZag(let size, let ridges, _): return size.isStatic && ridges.isStatic
        case .twist(let angle, let center): return angle.isStatic && center.isStatic
        case .text: return false
        }
    }
}

extension VectorPaint {
    fileprivate var isStatic: Bool {
        switch self {
        case .solid(let color): return color.isStatic
        case .gradient(let g):
            return [g.stops, g.start, g.end, g.highlightLength, g.highlightAngle]
                .allSatisfy(\.isStatic)
        }
    }
}

extension KeyframedTransform {
    fileprivate var isStatic: Bool {
        [anchor, position, scale, rotation, opacity, skew, skewAxis].allSatisfy(\.isStatic)
            && positionX?.isStatic != false && positionY?.isStatic != false
    }
}

extension AnimatedValue {
    fileprivate var isStatic: Bool {
        if case .constant = self { return true }
        return false
    }
}
