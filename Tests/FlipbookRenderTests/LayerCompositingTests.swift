import Testing
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline
@testable import FlipbookRender

/// Layer-level drawing rules, each checked at pixels whose value follows from the rule by
/// hand arithmetic (premultiplied source-over: out = src + dst·(1 − αsrc)).
@Suite struct LayerCompositingTests {
    static func layer(
        _ id: String, frame: Rect, color: Color? = nil,
        configure: (inout LayerProperties) -> Void = { _ in },
        content: LayerContent = .none, sublayers: [Layer] = [], mask: Layer? = nil
    ) -> Layer {
        var p = LayerProperties()
        p.bounds = Rect(0, 0, frame.width, frame.height)
        p.position = Point(frame.x + frame.width / 2, frame.y + frame.height / 2)
        if let color { p.backgroundColor = color }
        configure(&p)
        return Layer(id: id, properties: p, content: content, sublayers: sublayers, mask: mask)
    }

    static func render(
        _ layers: [Layer], size: Size = Size(40, 40), scale: Double = 1, snap: SnapMode = .none,
        background: Color = .white
    ) -> Pixmap {
        let scene = Scene(
            canvas: Canvas(size: size, scale: scale, snap: snap, background: background),
            layers: layers)
        return FrameRenderer(scale: scale).render(Timeline(scene: scene).frame(at: 0))
    }

    static func rgba(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] {
        let px = p.pixel(x: x, y: y)
        return [Int(px.r), Int(px.g), Int(px.b), Int(px.a)]
    }

