import FlipbookGeometry
@testable import FlipbookScene
import Testing

@Suite struct CanvasTests {
    @Test func defaults() throws {
        let s = try scene("layers: []", header: "canvas: { size: [375, 667] }\n")
        #expect(s.version == 1)
        #expect(s.canvas.size == Size(375, 667))
        #expect(s.canvas.scale == 1)
        #expect(s.canvas.snap == .round)
        #expect(s.canvas.background == .white)
        #expect(s.canvas.fps == 30)
        #expect(s.canvas.duration == 1)
        #expect(s.canvas.loop == 0)
        #expect(s.sourcePath == "test.yaml")
        #expect(s.name == "test")
    }

    @Test func everyKey() throws {
        let s = try scene(
            "",
            header: """
                version: 1
                canvas: { size: [375, 667], scale: 3, snap: half, background: clear, fps: 60, duration: 2.5, loop: 3 }
                """)
        #expect(s.canvas.scale == 3)
        #expect(s.canvas.snap == .half)
        #expect(s.canvas.background == .clear)
        #expect(s.canvas.fps == 60)
        #expect(s.canvas.duration == 2.5)
        #expect(s.canvas.loop == 3)
    }

    @Test func durationDefaultsToTheEndOfTheLastAnimation() throws {
        let s = try scene(
            """
            layers: [{ id: a }]
            animations:
              - { set: { a.opacity: 0 }, at: 0.5, duration: 1, repeat: 2 }
              - { set: { a.opacity: 1 }, at: 0, duration: 1, repeat: infinity }
            """, header: "canvas: { size: [10, 10] }\n")
        #expect(s.canvas.duration == 2.5)
    }
}

@Suite struct ValueTests {
    static let colorTable: [(String, [Double])] = [
        ("\"#fff\"", [1.0, 1, 1, 1]),
        ("\"#0f08\"", [0, 1, 0, 8.0 / 15]),
        ("\"#ff8000\"", [1, 128.0 / 255, 0, 1]),
        ("\"#FF000080\"", [1, 0, 0, 128.0 / 255]),
        ("[0.5, 0.25, 1]", [0.5, 0.25, 1, 1]),
        ("[1, 0, 0, 0.5]", [1, 0, 0, 0.5]),
        ("orange", [1, 0.5, 0, 1]),
        ("gray", [0.5, 0.5, 0.5, 1]),
        ("grey", [0.5, 0.5, 0.5, 1]),
        ("lightGray", [2.0 / 3, 2.0 / 3, 2.0 / 3, 1]),
        ("darkGray", [1.0 / 3, 1.0 / 3, 1.0 / 3, 1]),
        ("brown", [0.6, 0.4, 0.2, 1]),
        ("purple", [0.5, 0, 0.5, 1]),
        ("magenta", [1, 0, 1, 1]),
        ("cyan", [0, 1, 1, 1]),
        ("yellow", [1, 1, 0, 1]),
        ("clear", [0, 0, 0, 0]),
        ("red", [1, 0, 0, 1]),
    ]

    @Test(arguments: colorTable)
    func colors(_ text: String, _ expected: [Double]) throws {
        let s = try scene("layers: [{ id: a, backgroundColor: \(text) }]")
        #expect(close(channels(s.layers[0].properties.backgroundColor), expected))
    }

    @Test func noneIsClearForShapeColors() throws {
        let s = try scene(
            "layers: [{ id: a, rect: [0, 0, 1, 1], fillColor: none, strokeColor: blue }]")
        #expect(s.layers[0].properties.fillColor == .clear)
        #expect(s.layers[0].properties.strokeColor == Color(red: 0, green: 0, blue: 1))
    }

    @Test func frameUsesTheAnchorPointWhateverTheKeyOrder() throws {
        let s = try scene(
            """
            layers:
              - id: a
                frame: [10, 20, 100, 50]
                anchorPoint: [0, 1]
                bounds: [5, 6, 1, 1]
              - { id: b, frame: [10, 20, 100, 50] }
            """)
        #expect(s.layers[0].properties.position == Point(10, 70))
        #expect(s.layers[0].properties.bounds == Rect(5, 6, 100, 50))
        #expect(s.layers[1].properties.position == Point(60, 45))
        #expect(s.layers[1].properties.bounds == Rect(0, 0, 100, 50))
    }

