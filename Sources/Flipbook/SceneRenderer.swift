import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster
import FlipbookRender
import FlipbookScene
import FlipbookText
import FlipbookTimeline

/// A scene ready to render: its timeline built, its image assets decoded, the output
/// scale and frame rate chosen. Any frame renders alone, from its time.
public struct SceneRenderer: Sendable {
    public let scene: Scene
    public let timeline: Timeline
    public let renderer: FrameRenderer
    /// Frames per second of the output (the scene's unless overridden).
    public let fps: Double
    /// One warning for the whole scene naming the characters no installed font has (drawn
    /// as the font's .notdef box, as Pango and Core Text show tofu); nil when every
    /// character has a glyph.
    public let textWarning: String?
    /// One warning naming the images of a Lottie file that could not be decoded (a GIF, an
    /// SVG, broken bytes): drawn without them, as ThorVG and rlottie draw such a file
    /// (issue 24 §1); nil when there are none. A Flipbook scene's broken image stays an
    /// error, and so does an image refused by a limit.
    public let imageWarning: String?
    /// When set, receives the CPU time of building and evaluating the timeline, of
    /// loading assets and of rasterizing (`--timings`, the report's `"timings"`).
    public var timings: StageTimings?
    /// Reuse between frames: each worker thread keeps its last frame and repaints only what
    /// changed (``FrameReuse``), with the bytes of a full render. On unless
    /// ``FrameReuse/isEnabled`` is false (`flipbook` maps `FLIPBOOK_FRAME_REUSE=0` onto it);
    /// nil renders every frame from scratch.
    public var frameReuse: FrameReuse? = FrameReuse.isEnabled ? FrameReuse() : nil
    /// Set by ``init(scene:fitting:fps:limits:timings:)`` when the fitted canvas is smaller
    /// than the size asked for: every frame is then placed on a canvas of this size (see
    /// ``letterbox(_:into:background:)``), which ``pixelSize`` reports.
    public private(set) var frameBox: (width: Int, height: Int)?

    /// Loads every image asset the layers use; `scale` and `fps` override the scene's.
    ///
    /// `limits` are checked first, from the scene's numbers alone (``ResourceLimitError``),
    /// and each image's header before its pixels are decoded, so that a hostile scene is
    /// refused before anything large is allocated.
    public init(
        scene: Scene, scale: Double? = nil, fps: Double? = nil,
        limits: ResourceLimits = .default, timings: StageTimings? = nil
    ) throws {
        try limits.check(scene, scale: scale, fps: fps)
        try self.init(
            checked: scene, scale: scale, fitting: nil, fps: fps, limits: limits, timings: timings)
    }

    /// A renderer whose frames are exactly `size` pixels, as `still --size` and
    /// `render --size` make them: the canvas scaled uniformly (``fitScale(_:into:)``) to fit
    /// inside, centred at whole-pixel offsets, the rest filled with the scene's background
    /// (transparent when it has none).
    public init(
        scene: Scene, fitting size: (width: Int, height: Int), fps: Double? = nil,
        limits: ResourceLimits = .default, timings: StageTimings? = nil
    ) throws {
        try limits.check(scene, scale: Self.fitScale(scene.canvas.size, into: size), fps: fps)
        try self.init(
            checked: scene, scale: nil, fitting: size, fps: fps, limits: limits, timings: timings)
    }