    static func close(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static let red = Color(red: 1, green: 0, blue: 0)

    /// Two overlapping opaque red squares in a group of opacity 0.5 over white: the group
    /// is flattened first, so the overlap is the same 50 % red as the rest:
    /// (255, 255·0.5, 255·0.5) = (255, 128, 128) after rounding; drawn one by one, the
    /// overlap would be 75 % red (255, 64, 64).
    @Test func groupOpacityDoesNotDarkenOverlaps() {
        let group = Self.layer(
            "group", frame: Rect(0, 0, 40, 40), configure: { $0.opacity = 0.5 },
            sublayers: [
                Self.layer("a", frame: Rect(0, 0, 20, 20), color: Self.red),
                Self.layer("b", frame: Rect(10, 10, 20, 20), color: Self.red),
            ])
        let out = Self.render([group])
        #expect(Self.close(Self.rgba(out, 5, 5), [255, 128, 128, 255]))
        #expect(Self.close(Self.rgba(out, 15, 15), [255, 128, 128, 255]))
        #expect(Self.rgba(out, 35, 35) == [255, 255, 255, 255])
    }

    /// A single drawing with opacity 0.5 needs no group and gives the same value.
    @Test func singleDrawingTakesOpacityDirectly() {
        let out = Self.render([
            Self.layer(
                "a", frame: Rect(0, 0, 20, 20), color: Self.red, configure: { $0.opacity = 0.5 })
        ])
        #expect(Self.close(Self.rgba(out, 10, 10), [255, 128, 128, 255]))
    }

    /// The mask's alpha, times the mask's opacity, scales the layer: a mask covering the
    /// left half at opacity 0.5 leaves the right half unpainted and the left half 50 % red.
    @Test func maskAlphaTimesMaskOpacity() {
        let mask = Self.layer(
            "m", frame: Rect(0, 0, 10, 20), color: .black, configure: { $0.opacity = 0.5 })
        let out = Self.render([
            Self.layer("a", frame: Rect(0, 0, 20, 20), color: Self.red, mask: mask)
        ])
        #expect(Self.close(Self.rgba(out, 5, 10), [255, 128, 128, 255]))
        #expect(Self.rgba(out, 15, 10) == [255, 255, 255, 255])
    }

    /// A hidden mask hides the layer.
    @Test func hiddenMaskHidesTheLayer() {
        let mask = Self.layer(
            "m", frame: Rect(0, 0, 20, 20), color: .black, configure: { $0.hidden = true })
        let out = Self.render([
            Self.layer("a", frame: Rect(0, 0, 20, 20), color: Self.red, mask: mask)
        ])
        #expect(Self.rgba(out, 10, 10) == [255, 255, 255, 255])
    }

    /// masksToBounds with cornerRadius 10 on a 20×20 layer clips a sublayer that
    /// overflows: pixel (0, 0) is outside the circle of the corner (its center is 13.4 px
    /// from the corner's center at (10, 10), radius 10), pixel (10, 10) inside, and the
    /// overflow at (25, 5) is clipped away.
    @Test func masksToBoundsClipsToTheRoundedBounds() {
        let clip = Self.layer(
            "clip", frame: Rect(0, 0, 20, 20),
            configure: {
                $0.masksToBounds = true
                $0.cornerRadius = 10
            }, sublayers: [Self.layer("fill", frame: Rect(-10, -10, 40, 40), color: Self.red)])
        let out = Self.render([clip])
        #expect(Self.rgba(out, 0, 0) == [255, 255, 255, 255])
        #expect(Self.rgba(out, 10, 10) == [255, 0, 0, 255])
        #expect(Self.rgba(out, 25, 5) == [255, 255, 255, 255])
    }

    /// A 2-pt border is drawn inside the bounds, over the sublayers: columns 10 and 11 of
    /// a layer at x = 10 are border, column 12 is the sublayer.
    @Test func borderIsInsideAndOnTop() {
        let boxed = Self.layer(
            "box", frame: Rect(10, 10, 20, 20),
            configure: {
                $0.borderWidth = 2
                $0.borderColor = .black
            }, sublayers: [Self.layer("fill", frame: Rect(0, 0, 20, 20), color: Self.red)])
        let out = Self.render([boxed])
        #expect(Self.rgba(out, 10, 20) == [0, 0, 0, 255])
        #expect(Self.rgba(out, 11, 20) == [0, 0, 0, 255])
        #expect(Self.rgba(out, 12, 20) == [255, 0, 0, 255])
        #expect(Self.rgba(out, 9, 20) == [255, 255, 255, 255])
    }

    /// The brief's snapping example: a 116-pt face at x = 129.5 pt is 388.5 px at 3×, which
    /// `round` moves to 389 px (far edge 736.5 → 737). So column 388 is background, 389 and
    /// 736 fully covered, 737 background. Without snapping, 388 and 736 are half covered.
    @Test func roundSnapsTheFrameToDevicePixels() {
        let face = [Self.layer("face", frame: Rect(129.5, 0, 116, 10), color: .black)]
        let snapped = Self.render(face, size: Size(375, 10), scale: 3, snap: .round)
        #expect(Self.rgba(snapped, 388, 5) == [255, 255, 255, 255])
        #expect(Self.rgba(snapped, 389, 5) == [0, 0, 0, 255])
        #expect(Self.rgba(snapped, 736, 5) == [0, 0, 0, 255])
        #expect(Self.rgba(snapped, 737, 5) == [255, 255, 255, 255])
        let unsnapped = Self.render(face, size: Size(375, 10), scale: 3, snap: .none)
        #expect(Self.close(Self.rgba(unsnapped, 388, 5), [128, 128, 128, 255]))
        #expect(Self.close(Self.rgba(unsnapped, 736, 5), [128, 128, 128, 255]))
    }

    @Test(arguments: [(SnapMode.floor, 10, 20), (.ceil, 11, 21), (.round, 10, 20)])
    func snapModesMoveEdges(_ row: (SnapMode, Int, Int)) {
        // x = 10.4 … 20.4: floor → 10…20, ceil → 11…21, round → 10…20.
        let out = Self.render(
            [Self.layer("a", frame: Rect(10.4, 0, 10, 10), color: .black)], snap: row.0)
        #expect(Self.rgba(out, row.1, 5) == [0, 0, 0, 255])
        #expect(Self.rgba(out, row.1 - 1, 5) == [255, 255, 255, 255])
        #expect(Self.rgba(out, row.2 - 1, 5) == [0, 0, 0, 255])
        #expect(Self.rgba(out, row.2, 5) == [255, 255, 255, 255])
    }

    /// A 20×4 bar rotated 90° about its center (20, 20) becomes a vertical 4×20 bar:
    /// x 18…22, y 10…30.
    @Test func rotationTurnsAboutTheAnchorPoint() {
        let bar = Self.layer(
            "bar", frame: Rect(10, 18, 20, 4), color: .black,
            configure: { $0.transform.rotation = 90 })
        let out = Self.render([bar])
        #expect(Self.rgba(out, 20, 11) == [0, 0, 0, 255])
        #expect(Self.rgba(out, 20, 28) == [0, 0, 0, 255])
        #expect(Self.rgba(out, 12, 20) == [255, 255, 255, 255])
        #expect(Self.rgba(out, 17, 20) == [255, 255, 255, 255])
    }

    /// Replicator: 3 instances of a 5×5 square, each moved 10 pt further right.
    @Test func replicatorDrawsEachInstance() {
        var rep = LayerProperties()
        rep.bounds = Rect(0, 0, 40, 10)
        rep.position = Point(20, 5)
        rep.instanceTransform = LayerTransform(translation: Point(10, 0))
        let scene = Scene(
            canvas: Canvas(size: Size(40, 10), snap: .none),
            layers: [
                Layer(
                    id: "rep", properties: rep, replicator: Replicator(instanceCount: 3),
                    sublayers: [Self.layer("sq", frame: Rect(0, 0, 5, 5), color: .black)])
            ])
        let out = FrameRenderer(scale: 1).render(Timeline(scene: scene).frame(at: 0))
        for x in [2, 12, 22] { #expect(Self.rgba(out, x, 2) == [0, 0, 0, 255]) }
        for x in [7, 17, 32] { #expect(Self.rgba(out, x, 2) == [255, 255, 255, 255]) }
    }

    /// CAGradientLayer's default direction is top to bottom; black → white over 256 rows
    /// gives row y the value 255·(y + 0.5)/256 at pixel centers.
    @Test func gradientLayerDefaultsToVertical() {
        var p = LayerProperties()
        p.bounds = Rect(0, 0, 4, 256)
        p.position = Point(2, 128)
        p.gradientColors = [.black, .white]
        let out = Self.render(
            [Layer(id: "g", properties: p, content: .gradient(.axial))], size: Size(4, 256))
        for y in [0, 64, 128, 200, 255] {
            let expected = 255 * (Double(y) + 0.5) / 256
            #expect(abs(Double(Self.rgba(out, 1, y)[0]) - expected) <= 1.5, "row \(y)")
        }
    }

    /// A layer scaled to 0 draws nothing (the card before it pops in).
    @Test func zeroScaleDrawsNothing() {
        let out = Self.render([
            Self.layer(
                "a", frame: Rect(0, 0, 20, 20), color: Self.red,
                configure: {
                    $0.transform.scale = Point(0, 0)
                })
        ])
        #expect(Self.rgba(out, 10, 10) == [255, 255, 255, 255])
    }
}