    @Test func layerPropertiesAndTransforms() throws {
        let s = try scene(
            """
            layers:
              - id: a
                position: [1, 2]
                bounds: [0, 0, 30, 40]
                transform: { translation: [3, 4], scale: [2, 3], rotation: 45 }
                opacity: 0.5
                hidden: true
                backgroundColor: red
                cornerRadius: 4
                borderWidth: 2
                borderColor: "#00ff00"
                masksToBounds: true
                shadowColor: blue
                shadowOpacity: 0.3
                shadowOffset: [0, 5]
                shadowRadius: 8
                snap: floor
              - { id: b, transform: { scale: 2 } }
            """)
        let p = s.layers[0].properties
        #expect(p.position == Point(1, 2))
        #expect(
            p.transform
                == LayerTransform(translation: Point(3, 4), scale: Point(2, 3), rotation: 45))
        #expect(p.opacity == 0.5 && p.hidden && p.masksToBounds)
        #expect(p.cornerRadius == 4 && p.borderWidth == 2)
        #expect(p.borderColor == Color(red: 0, green: 1, blue: 0))
        #expect(p.shadowColor == Color(red: 0, green: 0, blue: 1))
        #expect(p.shadowOpacity == 0.3 && p.shadowOffset == Point(0, 5) && p.shadowRadius == 8)
        #expect(s.layers[0].snap == .floor)
        #expect(s.layers[0].line == 4)  // the header takes lines 1–2
        #expect(s.layers[1].snap == nil)
        #expect(s.layers[1].properties.transform.scale == Point(2, 2))
    }

    @Test func shadowDefaultsAreCoreAnimations() throws {
        let p = try scene("layers: [{ id: a }]").layers[0].properties
        #expect(p.shadowOffset == Point(0, -3) && p.shadowRadius == 3 && p.shadowOpacity == 0)
    }
}

@Suite struct ContentTests {
    @Test func rectTakesTheLayersCornerRadius() throws {
        let s = try scene(
            """
            layers:
              - { id: a, rect: [1, 2, 30, 40], cornerRadius: 6 }
              - { id: b, rect: { rect: [0, 0, 10, 10], cornerRadius: 3 }, cornerRadius: 9 }
            """)
        guard case .shape(let shape) = s.layers[0].content, case .rect = shape.geometry else {
            Issue.record("not a rect shape")
            return
        }
        #expect(s.layers[0].properties.shapeRect == Rect(1, 2, 30, 40))
        #expect(s.layers[0].properties.shapeCornerRadius == 6)
        #expect(s.layers[0].properties.cornerRadius == 6)
        #expect(s.layers[1].properties.shapeCornerRadius == 3)
        #expect(s.layers[1].properties.cornerRadius == 9)
    }

    @Test func strokeKeys() throws {
        let s = try scene(
            """
            layers:
              - id: a
                path: "M0 0 L10 10"
                fillRule: evenOdd
                strokeColor: black
                lineWidth: 3
                lineCap: round
                lineJoin: bevel
                miterLimit: 4
                lineDashPattern: [4, 2]
                lineDashPhase: 1
                strokeStart: 0.25
                strokeEnd: 0.75
            """)
        guard case .shape(let shape) = s.layers[0].content, case .path(let path) = shape.geometry
        else {
            Issue.record("not a path shape")
            return
        }
        #expect(path.elements == [.move(.zero), .line(Point(10, 10))])
        #expect(shape.fillRule == .evenOdd && shape.lineCap == .round && shape.lineJoin == .bevel)
        let p = s.layers[0].properties
        #expect(
            p.lineWidth == 3 && p.miterLimit == 4 && p.lineDashPattern == [4, 2]
                && p.lineDashPhase == 1)
        #expect(p.strokeStart == 0.25 && p.strokeEnd == 0.75)
        #expect(p.fillColor == .black)
    }

    @Test func ellipseAndArc() throws {
        let s = try scene(
            """
            layers:
              - { id: e, ellipse: [0, 0, 20, 10] }
              - { id: r, arc: { center: [5, 6], radius: 4, start: -90, end: 180, clockwise: false } }
              - { id: d, arc: { center: [0, 0], radius: 1, end: 90 } }
            """)
        guard case .shape(let e) = s.layers[0].content, case .ellipse = e.geometry,
            case .shape(let r) = s.layers[1].content, case .arc(let clockwise) = r.geometry,
            case .shape(let d) = s.layers[2].content, case .arc(let defaultClockwise) = d.geometry
        else {
            Issue.record("wrong content")
            return
        }
        #expect(s.layers[0].properties.shapeRect == Rect(0, 0, 20, 10))
        let p = s.layers[1].properties
        #expect(
            p.arcCenter == Point(5, 6) && p.arcRadius == 4 && p.arcStart == -90 && p.arcEnd == 180)
        #expect(!clockwise && defaultClockwise)
    }

    @Test func gradients() throws {
        let s = try scene(
            """
            layers:
              - { id: g, gradient: { colors: [white, clear] } }
              - id: h
                gradient: { type: radial, colors: [red, blue, "#000"], locations: [0, 0.2, 1], startPoint: [0, 0.5], endPoint: [1, 0.5] }
            """)
        guard case .gradient(let g) = s.layers[0].content,
            case .gradient(let h) = s.layers[1].content
        else {
            Issue.record("not gradients")
            return
        }
        #expect(g == .axial && h == .radial)
        let p = s.layers[0].properties
        #expect(p.gradientColors == [.white, .clear] && p.gradientLocations.isEmpty)
        #expect(p.gradientStartPoint == Point(0.5, 0) && p.gradientEndPoint == Point(0.5, 1))
        let q = s.layers[1].properties
        #expect(q.gradientLocations == [0, 0.2, 1] && q.gradientColors.count == 3)
        #expect(q.gradientStartPoint == Point(0, 0.5) && q.gradientEndPoint == Point(1, 0.5))
    }

    @Test func masksGetAnIdAndNest() throws {
        let s = try scene(
            """
            layers:
              - id: card
                mask: { ellipse: [0, 0, 10, 10], sublayers: [{ id: dot }] }
              - id: other
                mask: { id: hole, opacity: 0.5 }
            """)
        #expect(s.layers[0].mask?.id == "card.mask")
        #expect(s.layers[0].mask?.sublayers.first?.id == "dot")
        #expect(s.layers[1].mask?.id == "hole")
        #expect(s.layers[1].mask?.properties.opacity == 0.5)
    }

    @Test func replicator() throws {
        let s = try scene(
            """
            layers:
              - id: r
                instanceCount: 5
                instanceDelay: 0.1
                instanceTransform: { rotation: 30, translation: [10, 0] }
                instanceAlphaOffset: -0.1
                sublayers: [{ id: dot }]
              - { id: plain }
            """)
        #expect(s.layers[0].replicator?.instanceCount == 5)
        #expect(s.layers[0].replicator?.instanceDelay == 0.1)
        #expect(
            s.layers[0].properties.instanceTransform
                == LayerTransform(translation: Point(10, 0), rotation: 30))
        #expect(s.layers[0].properties.instanceAlphaOffset == -0.1)
        #expect(s.layers[1].replicator == nil)
    }
}

