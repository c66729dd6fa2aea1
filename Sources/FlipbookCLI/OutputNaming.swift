import Flipbook
import FlipbookBatch

/// How `flipbook render` picks the output kind from `--format` and `--output`, as ffmpeg
/// and ImageMagick users expect: the one table of names to kinds (a new format is added
/// here and in ``OutputFormat``).
///
/// | output | kind |
/// |---|---|
/// | `x.gif` | GIF |
/// | `x.png`, `x.apng` | APNG (a plain PNG when the scene has one frame) |
/// | `x.webp` | animated WebP |
/// | `out/frame-%04d.png` | PNG frames named by the pattern |
/// | anything else | a folder of frame-NNNN.png |
///
/// An explicit `--format` wins; with `--format png`, an output holding `%` is a frame
/// pattern, any other a folder.
enum OutputNaming {
    /// The kind for a single scene.
    static func format(explicit: OutputFormat?, output: String?) -> BatchFormat {
        if let explicit { return batchFormat(explicit) }
        guard let output else { return .gif }
        let name = output.lowercased()
        if name.hasSuffix(".gif") { return .gif }
        if name.hasSuffix(".webp") { return .webp }
        if name.hasSuffix(".png") || name.hasSuffix(".apng") {
            return PNGFramePattern.looksLikePattern(output) ? .png : .apng
        }
        return .png
    }

    static func batchFormat(_ format: OutputFormat) -> BatchFormat {
        switch format {
        case .gif: .gif
        case .png: .png
        case .apng: .apng
        case .webp: .webp
        }
    }

    /// What a batch appends to each scene's name inside the output folder ("" for a folder of frames).
    static func fileExtension(_ format: BatchFormat) -> String {
        switch format {
        case .gif: ".gif"
        case .apng: ".png"
        case .png: ""
        case .webp: ".webp"
        }
    }

    /// Why `output` cannot be written as `format`, or nil: a PNG frame output holding `%`
    /// must be a valid ``PNGFramePattern``.
    static func problem(format: BatchFormat, output: String?) -> String? {
        guard format == .png, let output, PNGFramePattern.looksLikePattern(output) else {
            return nil
        }
        return PNGFramePattern.problem(output)
    }
}