    /// A renderer for a scene already checked against `limits` (``ScenePreparation``
    /// checks them once, with the `--size` they are fitted to): only the images are
    /// checked here, by their headers. With `size`, frames are exactly that many pixels
    /// and `scale` is ignored.
    /// Limit messages name settings with `naming`.
    package init(
        checked scene: Scene, scale: Double?, fitting size: (width: Int, height: Int)?,
        fps: Double?,
        limits: ResourceLimits, naming: LimitNaming = .properties, timings: StageTimings?
    ) throws {
        let started = StageTimings.threadCPUNanoseconds()
        let scale = size.map { Self.fitScale(scene.canvas.size, into: $0) } ?? scale
        var images: [String: Pixmap] = [:]
        var imageBytes = 0.0
        var missing: [Character] = []
        var skipped: [String] = [], skippedAssets: Set<String> = []
        for layer in scene.layers {
            try layer.forEachLayer { l in
                if case .text(let text) = l.content {
                    // Lay each text out once now, so that a font that cannot be loaded is
                    // an error before any frame renders rather than a blank label.
                    do {
                        missing += try TextEngine.shared.layout(
                            TextRequest(text, properties: l.properties)
                        ).missing
                    } catch {
                        throw RenderError.unusableFont(layer: l.id, reason: "\(error)")
                    }
                }
                guard case .image(let content) = l.content, images[content.asset] == nil,
                    !skippedAssets.contains(content.asset)
                else { return }
                switch try Self.decodeImage(
                    content.asset, layer: l.id, of: scene, limits: limits, naming: naming,
                    decodedBytes: imageBytes)
                {
                case .image(let image):
                    imageBytes += Double(image.data.count)
                    images[content.asset] = image
                case .skipped(let reason):
                    skipped.append(reason)
                    skippedAssets.insert(content.asset)
                }
            }
        }
        self.textWarning = TextEngine.missingCharactersWarning(missing)
        self.imageWarning =
            skipped.isEmpty
            ? nil
            : "drawn without the images it could not decode: " + skipped.joined(separator: "; ")
        self.scene = scene
        let loaded = StageTimings.threadCPUNanoseconds()
        self.timeline = Timeline(scene: scene)
        timings?.add(.load, nanoseconds: loaded &- started)
        timings?.add(.timeline, nanoseconds: StageTimings.threadCPUNanoseconds() &- loaded)
        self.timings = timings
        self.renderer = FrameRenderer(scale: scale ?? scene.canvas.scale, images: images)
        self.fps = fps ?? scene.canvas.fps
        if let size, renderer.pixelSize(of: scene.canvas.size) != size { frameBox = size }
    }

    /// The largest uniform scale at which a canvas of `canvas` points fits in `size` pixels.
    public static func fitScale(_ canvas: Size, into size: (width: Int, height: Int)) -> Double {
        min(Double(size.width) / canvas.width, Double(size.height) / canvas.height)
    }

    /// `frame` centred at whole-pixel offsets ((box − frame) / 2, rounded down) on a canvas
    /// of `box` pixels filled with `background`. The frame's pixels are copied, not
    /// composited: they already hold the background, drawn once.
    public static func letterbox(
        _ frame: Pixmap, into box: (width: Int, height: Int), background: Color
    ) -> Pixmap {
        var out =
            background.isInvisible
            ? Pixmap(width: box.width, height: box.height)
            : Pixmap(width: box.width, height: box.height, filledWith: background)
        let left = (box.width - frame.width) / 2, top = (box.height - frame.height) / 2
        let rowBytes = frame.width * 4
        out.data.withUnsafeMutableBytes { target in
            frame.data.withUnsafeBytes { source in
                for y in 0..<frame.height {
                    (target.baseAddress! + ((top + y) * box.width + left) * 4)
                        .copyMemory(from: source.baseAddress! + y * rowBytes, byteCount: rowBytes)
                }
            }
        }
        return out
    }

    /// round(duration × fps), at least 1.
    public var frameCount: Int { Canvas.frameCount(duration: scene.canvas.duration, fps: fps) }

    /// What decoding one image asset gave: its pixels, or why a Lottie file's image is
    /// drawn without (see ``imageWarning``).
    private enum DecodedImage {
        case image(Pixmap)
        case skipped(String)
    }

