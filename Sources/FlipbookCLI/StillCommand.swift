import ArgumentParser
import Flipbook
import FlipbookCodecs
import FlipbookRaster
import FlipbookScene

/// `flipbook still SCENE --at AT --output FILE.png`: one frame as a PNG, for Flipbook
/// scenes and Lottie files alike.
struct StillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "still",
        abstract: "Render one frame of a scene or Lottie file as a PNG.",
        discussion: """
            AT is N% (progress from the start to the end; 100% shows the end as a paused \
            player does), Ns (seconds) or Nf (frames at the scene's rate from its first \
            frame; fractions interpolate). --size WxH scales the scene uniformly to fit \
            exactly W×H pixels, centred, transparent elsewhere unless the scene has a background.
            """)

    @Argument(help: "The scene file (.yaml, .yml, .json, .lottie or .tgs).")
    var scene: String

    @Option(help: ArgumentHelp("When: N%, Ns or Nf.", valueName: "at"))
    var at: String

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @Option(help: "Pixels per point (default: the scene's canvas scale; 1 for Lottie).")
    var scale: Double?

    @Option(help: ArgumentHelp("Exact output size, the scene fitted inside.", valueName: "WxH"))
    var size: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if StillTime(parsing: at) == nil {
            throw ValidationError("--at wants N% (0…100), Ns or Nf, got '\(at)'")
        }
        if let scale, !(scale > 0 && scale <= 16) {
            throw ValidationError("--scale must be in (0, 16], got \(scale)")
        }
        try Self.validate(size: size, scale: scale)
    }

    /// `--size` and `--scale` as `still` and `render` both take them: one or the other, and
    /// a size of whole numbers within the largest side allowed.
    static func validate(size: String?, scale: Double?) throws {
        if scale != nil && size != nil { throw ValidationError("give --scale or --size, not both") }
        if let size, parseSize(size) == nil {
            throw ValidationError(
                "--size wants WxH with whole numbers from 1 to \(ResourceLimits.maxSide), got '\(size)'"
            )
        }
    }

    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (1...ResourceLimits.maxSide).contains(w), (1...ResourceLimits.maxSide).contains(h)
        else { return nil }
        return (w, h)
    }

    func run() throws {
        Interruption.install()
        let pixelSize = size.flatMap(Self.parseSize)
        let renderer = try limits.renderer(
            scene, scale: scale, size: pixelSize.map { (width: $0.0, height: $0.1) })
        let loaded = renderer.scene
        let inputs = OutputSafety.inputs(of: loaded, scenePath: scene)
        if let clash = OutputSafety.conflict(
            inputs: inputs, outputs: [.init(output, role: "--output")])
        {
            printError("error: \(clash)")
            throw ExitCode(64)
        }
        let when = StillTime(parsing: at)!
        let seconds = when.seconds(in: loaded.canvas)
        let image: Pixmap
        do { image = try StillFrame.render(renderer, at: seconds) } catch {
            try Interruption.exitIfInterrupted(error, target: output)
            printError("\(scene): \(error)")
            throw ExitStatus.badScene
        }
        do {
            let bytes = try PNGCodec.encode(image)
            try RenderCancellation.shared.check()
            try FileIO.writeAtomically(bytes, to: output)
        } catch {
            try Interruption.exitIfInterrupted(error, target: output)
            printError("\(output): \(error)")
            throw ExitStatus.failure
        }
    }
}
