import FlipbookGeometry

/// How much work and memory a scene may ask for, like ImageMagick's resource policy.
///
/// Every limit is checked from the scene's numbers alone, before any frame, image or
/// path is allocated, so a scene asking for a 100000 × 100000 canvas or a billion
/// replicated layers is refused at once instead of exhausting the machine. The defaults
/// are meant to be safe on a CI runner; `flipbook` raises them with `--max-pixels`,
/// `--max-frames`, `--max-layers`, `--max-path-elements` and `--max-memory`.
public struct ResourceLimits: Sendable, Equatable {
    /// Largest output frame, width × height in pixels at the chosen scale; also the
    /// largest image asset. Default 8192 × 8192 (64 Mpx).
    public var maxPixels: Int
    /// Most frames one render may produce. Default 10000.
    public var maxFrames: Int
    /// Most layers in the tree with every replicator expanded (instance counts multiply
    /// through nesting; masks count). Default 10000.
    public var maxLayers: Int
    /// Most path elements (move, line, curve, close) over all shape paths. Default 100000.
    public var maxPathElements: Int
    /// Most bytes the frames in flight and decoded images may take, and the bound on what
    /// reading a file may hold (its decompressed bytes and the parsed document: half of
    /// this). Default 2 GiB, which fits a CI runner of 7 GB with two jobs beside it.
    public var maxMemory: Int
    /// Most keyframes over every animated property of a file, counted as they are read.
    /// Default 200000 (a long character animation has a few thousand).
    public var maxKeyframes: Int
    /// Most colour stops in one gradient. Default 1000.
    public var maxGradientStops: Int
    /// Most characters over every text a file shows. Default 100000.
    public var maxTextLength: Int
    /// Frames that exist at once while rendering (rendered, queued, being encoded);
    /// the memory estimate is frame bytes × this + decoded images. Renderers running
    /// `jobs` threads should set it with ``forJobs(_:)``.
    public var framesInFlight: Int

    /// Neither side of an output frame may exceed this, whatever `maxPixels` says (the
    /// GIF format stores sizes in 16 bits).
    public static let maxSide = 65535

