import Foundation
import Testing
import Flipbook
@testable import FlipbookLottie
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene

/// Text layers under `--lottie-compat core-animation`, drawn as lottie-ios's
/// CoreTextRenderLayer draws them (Sources/Private/CoreAnimation/Layers/TextLayer.swift):
/// the font named by the document's `f` through CTFontCreateWithName (Helvetica, here Nimbus
/// Sans, when no font has that name), point text with its first baseline at the layer's
/// origin, a paragraph box with its first baseline a cap height below the box's top. Expected
/// baseline rows come from those rules with Nimbus Sans' cap height (718/1000 em, its OS/2
/// table) and Helvetica's ascent (1577/2048 em); the H's extent is read from Nimbus Sans'
/// AFM file (bounding box 83 0 644 729 per 1000 em).
@Suite struct CoreTextLottieTests {
    static let capHeight = 0.718, helveticaAscent = 1577.0 / 2048

    static func json(_ document: String, position: (Double, Double) = (0, 0)) -> String {
        """
        {"v": "5.7.4", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 200, "layers": [
          {"ty": 5, "nm": "Text", "ind": 1, "ip": 0, "op": 10, "st": 0,
           "ks": {"p": {"a": 0, "k": [\(position.0), \(position.1)]}},
           "t": {"d": {"k": [{"t": 0, "s": {\(document)}}]}, "a": []}}]}
        """
    }

    static func load(_ json: String, _ compat: LottieCompatibility) throws -> Scene {
        try LottieLoader.parse(
            Data(json.utf8), path: nil, options: SceneLoader.Options(lottieCompatibility: compat))
    }

    static func textLayer(_ scene: Scene) throws -> (Layer, TextContent) {
        func walk(_ l: Layer) -> [Layer] { [l] + l.sublayers.flatMap(walk) }
        let layer = try #require(
            scene.layers.flatMap(walk).first { if case .text = $0.content { true } else { false } })
        guard case .text(let text) = layer.content else { throw CancellationError() }
        return (layer, text)
    }

    /// The rows (top, bottom) holding dark pixels in column `x`'s neighbourhood.
    static func darkRows(_ scene: Scene, columns: Range<Int>) throws -> (Int, Int)? {
        let image = try StillFrame.render(scene, at: 0, size: (200, 200))
        var rows: [Int] = []
        for y in 0..<image.height
        where columns.contains(where: { x in
            let p = image.pixel(x: x, y: y)
            return p.a > 128 && p.r < 128
        }) { rows.append(y) }
        guard let top = rows.first, let bottom = rows.last else { return nil }
        return (top, bottom)
    }

    /// The last pixel row more than half covered by a shape whose bottom edge is at `bottom`.
    static func lastRow(_ bottom: Double) -> Int {
        bottom - bottom.rounded(.down) > 0.5
            ? Int(bottom.rounded(.down)) : Int(bottom.rounded(.down)) - 1
    }

    /// The first pixel row more than half covered by a shape whose top edge is at `top`.
    static func firstRow(_ top: Double) -> Int {
        top - top.rounded(.down) < 0.5 ? Int(top.rounded(.down)) : Int(top.rounded(.down)) + 1
    }

    /// The H's height in em from Nimbus Sans' AFM (`C 72 ; WX 722 ; N H ; B 83 0 644 729 ;`).
    static func hHeight() throws -> Double {
        let afm = try String(
            contentsOfFile: "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.afm",
            encoding: .utf8)
        let line = try #require(afm.split(separator: "\n").first { $0.contains("; N H ;") })
        let box = try #require(line.split(separator: ";").first { $0.hasPrefix(" B ") })
        return try #require(Double(box.split(separator: " ")[4])) / 1000
    }

    static let h = #""t": "H", "f": "NoSuchFont-Bold", "s": 100, "j": 0, "tr": 0, "fc": [0, 0, 0]"#

    /// The document's font name goes to Core Text as is; the box, its position, the line
    /// height and the alignment are kept. The lottie-web reading keeps fontconfig's family.
    @Test func paragraphDocumentBecomesACoreTextFrame() throws {
        let document =
            #""t": "Hi there", "f": "Oswald-Bold", "s": 40, "j": 2, "tr": 0, "lh": 48, "#
            + #""sz": [150, 100], "ps": [10, 20], "fc": [1, 0, 0]"#
        let (layer, text) = try Self.textLayer(Self.load(Self.json(document), .coreAnimation))
        #expect(text.font == .coreTextName("Oswald-Bold"))
        #expect(text.coreTextFrame && text.wrapped && !text.baselineOrigin)
        #expect(text.alignment == .center && text.lineHeight == 48)
        #expect(
            layer.properties.bounds.size == Size(150, 100)
                && layer.properties.position == Point(10, 20))
        let (_, web) = try Self.textLayer(Self.load(Self.json(document), .lottieWeb))
        #expect(!web.coreTextFrame && web.font == .family("Oswald-Bold"))
    }

    /// Point text: the H stands on the layer's origin (baseline y = 120).
    @Test func pointTextBaselineSitsOnTheOrigin() throws {
        let scene = try Self.load(Self.json(Self.h, position: (20, 120)), .coreAnimation)
        let (top, bottom) = try #require(try Self.darkRows(scene, columns: 20..<100))
        #expect(bottom == 119)
        #expect(top == Self.firstRow(120 - (try Self.hHeight()) * 100))
    }

    /// A paragraph box at ps (10, 30): the H's baseline a cap height (71.8) below its top.
    @Test func paragraphBoxPutsTheCapHeightAtTheTop() throws {
        let scene = try Self.load(
            Self.json(Self.h + #", "sz": [150, 120], "ps": [10, 30]"#), .coreAnimation)
        let (top, bottom) = try #require(try Self.darkRows(scene, columns: 10..<100))
        let baseline = 30 + Self.capHeight * 100
        #expect(bottom == Self.lastRow(baseline))
        #expect(top == Self.firstRow(baseline - (try Self.hHeight()) * 100))
    }

    /// Justified point text (j 3) is anchored at its frame's top-left: its baseline one
    /// Helvetica ascent (77.0) below the origin at y = 20.
    @Test func justifiedPointTextHangsFromTheOrigin() throws {
        let scene = try Self.load(
            Self.json(
                Self.h.replacingOccurrences(of: #""j": 0"#, with: #""j": 3"#),
                position: (20, 20)), .coreAnimation)
        let (top, bottom) = try #require(try Self.darkRows(scene, columns: 20..<100))
        let baseline = 20 + Self.helveticaAscent * 100
        #expect(bottom == Self.lastRow(baseline))
        #expect(top == Self.firstRow(baseline - (try Self.hHeight()) * 100))
    }

    /// No fill colour: CoreTextRenderLayer builds no fill frame, so nothing is drawn.
    @Test func noFillColourDrawsNothing() throws {
        let document = Self.h.replacingOccurrences(of: #", "fc": [0, 0, 0]"#, with: "")
        let scene = try Self.load(Self.json(document, position: (20, 120)), .coreAnimation)
        #expect(try Self.darkRows(scene, columns: 0..<200) == nil)
    }
}
