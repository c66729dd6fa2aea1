import FlipbookGeometry

/// The shape a key path's value has in a scene file, and so the layout of its flat
/// vector in ``AnimationChange``.
public enum ValueKind: String, Sendable {
    /// [v]
    case number
    /// [0 or 1]; switches at the animation's begin time rather than interpolating.
    case bool
    /// [x, y]
    case point
    /// [w, h]
    case size
    /// [x, y, w, h]
    case rect
    /// [r, g, b, a], straight alpha.
    case color
    /// [tx, ty, sx, sy, degrees]
    case transform
    /// [v0, v1, …]
    case numberList
    /// [r0, g0, b0, a0, r1, …]
    case colorList
}

/// One scalar that animations and follow maps drive.
public enum Component: Sendable, Hashable {
    case scalar(ScalarProperty)
    case gradientLocation(Int)
    case dash(Int)
    /// Color index, channel 0…3 (r, g, b, a).
    case gradientColor(Int, Int)
}

/// A key path the format accepts: its value kind and the scalars it drives.
public struct KeyPathInfo: Sendable {
    public var kind: ValueKind
    /// The components in vector order; empty for list kinds, whose components depend
    /// on the vector's length (see ``PropertyCatalog/components(of:count:)``).
    public var components: [Component]
}

/// Every animatable key path of the format, with its aliases.
///
/// `frame` is absent on purpose: it is not a stored property but sets `position` and
/// the bounds' size, and the stages that accept it convert it (with the layer's
/// anchor point) before they look key paths up here.
public enum PropertyCatalog {
    /// Looks up a key path as written in a scene file.
    public static func info(for keyPath: String) -> KeyPathInfo? { table[keyPath] }

    /// All key paths accepted, for suggestions in error messages.
    public static var keyPaths: [String] { Array(table.keys).sorted() + ["frame"] }

    /// The components a vector of `count` numbers drives for `keyPath`, broadcasting a
    /// single number over several components (`transform.scale: 2` scales both axes).
    public static func components(of keyPath: String, count: Int) -> [Component]? {
        guard let info = table[keyPath] else { return nil }
        switch info.kind {
        case .numberList:
            if keyPath == "lineDashPattern" { return (0..<count).map { .dash($0) } }
            return (0..<count).map { .gradientLocation($0) }
        case .colorList:
            return (0..<count).map { .gradientColor($0 / 4, $0 % 4) }
        default:
            return info.components
        }
    }

    private static func colorComponents(_ base: ScalarProperty.ColorSlot) -> [Component] {
        (0..<4).map { .scalar(.color(base, $0)) }
    }