    public init(maxPixels: Int = 8192 * 8192, maxFrames: Int = 10_000, maxLayers: Int = 10_000,
                maxPathElements: Int = 100_000, maxMemory: Int = 2 << 30, framesInFlight: Int = 2,
                maxKeyframes: Int = 200_000, maxGradientStops: Int = 1_000, maxTextLength: Int = 100_000) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxLayers = maxLayers
        self.maxPathElements = maxPathElements
        self.maxMemory = maxMemory
        self.framesInFlight = framesInFlight
        self.maxKeyframes = maxKeyframes
        self.maxGradientStops = maxGradientStops
        self.maxTextLength = maxTextLength
    }

    public static let `default` = ResourceLimits()
    /// No limit but the arithmetic ones (sizes must still fit in memory addresses).
    public static let unlimited = ResourceLimits(maxPixels: .max, maxFrames: .max, maxLayers: .max,
                                                 maxPathElements: .max, maxMemory: .max, maxKeyframes: .max,
                                                 maxGradientStops: .max, maxTextLength: .max)

    /// The most bytes a file may expand to when read (a `.tgs` or `.lottie` decompressed, or
    /// a plain file's size): a quarter of `maxMemory`, at most 256 MiB.
    public var maxDocumentBytes: Int { min(256 << 20, max(1 << 20, maxMemory / 4)) }

    /// These limits with the frames in flight of a render on `jobs` threads: each worker
    /// holds a frame, the in-order window holds two per worker more, and the encoder a
    /// batch.
    public func forJobs(_ jobs: Int) -> ResourceLimits {
        var copy = self
        copy.framesInFlight = ResourceLimits.saturating(4, max(1, jobs), plus: 2)
        return copy
    }

    /// Every limit the scene breaks when rendered at `scale` and `fps` (the canvas's
    /// unless given), as messages; empty when it fits.
    public func violations(of scene: Scene, scale: Double? = nil, fps: Double? = nil) -> [String] {
        var problems: [String] = []
        let s = scale ?? scene.canvas.scale
        let (w, h) = Canvas.roundedPixelSize(of: scene.canvas.size, scale: s)
        let pixels = w * h
        let sizeText = "\(Self.format(w))×\(Self.format(h)) px"
        if !(w <= Double(Self.maxSide) && h <= Double(Self.maxSide)) {
            problems.append("the output would be \(sizeText); neither side may exceed \(Self.maxSide) px")
        } else if !(pixels <= Double(maxPixels)) {
            problems.append("the output would be \(sizeText) (\(Self.megapixels(pixels))), over the limit of "
                + "\(maxPixels) pixels; lower canvas.size or the scale, or raise --max-pixels")
        }
        let rate = fps ?? scene.canvas.fps
        let frames = Canvas.roundedFrameCount(duration: scene.canvas.duration, fps: rate)
        if !(frames <= Double(maxFrames)) {
            problems.append("the scene has \(Self.format(frames)) frames (\(Self.format(scene.canvas.duration)) s at "
                + "\(Self.format(rate)) fps), over the limit of \(maxFrames); shorten canvas.duration or raise --max-frames")
        }
        let layers = Self.expandedLayerCount(scene.layers)
        if layers > maxLayers {
            let count = layers == .max ? "more than \(Int.max)" : String(layers)
            if scene.format == .lottie {
                problems.append("the animation has \(count) layers with precompositions, parents, mattes and repeater "
                    + "copies expanded, over the limit of \(maxLayers); raise --max-layers")
            } else {
                problems.append("the scene has \(count) layers with replicator instances expanded, over the limit of "
                    + "\(maxLayers); lower instanceCount or raise --max-layers")
            }
        }
        let elements = Self.pathElementCount(scene.layers)
        if elements > maxPathElements {
            problems.append("the scene's paths have \(elements) elements, over the limit of \(maxPathElements); "
                + "simplify them or raise --max-path-elements")
        }
        if problems.isEmpty {
            let frameBytes = pixels * 4
            let memory = frameBytes * Double(max(1, framesInFlight))
            if !(memory <= Double(maxMemory)) {
                problems.append("rendering needs about \(Self.bytes(memory)) (\(framesInFlight) frames of "
                    + "\(Self.bytes(frameBytes)) in flight), over the limit of \(Self.bytes(Double(maxMemory))); "
                    + "lower --jobs, the size or the scale, or raise --max-memory")
            }
        }
        return problems
    }

    /// The problem with an image of `width` × `height` pixels (read from its header),
    /// or nil when it may be decoded.
    public func imageViolation(width: Int, height: Int) -> String? {
        let pixels = Double(width) * Double(height)
        guard pixels <= Double(maxPixels) else {
            return "the image is \(width)×\(height) px (\(Self.megapixels(pixels))), over the limit of "
                + "\(maxPixels) pixels; raise --max-pixels to load it"
        }
        guard pixels * 4 <= Double(maxMemory) else {
            return "the image is \(width)×\(height) px and would take \(Self.bytes(pixels * 4)), over the limit of "
                + "\(Self.bytes(Double(maxMemory))); raise --max-memory to load it"
        }
        return nil
    }

    // MARK: Counting

    /// Layers with replicators expanded: a replicator draws its sublayers instanceCount
    /// times. Saturates at Int.max.
    public static func expandedLayerCount(_ layers: [Layer]) -> Int {
        layers.reduce(0) { saturating($0, 1, plus: expandedLayerCount(of: $1)) }
    }

    static func expandedLayerCount(of layer: Layer) -> Int {
        let children = expandedLayerCount(layer.sublayers)
        let copies = layer.replicator.map { max(0, $0.instanceCount) } ?? 1
        let mask = layer.mask.map(expandedLayerCount(of:)) ?? 0
        return saturating(saturating(children, copies, plus: 1), 1, plus: mask)
    }

    /// Elements of every path a shape layer draws (templates counted once: the path is
    /// shared by the instances).
    public static func pathElementCount(_ layers: [Layer]) -> Int {
        var total = 0
        for root in layers {
            root.forEachLayer { layer in
                if case .shape(let shape) = layer.content, case .path(let path) = shape.geometry {
                    total = saturating(total, 1, plus: path.elements.count)
                }
                if case .vector(let vector) = layer.content {
                    total = saturating(total, 1, plus: vector.pathElementCount)
                }
            }
        }
        return total
    }

    /// a × b + c, clamped to Int.max.
    static func saturating(_ a: Int, _ b: Int, plus c: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        if overflow { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(c)
        return overflow2 ? .max : sum
    }

    // MARK: Formatting

    static func format(_ v: Double) -> String {
        guard v.isFinite else { return String(v) }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    static func megapixels(_ pixels: Double) -> String {
        if pixels < 1_000_000 { return "\(format(pixels)) pixels" }
        let mp = pixels / 1_000_000
        guard mp.isFinite else { return "\(mp) Mpx" }
        return mp >= 100 || mp == mp.rounded() ? "\(format(mp.rounded())) Mpx" : "\(Double(Int(mp * 10)) / 10) Mpx"
    }

    static func bytes(_ n: Double) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = n, unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit == 0 { return "\(format(value)) bytes" }
        let rounded = (value * 10).rounded() / 10
        return "\(rounded == rounded.rounded() ? format(rounded) : String(rounded)) \(units[unit])"
    }
}

/// A scene that breaks a resource limit: a scene error (exit 2), reported before
/// anything large is allocated.
public struct ResourceLimitError: Error, CustomStringConvertible, Sendable {
    public var problems: [String]
    public init(problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "\n") }
}

extension ResourceLimits {
    /// Throws every limit the scene breaks.
    public func check(_ scene: Scene, scale: Double? = nil, fps: Double? = nil) throws(ResourceLimitError) {
        let problems = violations(of: scene, scale: scale, fps: fps)
        if !problems.isEmpty { throw ResourceLimitError(problems: problems) }
    }
}
