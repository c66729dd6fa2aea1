import Testing
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import FlipbookTimeline
@testable import FlipbookRender

/// Layer shadows, checked against the Gaussian they stand for: beside a long straight
/// edge, a blurred half-plane has coverage Φ(−d/σ) at distance d outside the edge.
@Suite struct ShadowTests {
    static func square(configure: (inout LayerProperties) -> Void) -> Pixmap {
        var p = LayerProperties()
        p.bounds = Rect(0, 0, 40, 40)
        p.position = Point(40, 40)
        p.backgroundColor = .black
        p.shadowColor = Color(red: 1, green: 0, blue: 0)
        p.shadowOpacity = 1
        configure(&p)
        return LayerCompositingTests.render(
            [Layer(id: "card", properties: p)], size: Size(100, 100))
    }

    /// Φ for the normal distribution.
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }

    @Test func hardShadowIsTheOffsetSilhouette() {
        let out = Self.square {
            $0.shadowRadius = 0; $0.shadowOffset = Point(5, 5)
        }
        // under the offset copy only
        #expect(LayerCompositingTests.rgba(out, 62, 62) == [255, 0, 0, 255])
        // the layer stays on top
        #expect(LayerCompositingTests.rgba(out, 30, 30) == [0, 0, 0, 255])
        #expect(LayerCompositingTests.rgba(out, 66, 66) == [255, 255, 255, 255])
        // nothing above-left
        #expect(LayerCompositingTests.rgba(out, 21, 18) == [255, 255, 255, 255])
    }

    /// σ = shadowRadius = 4 pt at 1×; the shadow's bottom edge is at y = 60 + 10 = 70. The
    /// pixel row 72 has its center 2.5 px outside: coverage Φ(−2.5/4) ≈ 0.266, so green
    /// is 255·(1 − 0.266) ≈ 187 over white. Three box blurs approximate the Gaussian
    /// within a few levels.
    @Test func blurFollowsTheGaussianBesideAnEdge() {
        let out = Self.square {
            $0.shadowRadius = 4; $0.shadowOffset = Point(0, 10)
        }
        for (row, distance) in [(70, 0.5), (72, 2.5), (75, 5.5)] {
            let expected = 255 * (1 - Self.phi(-distance / 4))
            let green = Double(LayerCompositingTests.rgba(out, 40, row)[1])
            #expect(abs(green - expected) <= 8, "row \(row): green \(green), expected \(expected)")
        }
        #expect(LayerCompositingTests.rgba(out, 40, 90) == [255, 255, 255, 255])
    }

    /// The default offset (0, −3) puts the shadow above the layer, as on iOS.
    @Test func defaultOffsetPointsUp() {
        let out = Self.square { $0.shadowRadius = 0 }
        #expect(LayerCompositingTests.rgba(out, 40, 18) == [255, 0, 0, 255])
        #expect(LayerCompositingTests.rgba(out, 40, 61) == [255, 255, 255, 255])
    }

    @Test func masksToBoundsRemovesTheShadow() {
        let out = Self.square {
            $0.shadowRadius = 0; $0.shadowOffset = Point(5, 5); $0.masksToBounds = true
        }
        #expect(LayerCompositingTests.rgba(out, 62, 62) == [255, 255, 255, 255])
    }

    /// shadowOpacity 0.5 and layer opacity 0.5 multiply: 25 % red over white.
    @Test func opacitiesMultiply() {
        let out = Self.square {
            $0.shadowRadius = 0
            $0.shadowOffset = Point(5, 5)
            $0.shadowOpacity = 0.5
            $0.opacity = 0.5
        }
        #expect(
            LayerCompositingTests.close(
                LayerCompositingTests.rgba(out, 62, 62), [255, 191, 191, 255]))
    }
}

#if canImport(Glibc)
    import Glibc
#endif
