import Foundation
import Testing
import Flipbook
import FlipbookCodecs
import FlipbookLottie
import FlipbookRaster
import FlipbookScene
import FlipbookTesting

/// Files that break a rule of the format but that players open (issue 24 §1): each renders
/// with one warning line (exit 0), and `--strict` makes the warning exit 2. Every fixture
/// in Playable/ draws a red 10×10 square at the top left beside its flaw; ThorVG
/// (thorvg-python 1.1.3) and rlottie (rlottie-python 1.3.8) were run on each: ThorVG
/// draws that square, (230, 26, 26) at (5, 5), in every one, and, but for one case noted
/// below, nothing at the centre. rlottie refuses seven of them (the four values of the
/// wrong shape, a layer or shape item that is not an object, a layer index that is a
/// string), draws a layer without in and out points, and hides the square under a mask of
/// an unknown mode or a matte naming no layer; where the two differ, each case says which
/// one Flipbook follows.
@Suite struct PlayableFileTests {
    struct Case: CustomStringConvertible, Sendable {
        var file: String
        /// What the players do with the flaw, which Flipbook then does too.
        var players: String
        var warning: String
        var description: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "missing_parent.json",
            players: "ThorVG and rlottie draw layer A as if it had no parent",
            warning: "parent `42` names no layer in this composition (drawn unparented)"),
        Case(
            file: "missing_precomp_asset.json",
            players:
                "ThorVG and rlottie skip precomposition P, whose asset `nope` is missing, and draw the rest",
            warning: "precomposition `nope` names no asset (skipped)"),
        // ThorVG 1.1.3 instead draws the type-99 layer's shapes (a blue square at the centre).
        Case(
            file: "unknown_layer_type.json", players: "rlottie skips the layer of type 99",
            warning: "unknown layer type 99 (skipped)"),
        Case(
            file: "unknown_shape_type.json",
            players: "ThorVG and rlottie skip the shape item `zq` and fill the rect",
            warning: "shape item `zq`"),
        Case(
            file: "unknown_effect_type.json",
            players: "ThorVG and rlottie draw the layer without effect type 99",
            warning: "effect `Future effect`"),
        Case(
            file: "wrong_shape_opacity.json",
            players: "ThorVG draws layer A, whose opacity is a string, at the default 100 %",
            warning: "`layers[0].ks.o.k`: expected an opacity in percent"),
        Case(
            file: "wrong_shape_scale.json",
            players: "ThorVG draws layer A, whose scale is null, at the default 100 %",
            warning: "`layers[0].ks.s.k`: expected a scale"),
        Case(
            file: "wrong_shape_roundness.json",
            players: "ThorVG draws the rect, whose roundness is a string, with square corners",
            warning: "`layers[0].shapes[0].it[0].r`: expected a corner radius"),
        Case(
            file: "wrong_shape_path.json",
            players: "ThorVG draws layer D without the shape whose path keyframe is a string",
            warning: "`layers[1].shapes[0].ks.k[0].s`: expected a path"),
        Case(
            file: "bad_base64_image.json",
            players: "ThorVG and rlottie draw the file without the image its bad base64 holds",
            warning: "the data: URI of image asset `img` is not valid base64 (skipped)"),
        Case(
            file: "undecodable_image.json",
            players: "ThorVG and rlottie draw the file without its embedded GIF",
            warning: "asset `img` (embedded): not a PNG, JPEG or WebP image"),
        Case(
            file: "layer_not_an_object.json",
            players: "ThorVG draws the file without `layers[0]`, a string",
            warning: "`layers[0]`: expected a layer object, got a string (left out)"),
        // ThorVG instead draws the layer without a type as a shape layer.
        Case(
            file: "layer_without_type.json", players: "rlottie leaves out the layer without `ty`",
            warning: "`layers[0]`: missing the layer type `ty` (left out)"),
        // rlottie instead draws the layer for the whole animation.
        Case(
            file: "layer_without_in_out.json",
            players: "ThorVG leaves out the layer without `ip` and `op`",
            warning: "`layers[0]`: missing `ip` and `op` (left out)"),
        Case(
            file: "layer_index_string.json",
            players: "ThorVG draws layer A, whose `ind` is a string, as a layer without an index",
            warning: "`layers[0].ind`: expected the layer index `ind` (an integer), got a string"),
        Case(
            file: "shape_item_not_an_object.json",
            players: "ThorVG draws layer A without the shape item that is a string",
            warning: "`layers[0].shapes[0].it[0]`: expected a shape item object"),
        // rlottie instead hides the layer.
        Case(
            file: "matte_target_missing.json",
            players: "ThorVG draws layer A, whose matte `tp` names no layer, without a matte",
            warning: "`layers[0].tp`: no layer in this composition has `ind` 42 (left out)"),
        // rlottie instead applies the mask somehow and hides the square.
        Case(
            file: "unknown_mask_mode.json",
            players: "ThorVG draws layer A without its mask of mode `q`",
            warning: "`layers[0].masksProperties[0].mode`: expected a mask mode"),
        Case(
            file: "unknown_dash_kind.json",
            players: "ThorVG and rlottie draw the stroke without the dash entry of kind `q`",
            warning: "`layers[0].shapes[0].it[1].d[0].n`: expected a dash kind"),
    ]

    static let folder = GoldenCheck.folder("Playable")

    @Test(arguments: cases)
    func rendersWithOneWarning(_ c: Case) throws {
        let out = LottieCommandTests.temporary("playable.png")
        let r = try LottieCommandTests.run([
            "still", Self.folder + "/" + c.file, "--at", "0%", "--size", "100x100",
            "-o", out,
        ])
        #expect(r.status == 0, "\(c.file) (\(c.players)): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.contains(c.warning), "\(c.file): \(r.stderr)")
        let image = try PNGCodec.read(path: out)
        let square = image.pixel(x: 5, y: 5), centre = image.pixel(x: 50, y: 50)
        #expect(
            square.r == 230 && square.g == 26 && square.b == 26 && square.a == 255,
            "\(c.file): \(square)")
        #expect(centre.a == 0, "\(c.file): \(centre)")
    }

    @Test(arguments: cases)
    func strictRefuses(_ c: Case) throws {
        let r = try LottieCommandTests.run(["validate", "--strict", Self.folder + "/" + c.file])
        #expect(
            r.status == 2 && r.stderr.contains("--strict") && r.stderr.contains(c.warning),
            "\(c.file): \(r.stderr)")
    }
}