    private static let table: [String: KeyPathInfo] = {
        var t: [String: KeyPathInfo] = [:]
        func add(_ names: [String], _ kind: ValueKind, _ comps: [ScalarProperty]) {
            for n in names { t[n] = KeyPathInfo(kind: kind, components: comps.map { .scalar($0) }) }
        }
        add(["opacity"], .number, [.opacity])
        add(["hidden"], .bool, [.hidden])
        add(["position"], .point, [.positionX, .positionY])
        add(["position.x"], .number, [.positionX])
        add(["position.y"], .number, [.positionY])
        add(["bounds"], .rect, [.boundsX, .boundsY, .boundsWidth, .boundsHeight])
        add(["bounds.origin"], .point, [.boundsX, .boundsY])
        add(["bounds.origin.x", "bounds.x"], .number, [.boundsX])
        add(["bounds.origin.y", "bounds.y"], .number, [.boundsY])
        add(["bounds.size"], .size, [.boundsWidth, .boundsHeight])
        add(["bounds.size.width", "bounds.width"], .number, [.boundsWidth])
        add(["bounds.size.height", "bounds.height"], .number, [.boundsHeight])
        add(["anchorPoint"], .point, [.anchorX, .anchorY])
        add(["anchorPoint.x"], .number, [.anchorX])
        add(["anchorPoint.y"], .number, [.anchorY])
        for (prefix, isInstance) in [("transform", false), ("instanceTransform", true)] {
            let tx: ScalarProperty = isInstance ? .instanceTranslationX : .translationX
            let ty: ScalarProperty = isInstance ? .instanceTranslationY : .translationY
            let sx: ScalarProperty = isInstance ? .instanceScaleX : .scaleX
            let sy: ScalarProperty = isInstance ? .instanceScaleY : .scaleY
            let rot: ScalarProperty = isInstance ? .instanceRotation : .rotation
            add([prefix], .transform, [tx, ty, sx, sy, rot])
            add(["\(prefix).translation"], .point, [tx, ty])
            add(["\(prefix).translation.x"], .number, [tx])
            add(["\(prefix).translation.y"], .number, [ty])
            add(["\(prefix).scale"], .number, [sx, sy])
            add(["\(prefix).scale.x"], .number, [sx])
            add(["\(prefix).scale.y"], .number, [sy])
            add(["\(prefix).rotation", "\(prefix).rotation.z"], .number, [rot])
        }
        add(["cornerRadius"], .number, [.cornerRadius])
        add(["borderWidth"], .number, [.borderWidth])
        add(["shadowOpacity"], .number, [.shadowOpacity])
        add(["shadowOffset"], .point, [.shadowOffsetX, .shadowOffsetY])
        add(["shadowRadius"], .number, [.shadowRadius])
        add(["lineWidth"], .number, [.lineWidth])
        add(["miterLimit"], .number, [.miterLimit])
        add(["lineDashPhase"], .number, [.lineDashPhase])
        add(["strokeStart"], .number, [.strokeStart])
        add(["strokeEnd"], .number, [.strokeEnd])
        add(
            ["rect", "ellipse"], .rect,
            [.shapeRectX, .shapeRectY, .shapeRectWidth, .shapeRectHeight])
        add(["rect.cornerRadius"], .number, [.shapeCornerRadius])
        add(["arc.center"], .point, [.arcCenterX, .arcCenterY])
        add(["arc.radius"], .number, [.arcRadius])
        add(["arc.start"], .number, [.arcStart])
        add(["arc.end"], .number, [.arcEnd])
        add(["gradient.startPoint", "startPoint"], .point, [.gradientStartX, .gradientStartY])
        add(["gradient.endPoint", "endPoint"], .point, [.gradientEndX, .gradientEndY])
        add(["instanceAlphaOffset"], .number, [.instanceAlphaOffset])
        add(["text.fontSize", "fontSize"], .number, [.fontSize])
        for (names, slot) in [
            (["backgroundColor"], ScalarProperty.ColorSlot.background),
            (["borderColor"], .border), (["shadowColor"], .shadow),
            (["fillColor"], .fill), (["strokeColor"], .stroke),
            (["text.color", "textColor"], .text),
        ] {
            for n in names { t[n] = KeyPathInfo(kind: .color, components: colorComponents(slot)) }
        }
        t["gradient.locations"] = KeyPathInfo(kind: .numberList, components: [])
        t["locations"] = t["gradient.locations"]
        t["gradient.colors"] = KeyPathInfo(kind: .colorList, components: [])
        t["colors"] = t["gradient.colors"]
        t["lineDashPattern"] = KeyPathInfo(kind: .numberList, components: [])
        return t
    }()
}

/// A scalar field of ``LayerProperties``.
public enum ScalarProperty: Sendable, Hashable {
    public enum ColorSlot: Sendable, Hashable {
        case background, border, shadow, fill, stroke, text
    }

    case positionX, positionY, boundsX, boundsY, boundsWidth, boundsHeight, anchorX, anchorY
    case translationX, translationY, scaleX, scaleY, rotation
    case opacity, hidden, cornerRadius, borderWidth
    case shadowOpacity, shadowOffsetX, shadowOffsetY, shadowRadius
    case lineWidth, miterLimit, lineDashPhase, strokeStart, strokeEnd
    case shapeRectX, shapeRectY, shapeRectWidth, shapeRectHeight, shapeCornerRadius
    case arcCenterX, arcCenterY, arcRadius, arcStart, arcEnd
    case gradientStartX, gradientStartY, gradientEndX, gradientEndY
    case instanceTranslationX, instanceTranslationY, instanceScaleX, instanceScaleY,
        instanceRotation
    case instanceAlphaOffset, fontSize
    /// Channel 0…3 (r, g, b, a) of a color.
    case color(ColorSlot, Int)
}
