import ArgumentParser
import Foundation
import Flipbook
import FlipbookScene
import FlipbookCodecs
import FlipbookGeometry

/// The output kinds of `flipbook render`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case gif, png
}

extension GIFDither: ExpressibleByArgument {}

/// `flipbook render SCENE`: validates its options, then hands off to the exporters.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to an animated GIF or a folder of PNG frames.",
        discussion: """
            Frame i shows t = i / fps and is canvas size × scale pixels. With --format png, \
            the output is a folder that receives frame-0000.png, frame-0001.png, … \
            (numbered by frame index). Default output: output/<scene name>.gif, or the \
            folder output/<scene name>/ for PNG frames.
            """)

    @Argument(help: "The scene file (.yaml, .yml or .json).")
    var scene: String

    @Option(name: .shortAndLong, help: "Output file (GIF) or folder (PNG frames).")
    var output: String?

    @Option(help: "gif or png. Default: gif, or png when --output is given and does not end in .gif.")
    var format: OutputFormat?

    @Option(help: "Pixels per point; overrides the scene's canvas scale.")
    var scale: Double?

    @Option(help: "Frames per second; overrides the scene's.")
    var fps: Double?

    @Option(help: "Frame range to render, A-B inclusive (A-, -B and A also work).")
    var frames: String?

    @Option(help: "Frames rendered in parallel. Default: all cores.")
    var jobs: Int?

    @Option(help: "GIF only: none (default), ordered (stable Bayer pattern) or diffusion (Floyd–Steinberg in changed areas); applies to frames with more than the palette's colors.")
    var dither: GIFDither = .none

    @Option(help: "GIF only: 1…100, palette size of frames with many colors (100: 256 colors). Frames that fit stay lossless.")
    var quality: Int = 100

    @Option(help: "GIF only, transparent canvases: color (#rrggbb) that semi-transparent edge pixels are blended over.")
    var matte: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let scale, !(scale > 0 && scale <= 16) { throw ValidationError("--scale must be in (0, 16], got \(scale)") }
        if let fps, !(fps > 0 && fps <= 240) { throw ValidationError("--fps must be in (0, 240], got \(fps)") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1…100, got \(quality)") }
        if let matte, Self.parseMatte(matte) == nil {
            throw ValidationError("--matte wants a color like #ffffff, #fff, white or black, got '\(matte)'")
        }
        if let frames, FrameRange(parsing: frames) == nil {
            throw ValidationError("--frames wants A-B with 0 ≤ A ≤ B, got '\(frames)'")
        }
    }

    func run() throws {
        let loaded = try loadScene(scene)
        let renderer: SceneRenderer
        do { renderer = try SceneRenderer(scene: loaded, scale: scale, fps: fps) } catch {
            printError("\(scene): \(error)")
            throw ExitStatus.badScene
        }
        let requested = frames.flatMap(FrameRange.init(parsing:)) ?? FrameRange(first: 0, last: Int.max)
        guard let range = requested.clamped(toFrameCount: renderer.frameCount) else {
            printError("--frames \(frames ?? ""): the scene has frames 0-\(renderer.frameCount - 1)")
            throw ExitStatus.failure
        }
        let kind = format ?? (output.map { $0.lowercased().hasSuffix(".gif") } == false ? .png : .gif)
        let target = output ?? "output/\(loaded.name)" + (kind == .gif ? ".gif" : "")
        let threads = jobs ?? ProcessorCount.online
        let clock = ContinuousClock()
        let started = clock.now
        let bytes: Int
        do {
            switch kind {
            case .gif:
                try FileSystem.makeDirectories(FileSystem.folder(of: target))
                let options = GIFEncodingOptions(dither: dither, quality: quality, matte: matte.flatMap(Self.parseMatte))
                bytes = try GIFExporter.export(renderer, frames: range, to: target, jobs: threads, options: options)
            case .png:
                bytes = try PNGSequenceExporter.export(renderer, frames: range, to: target, jobs: threads)
            }
        } catch {
            printError("\(target): \(error)")
            throw ExitStatus.failure
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if !quiet {
            let (w, h) = renderer.pixelSize
            print("\(target): \(range.count) frames, \(w)×\(h) px, \(bytes) bytes in "
                + "\(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", Double(range.count) / max(seconds, 1e-9))) frames/s)")
        }
    }

    /// `#rgb`, `#rrggbb` (the `#` optional), `white` or `black`.
    static func parseMatte(_ text: String) -> Color? {
        let t = text.lowercased()
        if t == "white" { return Color(red: 1, green: 1, blue: 1) }
        if t == "black" { return Color(red: 0, green: 0, blue: 0) }
        var hex = Substring(t)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        if hex.count == 3 { hex = Substring(hex.map { "\($0)\($0)" }.joined()) }
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        return Color(red: Double(v >> 16) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
    }
}
