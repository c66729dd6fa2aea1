import FlipbookCodecs
import FlipbookRaster
import FlipbookScene

/// Where in a scene a still is taken: `N%` of the way from the start to the end, `Ns`
/// seconds or `Nf` frames (at the scene's rate, from its first frame; fractions allowed).
public enum StillTime: Sendable, Equatable {
    case progress(Double)
    case seconds(Double)
    case frame(Double)

    /// Seconds into `canvas`'s clock, 100 % as the canvas's player pauses at the end.
    public func seconds(in canvas: Canvas) -> Double {
        seconds(
            duration: canvas.duration, fps: canvas.fps, endInstant: canvas.pausedEndIsEndInstant)
    }

    /// Parses `50%`, `1.5s`, `12f` (and a bare number as a frame).
    public init?(parsing text: String) {
        var t = Substring(text.trimmingWhitespace())
        let unit = t.last
        if unit == "%" || unit == "s" || unit == "f" { t.removeLast() }
        guard let v = Double(t), v.isFinite, v >= 0 else { return nil }
        switch unit {
        case "%":
            guard v <= 100 else { return nil }
            self = .progress(v)
        case "s": self = .seconds(v)
        default: self = .frame(v)
        }
    }

    /// Seconds since the scene's start. 100 % is the end as a paused player shows it:
    /// the last instant before the end, so that layers ending with the animation are
    /// still visible and every animation has reached its final value; or, with
    /// `endInstant` (``Canvas/pausedEndIsEndInstant``), the end itself.
    public func seconds(duration: Double, fps: Double, endInstant: Bool = false) -> Double {
        switch self {
        case .progress(let p):
            if p >= 100 && endInstant { return duration }
            return p >= 100 ? max(0, duration - 1e-6 / fps) : duration * p / 100
        case .seconds(let s): return s
        case .frame(let f): return f / fps
        }
    }
}

/// One frame as a picture: `flipbook still`, and thumbnails for READMEs.
public enum StillFrame {
    /// Renders the frame at `seconds`. With `size`, the canvas is scaled uniformly to fit
    /// W×H pixels and centred (whole-pixel offsets), the rest transparent unless the scene
    /// has a background (``SceneRenderer/init(scene:fitting:fps:limits:timings:)``, as
    /// `render --size` does); otherwise it is canvas × `scale` pixels.
    public static func render(
        _ scene: Scene, at seconds: Double, scale: Double? = nil, size: (Int, Int)? = nil,
        limits: ResourceLimits = .default
    ) throws -> Pixmap {
        let renderer =
            try size.map { try SceneRenderer(scene: scene, fitting: $0, limits: limits) }
            ?? SceneRenderer(scene: scene, scale: scale, limits: limits)
        return try render(renderer, at: seconds)
    }

    /// Renders `renderer`'s frame at `seconds` (``ScenePreparation`` builds the renderer).
    public static func render(_ renderer: SceneRenderer, at seconds: Double) throws -> Pixmap {
        let frame = renderer.renderFrame(at: seconds)
        // The stages stop early on a stop request (Ctrl-C), leaving the frame half drawn.
        try RenderCancellation.shared.check()
        return frame
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
