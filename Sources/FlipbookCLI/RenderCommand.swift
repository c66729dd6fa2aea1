import ArgumentParser
import Foundation
import Flipbook
import FlipbookBatch
import FlipbookScene
import FlipbookCodecs
import FlipbookGeometry

/// The output kinds of `flipbook render`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case gif, apng, png, webp
}

extension GIFDither: ExpressibleByArgument {}
extension PNGCompression: ExpressibleByArgument {}

/// `flipbook render SCENE`: validates its options, then hands off to the exporters.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to an animated GIF, PNG (APNG) or WebP, or to PNG frames.",
        discussion: """
            Frame i shows t = i / fps and is canvas size × scale pixels; --size WxH instead \
            scales each scene uniformly to fit inside W×H and centres it on a W×H frame, \
            transparent around it unless the scene has a background (as `still --size`). With --format png, \
            the output is a folder that receives frame-0000.png, frame-0001.png, … \
            (numbered by frame index); -o 'out/frame-%04d.png' names them by the pattern. -o x.png \
            (or --format apng) writes an animated PNG, exact, a plain PNG for one frame. -o x.webp \
            (or --format webp) writes an animated WebP, lossy at --quality or exact with \
            --lossless. Default output: output/<scene name>.gif, or the \
            folder output/<scene name>/ for PNG frames.

            Several scenes, a folder or a glob: every scene renders into the --output folder \
            (default output/), frames of several scenes in flight on every core; one failing \
            scene does not stop the others (exit 2 if any is invalid, else 1 if any failed). \
            Outputs whose content hash (scene, assets, font files, options, renderer version; \
            kept inside each output: a GIF comment, a tEXt chunk in every PNG) is unchanged \
            are skipped unless --force. \
            See docs/ci.md for --shard and `flipbook assemble`.
            """)

    @Argument(
        help: "Scene files (.yaml, .yml or .json), folders (searched recursively) or glob patterns."
    )
    var scenes: [String]

    @Option(
        name: .shortAndLong,
        help:
            "Output file: x.gif (GIF), x.png (animated PNG; a plain PNG for one frame), 'out/frame-%04d.png' (PNG frames named by the pattern), or a folder of PNG frames; with several scenes, the folder for all outputs."
    )
    var output: String?

    @Option(
        help:
            "gif, apng, webp (animated) or png (PNG frames). Default: from --output's name (.gif, .png, .webp, a %d pattern; else a folder of PNG frames), gif without --output."
    )
    var format: OutputFormat?

    @Option(help: "Pixels per point; overrides the scene's canvas scale.")
    var scale: Double?

    @Option(
        help: ArgumentHelp(
            "Exact frame size: each scene fitted inside, centred (not with --scale).",
            valueName: "WxH"))
    var size: String?

    @Option(help: "Frames per second; overrides the scene's.")
    var fps: Double?

    @Option(help: "Frame range to render, A-B inclusive (A-, -B and A also work).")
    var frames: String?

    @Option(help: "Frames rendered in parallel. Default: all cores.")
    var jobs: Int?

    @Option(
        help:
            "GIF only: none (default), ordered (stable Bayer pattern) or diffusion (Floyd–Steinberg in changed areas); applies to frames with more than the palette's colors."
    )
    var dither: GIFDither = .none

    @Flag(help: "WebP only: exact pixels (lossless frames) instead of lossy ones at --quality.")
    var lossless = false

    @Option(
        help:
            "GIF and WebP: 1…100 (default 90). WebP: libwebp's quality factor of lossy frames. GIF: the rate control: how far pixels may drift from their source to save bytes (100: only what the 256-color palette forces). Frames whose colors fit stay lossless from 50 up. See docs/gif.md."
    )
    var quality: Int = GIFEncodingOptions.defaultQuality

    @Option(
        help:
            "GIF only: 0 (default, lossless LZW) … 100: the color deviation, in 8-bit levels, the LZW coder may give a pixel to shorten the file (gifsicle's --lossy idea, against the source pixels)."
    )
    var lossy: Int = 0

    @Option(
        help:
            "PNG and APNG: fast (PNG: Up filter, run-length deflate; APNG: libdeflate level 6), default (PNG: Sub or Up per row, run-length deflate, about zlib level 6's size on UI frames; APNG: libdeflate level 12) or small (PNG: libpng's adaptive filters, zlib level 9, best for photographic content; APNG: every candidate encoding tried at libdeflate level 12)."
    )
    var pngCompression: PNGCompression = .default

    @Option(
        help: ArgumentHelp(
            "GIF, APNG and WebP: the largest file allowed, in bytes (K and M suffixes, powers of "
                + "1024). GIF and lossy WebP: the best --quality that fits (a GIF then raises --lossy), from frames rendered "
                + "once. APNG and --lossless WebP keep exact pixels, so they are encoded once and refused when larger: "
                + "exit 1, nothing written, the size reached named (drop --lossless, or use -o x.webp, to search a lossy "
                + "quality). Exit 1 and nothing written whenever nothing fits. Not for PNG frames.",
            valueName: "bytes"))
    var maxSize: ByteCount?

    @Option(
        help:
            "GIF only, transparent canvases: color (#rrggbb) that semi-transparent edge pixels are blended over."
    )
    var matte: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Write a JSON report of every scene to this file.", valueName: "file.json"))
    var report: String?

    @Flag(
        help:
            "Print the CPU time of each stage (load, timeline, render, encode, write) of every scene at the end, to standard error."
    )
    var timings = false

    @Flag(help: "Render even the scenes whose outputs are up to date.")
    var force = false

    @Flag(
        help:
            "Also write <name>-sheet.png: a grid of 12 evenly spaced frames labelled with their times."
    )
    var contactSheet = false

    @Option(
        help: ArgumentHelp(
            "Render only part i of n of the work (scenes, and frame ranges of long scenes); "
                + "default from FLIPBOOK_SHARD, CI_NODE_INDEX/CI_NODE_TOTAL or JOB_COMPLETION_INDEX/FLIPBOOK_SHARD_TOTAL.",
            valueName: "i/n"))
    var shard: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let scale, !(scale > 0 && scale <= 16) {
            throw ValidationError("--scale must be in (0, 16], got \(scale)")
        }
        try StillCommand.validate(size: size, scale: scale)
        if let fps, !(fps > 0 && fps <= 240) {
            throw ValidationError("--fps must be in (0, 240], got \(fps)")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if !(1...100).contains(quality) {
            throw ValidationError("--quality must be in 1…100, got \(quality)")
        }
        if !(0...100).contains(lossy) {
            throw ValidationError("--lossy must be in 0…100, got \(lossy)")
        }
        if let maxSize, maxSize.bytes < 1 {
            throw ValidationError("--max-size must be at least 1 byte")
        }
        let kind =
            BatchRun(self).isSingleScene
            ? OutputNaming.format(explicit: format, output: output)
            : format.map(OutputNaming.batchFormat) ?? .gif
        if maxSize != nil, kind == .png {
            throw ValidationError(
                "--max-size: PNG frames have no size to budget; give -o x.gif, x.png (APNG) or x.webp"
            )
        }
        if let matte, Self.parseMatte(matte) == nil {
            throw ValidationError(
                "--matte wants a color like #ffffff, #fff, white or black, got '\(matte)'")
        }
        if let frames, FrameRange(parsing: frames) == nil {
            throw ValidationError("--frames wants A-B with 0 ≤ A ≤ B, got '\(frames)'")
        }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard wants i/n with 1 ≤ i ≤ n, got '\(shard)'")
        }
        if scenes.isEmpty { throw ValidationError("name at least one scene file, folder or glob") }
        if let problem = OutputNaming.problem(
            format: OutputNaming.format(explicit: format, output: output), output: output)
        {
            throw ValidationError("--output \(problem)")
        }
    }

    func run() throws {
        #if canImport(Glibc)
            // One malloc arena for every thread: frames are allocated on the render threads
            // and freed on the writing thread, and with an arena per thread each kept its own
            // free frames (about 5 MB more peak memory per thread). Frames (4 MB at 750×1334)
            // stay in that heap rather than being mapped and unmapped each time (glibc's
            // adaptive threshold flips between the two): no page faults and zeroing per
            // frame, and a steadier peak. Constants from malloc.h.
            _ = glibcMallopt(-8 /* M_ARENA_MAX */, 1)
            _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
            _ = glibcMallopt(-1 /* M_TRIM_THRESHOLD */, 64 << 20)
        #endif
        Interruption.install()
        try BatchRun(self).run()
    }

    /// `#rgb`, `#rrggbb` (the `#` optional), `white` or `black`.
    static func parseMatte(_ text: String) -> Color? {
        let t = text.lowercased()
        if t == "white" { return Color(red: 1, green: 1, blue: 1) }
        if t == "black" { return Color(red: 0, green: 0, blue: 0) }
        let hex = t.hasPrefix("#") ? t.dropFirst() : Substring(t)
        guard hex.count == 3 || hex.count == 6 else { return nil }
        return Color(hexDigits: hex)
    }
}

#if canImport(Glibc)
    /// glibc's `mallopt` (malloc.h, which the Glibc module does not include).
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