    /// Decodes `asset`, its header first checked against the limits (with `decodedBytes`
    /// of images already decoded). An image a limit refuses, and any broken image of a
    /// Flipbook scene, is an error; a Lottie file's image that does not decode is skipped,
    /// as ThorVG and rlottie draw such a file.
    private static func decodeImage(
        _ asset: String, layer: String, of scene: Scene, limits: ResourceLimits,
        naming: LimitNaming, decodedBytes: Double
    ) throws -> DecodedImage {
        var refused = false
        let accept = { (width: Int, height: Int) -> String? in
            let problem =
                limits.imageViolation(width: width, height: height)?.message(naming: naming)
                ?? (decodedBytes + Double(width * height * 4) > Double(limits.maxMemory)
                    ? "the decoded images would take more than the \(naming.name(.maxMemory)) limit"
                    : nil)
            refused = problem != nil
            return problem
        }
        let path: String
        let decoded: Result<Pixmap, ImageError>
        if scene.assets[asset] == nil, let bytes = scene.embeddedAssets[asset] {
            path = "embedded"
            decoded = Result { () throws(ImageError) in
                try ImageDecoder.decode(bytes, accepting: accept)
            }
        } else {
            guard let file = scene.assets[asset] else {
                throw RenderError.missingAsset(name: asset, layer: layer)
            }
            if let size = FileSystem.size(of: file), Double(size) > Double(limits.maxMemory) {
                throw RenderError.unreadableAsset(
                    name: asset, path: file,
                    reason: "the file is \(size) bytes, over the \(naming.name(.maxMemory)) limit")
            }
            path = file
            decoded = Result { () throws(ImageError) in
                try ImageDecoder.read(path: file, accepting: accept)
            }
        }
        switch decoded {
        case .success(let image): return .image(image)
        case .failure(let error):
            let reason = Self.reason(error, path)
            guard scene.format == .lottie, !refused else {
                throw RenderError.unreadableAsset(name: asset, path: path, reason: reason)
            }
            let why = isUnknownFormat(error) ? "not a PNG, JPEG or WebP image" : reason
            return .skipped("asset `\(asset)` (\(path)): \(why)")
        }
    }

    /// Whether the bytes are in none of the formats ``ImageDecoder`` reads (it tries PNG
    /// last, so its error names PNG alone).
    private static func isUnknownFormat(_ error: ImageError) -> Bool {
        switch error {
        case .png(.wrongSignature): true
        case .inFile(_, let inner): isUnknownFormat(inner)
        default: false
        }
    }

    /// A PNG error without the leading path, which the asset message already names.
    private static func reason(_ error: any Error, _ path: String) -> String {
        let message = "\(error)"
        return message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message
    }

    /// Output size in pixels: ``frameBox`` when set, else canvas × scale.
    public var pixelSize: (width: Int, height: Int) {
        frameBox ?? renderer.pixelSize(of: scene.canvas.size)
    }

    /// The time frame `frameIndex` shows: frameIndex / fps.
    public func seconds(ofFrame frameIndex: Int) -> Double { Double(frameIndex) / fps }

    /// Renders frame `frameIndex`.
    public func renderFrame(_ frameIndex: Int) -> Pixmap {
        guard let timings else { return render(timeline.frame(at: seconds(ofFrame: frameIndex))) }
        let tree = timings.measure(.timeline) { timeline.frame(at: seconds(ofFrame: frameIndex)) }
        let pixmap = timings.measure(.render) { render(tree) }
        timings.addFrames(1)
        return pixmap
    }

    private func render(_ tree: FrameTree) -> Pixmap {
        let frame = frameReuse.map { $0.render(tree, with: renderer) } ?? renderer.render(tree)
        return boxed(frame)
    }

    private func boxed(_ frame: Pixmap) -> Pixmap {
        guard let frameBox else { return frame }
        return Self.letterbox(frame, into: frameBox, background: scene.canvas.background)
    }

    /// Renders the frame at an arbitrary time.
    public func renderFrame(at seconds: Double) -> Pixmap {
        boxed(renderer.render(timeline.frame(at: seconds)))
    }
}

extension SceneRenderer: FrameSource {
    public var loopCount: Int { scene.canvas.loop }
    public var background: Color { scene.canvas.background }
    /// Renders frame `index` (``renderFrame(_:)``).
    public func frame(_ index: Int) -> Pixmap { renderFrame(index) }
}

/// A scene that loaded but cannot be drawn.
public enum RenderError: Error, CustomStringConvertible {
    case missingAsset(name: String, layer: String)
    case unreadableAsset(name: String, path: String, reason: String)
    case unusableFont(layer: String, reason: String)

    public var description: String {
        switch self {
        case .missingAsset(let name, let layer):
            "layer `\(layer)` uses asset `\(name)`, which the scene does not declare"
        case .unreadableAsset(let name, let path, let reason):
            "asset `\(name)` (\(path)) could not be read: \(reason)"
        case .unusableFont(let layer, let reason): "text layer `\(layer)`: \(reason)"
        }
    }
}
