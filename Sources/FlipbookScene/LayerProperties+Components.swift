import FlipbookGeometry

extension LayerProperties {
    /// Reads or writes one animatable scalar. List components out of range read as 0
    /// (colors as clear) and grow the list when written.
    public subscript(component: Component) -> Double {
        get {
            switch component {
            case .scalar(let s): return self[scalar: s]
            case .gradientLocation(let i):
                return i < gradientLocations.count ? gradientLocations[i] : 0
            case .dash(let i): return i < lineDashPattern.count ? lineDashPattern[i] : 0
            case .gradientColor(let i, let ch):
                return i < gradientColors.count ? gradientColors[i].channel(ch) : 0
            }
        }
        set {
            switch component {
            case .scalar(let s): self[scalar: s] = newValue
            case .gradientLocation(let i):
                Self.grow(&gradientLocations, to: i + 1, with: 0)
                gradientLocations[i] = newValue
            case .dash(let i):
                Self.grow(&lineDashPattern, to: i + 1, with: 0)
                lineDashPattern[i] = newValue
            case .gradientColor(let i, let ch):
                Self.grow(&gradientColors, to: i + 1, with: .clear)
                gradientColors[i].setChannel(ch, newValue)
            }
        }
    }

    private static func grow<T>(_ list: inout [T], to count: Int, with filler: T) {
        if list.count < count {
            list.append(contentsOf: repeatElement(filler, count: count - list.count))
        }
    }

    subscript(scalar s: ScalarProperty) -> Double {
        get {
            switch s {
            case .positionX: position.x
            case .positionY: position.y
            case .boundsX: bounds.x
            case .boundsY: bounds.y
            case .boundsWidth: bounds.width
            case .boundsHeight: bounds.height
            case .anchorX: anchorPoint.x
            case .anchorY: anchorPoint.y
            case .translationX: transform.translation.x
            case .translationY: transform.translation.y
            case .scaleX: transform.scale.x
            case .scaleY: transform.scale.y
            case .rotation: transform.rotation
            case .opacity: opacity
            case .hidden: hidden ? 1 : 0
            case .cornerRadius: cornerRadius
            case .borderWidth: borderWidth
            case .shadowOpacity: shadowOpacity
            case .shadowOffsetX: shadowOffset.x
            case .shadowOffsetY: shadowOffset.y
            case .shadowRadius: shadowRadius
            case .lineWidth: lineWidth
            case .miterLimit: miterLimit
            case .lineDashPhase: lineDashPhase
            case .strokeStart: strokeStart
            case .strokeEnd: strokeEnd
            case .shapeRectX: shapeRect.x
            case .shapeRectY: shapeRect.y
            case .shapeRectWidth: shapeRect.width
            case .shapeRectHeight: shapeRect.height
            case .shapeCornerRadius: shapeCornerRadius
            case .arcCenterX: arcCenter.x
            case .arcCenterY: arcCenter.y
            case .arcRadius: arcRadius
            case .arcStart: arcStart
            case .arcEnd: arcEnd
            case .gradientStartX: gradientStartPoint.x
            case .gradientStartY: gradientStartPoint.y
            case .gradientEndX: gradientEndPoint.x
            case .gradientEndY: gradientEndPoint.y
            case .instanceTranslationX: instanceTransform.translation.x
            case .instanceTranslationY: instanceTransform.translation.y
            case .instanceScaleX: instanceTransform.scale.x
            case .instanceScaleY: instanceTransform.scale.y
            case .instanceRotation: instanceTransform.rotation
            case .instanceAlphaOffset: instanceAlphaOffset
            case .fontSize: fontSize
            case .color(let slot, let ch): color(slot).channel(ch)
            }
        }
        set {
            switch s {
            case .positionX: position.x = newValue
            case .positionY: position.y = newValue
            case .boundsX: bounds.x = newValue
            case .boundsY: bounds.y = newValue
            case .boundsWidth: bounds.width = newValue
            case .boundsHeight: bounds.height = newValue
            case .anchorX: anchorPoint.x = newValue
            case .anchorY: anchorPoint.y = newValue
            case .translationX: transform.translation.x = newValue
            case .translationY: transform.translation.y = newValue
            case .scaleX: transform.scale.x = newValue
            case .scaleY: transform.scale.y = newValue
            case .rotation: transform.rotation = newValue
            case .opacity: opacity = newValue
            case .hidden: hidden = newValue >= 0.5
            case .cornerRadius: cornerRadius = newValue
            case .borderWidth: borderWidth = newValue
            case .shadowOpacity: shadowOpacity = newValue
            case .shadowOffsetX: shadowOffset.x = newValue
            case .shadowOffsetY: shadowOffset.y = newValue
            case .shadowRadius: shadowRadius = newValue
            case .lineWidth: lineWidth = newValue
            case .miterLimit: miterLimit = newValue
            case .lineDashPhase: lineDashPhase = newValue
            case .strokeStart: strokeStart = newValue
            case .strokeEnd: strokeEnd = newValue
            case .shapeRectX: shapeRect.x = newValue
            case .shapeRectY: shapeRect.y = newValue
            case .shapeRectWidth: shapeRect.width = newValue
            case .shapeRectHeight: shapeRect.height = newValue
            case .shapeCornerRadius: shapeCornerRadius = newValue
            case .arcCenterX: arcCenter.x = newValue
            case .arcCenterY: arcCenter.y = newValue
            case .arcRadius: arcRadius = newValue
            case .arcStart: arcStart = newValue
            case .arcEnd: arcEnd = newValue
            case .gradientStartX: gradientStartPoint.x = newValue
            case .gradientStartY: gradientStartPoint.y = newValue
            case .gradientEndX: gradientEndPoint.x = newValue
            case .gradientEndY: gradientEndPoint.y = newValue
            case .instanceTranslationX: instanceTransform.translation.x = newValue
            case .instanceTranslationY: instanceTransform.translation.y = newValue
            case .instanceScaleX: instanceTransform.scale.x = newValue
            case .instanceScaleY: instanceTransform.scale.y = newValue
            case .instanceRotation: instanceTransform.rotation = newValue
            case .instanceAlphaOffset: instanceAlphaOffset = newValue
            case .fontSize: fontSize = newValue
            case .color(let slot, let ch):
                var c = color(slot)
                c.setChannel(ch, newValue)
                setColor(slot, c)
            }
        }
    }

    private func color(_ slot: ScalarProperty.ColorSlot) -> Color {
        switch slot {
        case .background: backgroundColor
        case .border: borderColor
        case .shadow: shadowColor
        case .fill: fillColor
        case .stroke: strokeColor
        case .text: textColor
        }
    }

    private mutating func setColor(_ slot: ScalarProperty.ColorSlot, _ c: Color) {
        switch slot {
        case .background: backgroundColor = c
        case .border: borderColor = c
        case .shadow: shadowColor = c
        case .fill: fillColor = c
        case .stroke: strokeColor = c
        case .text: textColor = c
        }
    }
}

extension Color {
    /// Channel 0…3: red, green, blue, alpha.
    public func channel(_ index: Int) -> Double {
        switch index {
        case 0: red
        case 1: green
        case 2: blue
        default: alpha
        }
    }

    public mutating func setChannel(_ index: Int, _ value: Double) {
        switch index {
        case 0: red = value
        case 1: green = value
        case 2: blue = value
        default: alpha = value
        }
    }
}
