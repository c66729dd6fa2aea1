import FlipbookScene
import Foundation

/// Opens Lottie animations: Bodymovin JSON, dotLottie archives (`.lottie`, the first
/// animation with its images) and Telegram stickers (`.tgs`, gzip-compressed JSON).
public enum LottieLoader {
    /// Whether `path` names a Lottie file: a `.lottie` or `.tgs` file, or a `.json` file
    /// whose top level has Lottie's keys (`v`, `fr`, `ip`, `op`, `w`, `h`, `layers`): all
    /// of them in a valid file, and at least three and no `canvas` in a broken one, so
    /// that a Lottie file missing a key is told so in Lottie's terms.
    public static func isLottie(path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "lottie" || ext == "tgs" { return true }
        guard ext == "json", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // The keys sit at the top level; a cheap look at the start tells most files apart,
        // and a full parse settles the rest.
        guard let data = try? handle.readToEnd() else { return false }
        return looksLikeLottie(data)
    }

    static func looksLikeLottie(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        let present = ["v", "fr", "ip", "op", "w", "h", "layers"].filter { object[$0] != nil }.count
        return present == 7 || (present >= 3 && object["canvas"] == nil)
    }

    /// Reads a `.json`, `.lottie` or `.tgs` file into a scene.
    public static func load(path: String, options: SceneLoader.Options = SceneLoader.Options()) throws(SceneError) -> Scene {
        func fail(_ message: String) -> SceneError {
            SceneError(diagnostics: [Diagnostic(file: path, line: nil, column: nil, keyPath: "", message: message)])
        }
        guard let raw = FileManager.default.contents(atPath: path) else { throw fail("cannot read the file") }
        let ext = (path as NSString).pathExtension.lowercased()
        var json = raw
        var images: [String: [UInt8]] = [:]
        switch ext {
        case "tgs":
            do { json = try Gzip.decompress(raw, limit: options.maxDocumentBytes) } catch {
                throw fail("not a gzip-compressed Lottie sticker: \(error)")
            }
        case "lottie":
            do {
                let package = try DotLottie(data: raw, limit: options.maxDocumentBytes)
                json = package.animation
                images = package.images
            } catch {
                throw fail("not a readable dotLottie archive: \(error)")
            }
        default:
            break
        }
        return try parse(json, path: path, options: options, images: images)
    }

    /// Parses Lottie JSON; `path` is used for messages and for image files beside it.
    public static func parse(_ data: Data, path: String?, options: SceneLoader.Options = SceneLoader.Options(),
                             images: [String: [UInt8]] = [:]) throws(SceneError) -> Scene {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw SceneError(diagnostics: [Diagnostic(file: path, line: nil, column: nil, keyPath: "",
                                                      message: "not valid JSON: \(JSONErrorText.describe(error))")])
        }
        let base = path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.currentDirectoryPath
        let reader = LottieReader(file: path, baseDirectory: base, allowOutsideAssets: options.allowOutsideAssets)
        reader.packagedImages = images
        var scene = reader.readDocument(JSONNode(object, path: ""))
        scene.sourcePath = path
        guard reader.diagnostics.isEmpty else { throw SceneError(diagnostics: reader.diagnostics) }
        return scene
    }
}

enum JSONErrorText {
    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}

extension SceneLoader.Options {
    /// The most bytes a compressed container (.tgs, .lottie) may expand to.
    var maxDocumentBytes: Int { 256 << 20 }
}
