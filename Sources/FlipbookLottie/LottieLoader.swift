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
        // The keys sit at the top level, and exporters write `v`, `fr`, `ip`, `op`, `w`,
        // `h` first: the first 64 KiB settle nearly every file without reading the rest.
        let prefix = 1 << 16
        guard let data = try? handle.read(upToCount: prefix) else { return false }
        if looksLikeLottie([UInt8](data)) { return true }
        guard data.count == prefix else { return false }
        // Some exporters write `assets` and `layers` first and the short keys last (lottie-ios's
        // TypeFace samples): when the start is inconclusive, the keys of the whole file decide
        // (at most 256 MiB, the largest file a Lottie may be).
        guard let rest = try? handle.read(upToCount: (1 << 28) - prefix) else { return false }
        return looksLikeLottie([UInt8](data + rest))
    }

    /// Whether JSON text (or its start) is a Lottie document: its top-level object has
    /// Lottie's keys, all seven in a valid file, or `v` or `fr`, or three of them and no
    /// `canvas` (a Flipbook scene's key). Only the top level's keys are looked at, and a
    /// syntax error further on (a `NaN`, a cut-off file) still tells a Lottie file by the
    /// keys before it, so that it is reported in Lottie's terms.
    static func looksLikeLottie(_ bytes: [UInt8]) -> Bool {
        let keys = TopLevelKeys.scan(bytes)
        if keys.contains("canvas") { return false }
        let present = LottieReader.topKeys.filter(keys.contains).count
        return present >= 3 || keys.contains("v") || keys.contains("fr")
    }

    /// Reads a `.json`, `.lottie` or `.tgs` file into a scene.
    public static func load(path: String, options: SceneLoader.Options = SceneLoader.Options())
        throws(SceneError) -> Scene
    {
        func fail(_ message: String) -> SceneError {
            SceneError(diagnostics: [
                Diagnostic(file: path, line: nil, column: nil, keyPath: "", message: message)
            ])
        }
        func fail(_ cause: LimitViolation.Cause, limit: Int) -> SceneError {
            SceneError(diagnostics: [
                Diagnostic(
                    file: path, line: nil, column: nil, keyPath: "",
                    violation: LimitViolation(cause, limit: limit))
            ])
        }
        let limit = options.limits.maxDocumentBytes
        // The file's size is checked before it is read (its bytes count against `maxMemory`).
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size]
            as? NSNumber,
            size.int64Value > Int64(limit)
        {
            throw fail(
                .fileSize(bytes: size.int64Value, memory: options.limits.maxMemory), limit: limit)
        }
        guard let raw = FileManager.default.contents(atPath: path) else {
            throw fail("cannot read the file")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        var json = raw
        var images: [String: [UInt8]] = [:]
        var warnings: [String] = []
        switch ext {
        case "tgs":
            do { json = try Gzip.decompress(raw, limit: limit) } catch {
                if Gzip.isLimit(error) { throw fail(.stickerExpansion, limit: limit) }
                throw fail("not a gzip-compressed Lottie sticker: \(error)")
            }
        case "lottie":
            do {
                let package = try DotLottie(data: raw, limit: limit)
                json = package.animation
                images = package.images
                warnings = package.warnings
            } catch {
                throw fail("not a readable dotLottie archive: \(error)")
            }
        default:
            break
        }
        var scene = try parse(json, path: path, options: options, images: images)
        scene.warnings = warnings.map { SceneWarning(layer: nil, feature: $0) } + scene.warnings
        return scene
    }

    /// Parses Lottie JSON; `path` is used for messages and for image files beside it.
    public static func parse(
        _ data: Data, path: String?, options: SceneLoader.Options = SceneLoader.Options(),
        images: [String: [UInt8]] = [:]
    ) throws(SceneError) -> Scene {
        let document: JSONDocument
        do throws(JSONFailure) {
            // The parsed document may hold half of `maxMemory`, less the bytes already read.
            let budget = max(1 << 20, options.limits.maxMemory / 2 - data.count)
            document = try JSONParser.parse(
                data,
                limits: JSONLimits(
                    memoryBytes: budget, layers: options.limits.maxLayers,
                    keyframes: options.limits.maxKeyframes,
                    pathVertices: options.limits.maxPathElements))
        } catch {
            let message: String
            switch error.reason {
            case .syntax(let text): message = "not valid Lottie JSON: \(text)"
            case .limit(let violation):
                throw SceneError(diagnostics: [
                    Diagnostic(
                        file: path, line: error.line, column: error.column, keyPath: "",
                        violation: violation)
                ])
            case .cancelled: message = "interrupted while reading"
            }
            throw SceneError(diagnostics: [
                Diagnostic(
                    file: path, line: error.line, column: error.column, keyPath: "",
                    message: message)
            ])
        }
        let base =
            path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.currentDirectoryPath
        let reader = LottieReader(
            file: path, baseDirectory: base, allowOutsideAssets: options.allowOutsideAssets,
            limits: options.limits, compatibility: options.lottieCompatibility)
        reader.packagedImages = images
        var scene = reader.readDocument(JSONNode(document, index: 0, path: ""))
        scene.sourcePath = path
        guard reader.diagnostics.isEmpty else { throw SceneError(diagnostics: reader.diagnostics) }
        return scene
    }
}
