import Flipbook
import Dispatch
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookScene
import Foundation

/// Output kinds of a batch render.
package enum BatchFormat: String, Sendable, Codable {
    /// `png`: a folder of frame-NNNN.png, or the files a ``PNGFramePattern`` output names.
    /// `apng`: one animated PNG (a plain PNG for a one-frame scene); `webp`: one animated WebP.
    case gif, png, apng, webp

    /// One file of many frames (GIF, APNG, WebP): shards write PNG frames for `assemble`.
    package var isAnimated: Bool { self != .png }

    /// The frames (from 0) an output of `frameCount` frames at `fps` encodes, in order: a
    /// GIF above 50 fps drops some, an APNG or a WebP above 90; PNG frames keep all.
    func encodedFrames(frameCount: Int, fps: Double) -> [Int] {
        switch self {
        case .gif: GIFTiming.plan(frameCount: frameCount, fps: fps).map(\.frameIndex)
        case .webp: WebPExporter.plan(frameCount: frameCount, fps: fps).map(\.frameIndex)
        case .apng: APNGTiming.plan(frameCount: frameCount, fps: fps).frames.map(\.frameIndex)
        case .png: Array(0..<frameCount)
        }
    }
}

/// Options shared by every scene of a batch render.
package struct BatchOptions: Sendable {
    package var format: BatchFormat = .gif
    package var scale: Double?
    /// `--size WxH`: every scene fitted inside W×H pixels, centred, frames exactly W×H
    /// (instead of `scale`; see ``SceneRenderer/init(scene:fitting:fps:limits:timings:)``).
    package var size: (width: Int, height: Int)?
    package var fps: Double?
    package var frames: FrameRange?
    /// The original `--frames` text, for messages.
    package var framesText: String?
    package var jobs: Int = ProcessorCount.online
    package var force = false
    package var contactSheet = false
    package var shard: Shard?
    /// How GIFs are encoded (dither, quality, matte, lossy).
    package var gif = GIFEncodingOptions()
    /// `--max-size` in bytes for the animated formats (see ``exporter(hash:)``).
    package var maxSize: Int?
    /// How animated WebPs are encoded (`--lossless`, `--quality`).
    package var webp = WebPEncodingOptions()
    /// How PNG frames are compressed (`--png-compression`).
    package var pngCompression = PNGCompression.default
    /// Checked for every scene before anything large is allocated (an invalid scene).
    package var limits = ResourceLimits.default
    /// Frames in flight at once, for the memory limit (the caller's count for `jobs`).
    package var framesInFlight = 2
    /// How limit messages name the settings to raise.
    package var limitNaming = LimitNaming.properties
    /// How scenes are loaded (assets outside the scene's folder).
    package var loader = SceneLoader.Options()
    /// The JSON report the caller writes afterwards: refused, as every output, when it is
    /// an input or another output (``OutputConflict``).
    package var report: String?

    package init() {}

    /// How each scene is loaded, checked and given its renderer.
    var preparation: PreparationOptions {
        PreparationOptions(
            loader: loader, limits: limits, scale: scale, size: size, fps: fps,
            framesInFlight: framesInFlight, naming: limitNaming)
    }

    /// The options that decide output bytes, as hashed ("key=value"). Not `contactSheet`:
    /// the sheet is a separate output, checked by the hash inside it.
    var hashedOptions: [String] {
        [
            "format=\(format.rawValue)", "scale=\(scale.map { "\($0)" } ?? "scene")",
            "fps=\(fps.map { "\($0)" } ?? "scene")",
            "frames=\(frames.map { "\($0.first)-\($0.last)" } ?? "all")",
            "gif=\(gif.dither.rawValue),\(gif.quality),\(gif.matte.map { "\($0.red) \($0.green) \($0.blue)" } ?? "none")"
                + (gif.lossy > 0 ? ",lossy \(gif.lossy)" : "")
                + (maxSize.map { ",max-size \($0)" } ?? ""),
        ]
            + ((format == .png || format == .apng) && pngCompression != .default
                ? ["png=\(pngCompression.rawValue)"] : [])
            + (format == .webp
                ? ["webp=" + (webp.lossless ? "lossless" : "quality \(webp.quality)")] : [])
            + (size.map { ["size=\($0.width)x\($0.height)"] } ?? [])
    }
}

extension BatchOptions {
    /// The exporter of one animated output (GIF, APNG, WebP) carrying `hash` inside; a new
    /// animated format is one more case here. Used by renders and by `assemble`.
    package func exporter(hash: String) -> any FrameExporter {
        switch format {
        case .gif:
            GIFExporter(options: gif, comment: ContentHash.gifComment(hash), maxSize: maxSize)
        case .apng:
            APNGExporter(
                text: ContentHash.pngText(hash), maxSize: maxSize, compression: pngCompression)
        case .webp:
            WebPExporter(options: webp, chunk: ContentHash.webpChunk(hash), maxSize: maxSize)
        case .png: PNGSequenceExporter(compression: pngCompression, text: ContentHash.pngText(hash))
        }
    }
}

/// One scene and where its output goes (a GIF file, or a folder of PNG frames).
package struct SceneTarget: Sendable {
    package var scenePath: String
    package var output: String

    package init(scenePath: String, output: String) {
        self.scenePath = scenePath
        self.output = output
    }

    /// The scene's name as ``Scene/name`` gives it: the file name without extension.
    package static func name(ofPath path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file
    }

    /// The output path without its extension (`.gif`, `.png`, `.apng`, `.webp`): the base
    /// for the sheet and the frames folder, so that x.png's sheet is x-sheet.png, not
    /// x.png-sheet.png. A folder of frames keeps its whole name.
    var base: String {
        let lower = output.lowercased()
        for ext in [".gif", ".png", ".apng", ".webp"]
        where lower.hasSuffix(ext) && !PNGFramePattern.looksLikePattern(output) {
            return String(output.dropLast(ext.count))
        }
        return output
    }
    /// `output/<name>-sheet.png`.
    package var sheetPath: String { base + "-sheet.png" }
    /// Where versions before the hash moved inside the outputs kept it: deleted once the
    /// output is written again (the only thing Flipbook does with it).
    var oldHashPath: String { output + ".flipbook-hash" }
    /// With `--shard` and an animated output (GIF, APNG, WebP): the folder of PNG frames the shards share.
    package var framesFolder: String { base + ".frames" }
}

extension BatchOptions {
    /// The options as an unsharded render would see them (to recognise a final GIF, APNG
    /// or WebP that is already up to date).
    static func unsharded(_ o: BatchOptions) -> BatchOptions {
        var copy = o
        copy.shard = nil
        return copy
    }
}