@Suite struct FollowTests {
    @Test func translationFollowsAScrollOffset() throws {
        let s = try scene(
            """
            layers:
              - { id: pager, bounds: [0, 0, 375, 667] }
              - id: bg
                transform:
                  translation: [{ follow: pager.bounds.x, map: [[0, 0], [375, 475]] }, 0]
                opacity: { follow: pager.bounds.origin.x, map: [[0, 1], [100, 0.5], [375, 0]] }
            """)
        let bg = s.layers[1]
        #expect(
            bg.follows.sorted { $0.component > $1.component } == [
                FollowBinding(
                    component: "transform.translation.x", sourceLayer: "pager",
                    sourceComponent: "bounds.x",
                    map: [Point(0, 0), Point(375, 475)]),
                FollowBinding(
                    component: "opacity", sourceLayer: "pager", sourceComponent: "bounds.origin.x",
                    map: [Point(0, 1), Point(100, 0.5), Point(375, 0)]),
            ])
        #expect(bg.properties.transform.translation == Point(0, 0))
        #expect(bg.properties.opacity == 1)
    }

    @Test func aBroadcastScaleFollowsOnBothAxes() throws {
        let s = try scene(
            """
            layers:
              - { id: a, position: [0, { follow: b.position.x, map: [[0, 10], [1, 20]] }] }
              - { id: b, transform: { scale: { follow: a.opacity, map: [[0, 2], [1, 3]] } } }
            """)
        #expect(s.layers[0].follows.map(\.component) == ["position.y"])
        #expect(s.layers[0].properties.position == Point(0, 10))
        #expect(s.layers[1].follows.map(\.component) == ["transform.scale.x", "transform.scale.y"])
        #expect(s.layers[1].properties.transform.scale == Point(2, 2))
    }

    @Test func everyComponentNameIsASingleCatalogScalar() throws {
        let s = try scene(
            """
            layers:
              - id: a
                position: [{ follow: a.opacity, map: [[0, 0], [1, 1]] }, 0]
                bounds: [0, 0, { follow: a.opacity, map: [[0, 0], [1, 1]] }, { follow: a.opacity, map: [[0, 0], [1, 1]] }]
                rect: { rect: [0, 0, 1, 1], cornerRadius: { follow: a.opacity, map: [[0, 0], [1, 1]] } }
                instanceTransform: { rotation: { follow: a.opacity, map: [[0, 0], [1, 1]] } }
                strokeEnd: { follow: a.opacity, map: [[0, 0], [1, 1]] }
            """)
        let names = s.layers[0].follows.map(\.component)
        #expect(
            names == [
                "position.x", "bounds.size.width", "bounds.size.height", "strokeEnd",
                "rect.cornerRadius", "instanceTransform.rotation",
            ])
        for name in names { #expect(PropertyCatalog.info(for: name)?.components.count == 1) }
    }
}