/// An image embedded as `data:image/webp` (lottie-ios decodes WebP; lottie-web leaves it
/// to the browser, which does too): drawn through libwebp. The image is the 4×3 lossless
/// WebP of WebPCodecTests (written by Pillow from known pixels), placed at the origin of a
/// 4×3 composition, so the still is exactly its pixels.
@Suite struct EmbeddedWebPTests {
    static let webp =
        "UklGRmQAAABXRUJQVlA4TFgAAAAvA4AAEF9gpm0bS2VQnIM9DHtHw0zAJIOP+qQykS+KAaCBOjAS6D9/mJFkpo2UvipWRkQhD18E8BgD0AtsATv2Ndn5n72ra4EggIQnjgg2GG+DVSP6H2Y9"
    static let pixels: [UInt8] = [
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 0,
        10, 20, 30, 128, 200, 100, 50, 255, 0, 0, 0, 255, 255, 255, 0, 64,
        1, 2, 3, 4, 90, 90, 90, 255, 0, 128, 255, 200, 255, 0, 255, 255,
    ]

    @Test func embeddedWebPImageDraws() throws {
        let json =
            #"{"v":"5.7.4","fr":10,"ip":0,"op":10,"w":4,"h":3,"assets":[{"id":"img","w":4,"h":3,"u":"","p":"data:image/webp;base64,\#(Self.webp)","e":1}],"layers":[{"ty":2,"refId":"img","ind":1,"ip":0,"op":10,"st":0,"ks":{}}]}"#
        let path = NSTemporaryDirectory() + "webp-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try LottieSupport.still(path, progress: 0, width: 4, height: 3)
        #expect(image.data == Pixmap(width: 4, height: 3, straightRGBA: Self.pixels).data)
    }

    /// Players skip an image they cannot decode, and so does the renderer (PlayableFileTests'
    /// undecodable_image.json), but an image a limit refuses stays an error: here the 4×3
    /// WebP against a limit of 11 pixels.
    @Test func anImageOverALimitStaysAnError() throws {
        let json =
            #"{"v":"5.7.4","fr":10,"ip":0,"op":10,"w":4,"h":3,"assets":[{"id":"img","w":4,"h":3,"u":"","p":"data:image/webp;base64,\#(Self.webp)","e":1}],"layers":[{"ty":2,"refId":"img","ind":1,"ip":0,"op":10,"st":0,"ks":{}}]}"#
        let scene = try LottieLoader.parse(Data(json.utf8), path: nil)
        var limits = ResourceLimits()
        limits.maxPixels = 11
        #expect(throws: RenderError.self) {
            try SceneRenderer(
                checked: scene, scale: 1, fitting: nil, fps: nil, limits: limits, timings: nil)
        }
        let renderer = try SceneRenderer(
            checked: scene, scale: 1, fitting: nil, fps: nil, limits: .default, timings: nil)
        #expect(renderer.imageWarning == nil)
    }
}
