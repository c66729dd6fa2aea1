import FlipbookGeometry
import FlipbookScene
import Foundation

/// Image layers and layer effects.
extension LottieReader {
    /// An image layer's picture: the asset's `w`×`h` at the layer's origin. The image is
    /// embedded (`data:` URI), inside a dotLottie archive, or a file `u` + `p` beside the
    /// document (confined to its folder as scene assets are). A file that is missing, or a
    /// `data:` URI that is not base64, is skipped with a warning, as players skip it (and
    /// `SceneRenderer` skips a Lottie image it cannot decode).
    func imageLayer(_ e: Entry) -> Layer? {
        // An image layer naming no image is left out, as a precomposition naming no
        // asset is (players draw the rest).
        guard let ref = e.node["refId"].string, let asset = assetNodes[ref] else {
            leaveOut(
                e.node["refId"],
                "no image asset has id \(e.node["refId"].string.map { "`\($0)`" } ?? "(none)")")
            return nil
        }
        let p = asset["p"].string ?? ""
        let folder = asset["u"].string ?? ""
        if embeddedAssets[ref] == nil && fileAssets[ref] == nil {
            if p.hasPrefix("data:") {
                guard let comma = p.firstIndex(of: ","),
                    let bytes = Data(
                        base64Encoded: String(p[p.index(after: comma)...]),
                        options: .ignoreUnknownCharacters)
                else {
                    // ThorVG and rlottie open the file and draw the layer without it.
                    warn("the data: URI of image asset `\(ref)` is not valid base64 (skipped)")
                    return nil
                }
                embeddedAssets[ref] = [UInt8](bytes)
            } else if let packaged = packagedImages[p] ?? packagedImages[folder + p]
                ?? packagedImages["images/" + p]
            {
                embeddedAssets[ref] = packaged
            } else if let path = resolveImage(folder + p, asset["p"], ref) {
                fileAssets[ref] = path
            } else {
                return nil
            }
        }
        guard let w = asset["w"].number, let h = asset["h"].number, w > 0, h > 0 else {
            leaveOut(asset, "image asset `\(ref)` needs a positive width `w` and height `h`")
            return nil
        }
        var image = Layer(id: uniqueID("\(e.name) image"))
        image.properties.bounds = Rect(0, 0, w, h)
        image.properties.anchorPoint = .zero
        image.content = .image(ImageContent(asset: ref, gravity: .resize))
        return image
    }

    private func resolveImage(_ file: String, _ node: JSONNode, _ ref: String) -> String? {
        let url =
            file.hasPrefix("/")
            ? URL(fileURLWithPath: file)
            : URL(fileURLWithPath: baseDirectory).appendingPathComponent(file)
        let resolved = url.standardizedFileURL.path
        if !allowOutsideAssets {
            let (inside, real) = AssetConfinement.check(resolved, inside: baseDirectory)
            guard inside else {
                error(
                    node,
                    "image asset `\(ref)`: `\(file)` leads outside the animation's folder (to `\(real)`); "
                        + "pass --allow-outside-assets to allow it")
                return nil
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else {
            warn("image `\(file)` not found (not drawn)")
            return nil
        }
        return resolved
    }

    /// `ef`: drop shadow (25), Gaussian blur (29), fill (21) and tint (20); others are
    /// ignored with a warning. Parameters are read by position, as exporters write them.
    func effects(_ node: JSONNode) -> [LayerEffect] {
        guard let list = node.elements else { return [] }
        var out: [LayerEffect] = []
        for effect in list {
            if effect["en"].number == 0 { continue }
            let params = effect["ef"]
            func v(_ i: Int, _ fallback: [Double]) -> AnimatedValue {
                animated(params[i]["v"], "an effect parameter", default: fallback)
                    ?? .constant(fallback)
            }
            func c(_ i: Int) -> AnimatedValue {
                color(params[i]["v"], default: [0, 0, 0, 1]) ?? .constant([0, 0, 0, 1])
            }
            // An effect whose type is not an integer is left out (the warning says so); one
            // without a type is an unknown effect.
            let read = tolerating("left out") { integer(effect["ty"], "the effect type `ty`") }
            if read == nil && effect["ty"].exists { continue }
            let type = read ?? -1
            // lottie-ios's Core Animation engine draws a layer's drop shadow and no other
            // effect (Sources/Private/CoreAnimation/Layers/BaseCompositionLayer.swift).
            if coreAnimation && type != 25 {
                warn(
                    "effect `\(effect["nm"].string ?? "type \(type)")` (Core Animation draws only drop shadows)"
                )
                continue
            }
            switch type {
            case 25:
                let profile = shadowProfile
                out.append(
                    .dropShadow(
                        color: c(0), opacity: v(1, [127.5]).mapped { $0.map { $0 / 255 } },
                        direction: v(2, [135]), distance: v(3, [5]),
                        blur: v(4, [0]).mapped {
                            $0.map { DropShadowMapping.effectSigma(softness: $0, profile) }
                        }))
            case 29:
                let dims =
                    tolerating("drawn with the default, 1") {
                        integer(params[1]["v"]["k"], "the blur dimensions (1, 2 or 3)")
                    } ?? 1
                out.append(.gaussianBlur(blurriness: v(0, [0]), dimensions: dims))
            case 21:
                out.append(.fill(color: c(2), opacity: v(6, [1])))
            case 20:
                out.append(
                    .tint(
                        black: c(0), white: c(1), amount: v(2, [100]).mapped { $0.map { $0 / 100 } }
                    ))
            default:
                warn("effect `\(effect["nm"].string ?? "type \(type)")`")
            }
        }
        return out
    }

    /// Whose shadows the importer follows: lottie-ios's CALayer shadows under
    /// `--lottie-compat core-animation`, After Effects' (lottie-web's) otherwise.
    var shadowProfile: DropShadowMapping.Profile { coreAnimation ? .coreAnimation : .lottieWeb }

    /// `sy`: layer styles. Drop shadow (type 1) becomes the same shadow as the effect, with
    /// size, distance, angle, opacity (0…100), colour and choke (spread); the other styles
    /// (stroke, inner shadow, glows, bevel, satin, overlays) are drawn without, with a warning.
    func styles(_ node: JSONNode) -> [LayerEffect] {
        guard let list = node.elements else { return [] }
        var out: [LayerEffect] = []
        let profile = shadowProfile
        for style in list {
            let read = tolerating("left out") {
                integer(style["ty"], "the layer style type `ty`")
            }
            if read == nil && style["ty"].exists { continue }
            let type = read ?? -1
            guard type == 1 else {
                warn("layer style `\(style["nm"].string ?? "type \(type)")`")
                continue
            }
            func v(_ key: String, _ fallback: Double) -> AnimatedValue {
                animated(style[key], "the drop-shadow style's `\(key)`", default: [fallback])
                    ?? .constant([fallback])
            }
            let color = color(style["c"], default: [0, 0, 0, 1]) ?? .constant([0, 0, 0, 1])
            out.append(
                .dropShadow(
                    color: color, opacity: v("o", 75).mapped { $0.map { $0 / 100 } },
                    direction: v("a", 120).mapped {
                        $0.map { DropShadowMapping.styleDirection(angle: $0, profile) }
                    },
                    distance: v("d", 5),
                    blur: v("s", 5).mapped {
                        $0.map { DropShadowMapping.styleSigma(size: $0, profile) }
                    },
                    spread: v("ch", 0).mapped {
                        $0.map { DropShadowMapping.styleSpread(choke: $0, profile) }
                    }))
        }
        return out
    }
}
