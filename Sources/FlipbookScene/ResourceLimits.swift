import FlipbookGeometry

/// How much work and memory a scene may ask for, like ImageMagick's resource policy.
///
/// Every limit is checked from the scene's numbers alone, before any frame, image or
/// path is allocated, so a scene asking for a 100000 × 100000 canvas or a billion
/// replicated layers is refused at once instead of exhausting the machine. The defaults
/// are meant to be safe on a CI runner. A broken limit is reported as a ``LimitViolation``
/// (which setting, the value asked for, the limit); the caller words it with its own name
/// for the setting (`flipbook` names its flags, `--max-pixels` and so on).
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
    /// Neither side of an output frame may exceed this, whatever `maxPixels` says (the
    /// GIF format stores sizes in 16 bits).
    public static let maxSide = 65535

    public init(
        maxPixels: Int = 8192 * 8192, maxFrames: Int = 10_000, maxLayers: Int = 10_000,
        maxPathElements: Int = 100_000, maxMemory: Int = 2 << 30,
        maxKeyframes: Int = 200_000, maxGradientStops: Int = 1_000, maxTextLength: Int = 100_000
    ) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxLayers = maxLayers
        self.maxPathElements = maxPathElements
        self.maxMemory = maxMemory
        self.maxKeyframes = maxKeyframes
        self.maxGradientStops = maxGradientStops
        self.maxTextLength = maxTextLength
    }

    public static let `default` = ResourceLimits()
    /// No limit but the arithmetic ones (sizes must still fit in memory addresses).
    public static let unlimited = ResourceLimits(
        maxPixels: .max, maxFrames: .max, maxLayers: .max,
        maxPathElements: .max, maxMemory: .max, maxKeyframes: .max,
        maxGradientStops: .max, maxTextLength: .max)

    /// The most bytes a file may expand to when read (a `.tgs` or `.lottie` decompressed, or
    /// a plain file's size): a quarter of `maxMemory`, at most 256 MiB.
    public var maxDocumentBytes: Int { min(256 << 20, max(1 << 20, maxMemory / 4)) }

    /// Every limit the scene breaks when rendered at `scale` and `fps` (the canvas's
    /// unless given) with `framesInFlight` frames existing at once (rendered, queued, being
    /// encoded: the memory estimate is frame bytes × this); empty when it fits. The memory
    /// limit is only checked when the others hold.
    public func violations(
        of scene: Scene, scale: Double? = nil, fps: Double? = nil,
        framesInFlight: Int = 2
    ) -> [LimitViolation] {
        var problems: [LimitViolation] = []
        let s = scale ?? scene.canvas.scale
        let (w, h) = Canvas.roundedPixelSize(of: scene.canvas.size, scale: s)
        let pixels = w * h
        if !(w <= Double(Self.maxSide) && h <= Double(Self.maxSide)) {
            problems.append(LimitViolation(.outputSide(width: w, height: h), limit: Self.maxSide))
        } else if !(pixels <= Double(maxPixels)) {
            problems.append(LimitViolation(.outputPixels(width: w, height: h), limit: maxPixels))
        }
        let rate = fps ?? scene.canvas.fps
        let frames = Canvas.roundedFrameCount(duration: scene.canvas.duration, fps: rate)
        if !(frames <= Double(maxFrames)) {
            problems.append(
                LimitViolation(
                    .frames(count: frames, duration: scene.canvas.duration, fps: rate),
                    limit: maxFrames))
        }
        let layers = Self.expandedLayerCount(scene.layers)
        if layers > maxLayers {
            problems.append(
                LimitViolation(
                    .layers(count: layers, lottie: scene.format == .lottie), limit: maxLayers))
        }
        let elements = Self.pathElementCount(scene.layers)
        if elements > maxPathElements {
            problems.append(LimitViolation(.pathElements(count: elements), limit: maxPathElements))
        }
        if problems.isEmpty {
            let frameBytes = pixels * 4
            let memory = frameBytes * Double(max(1, framesInFlight))
            if !(memory <= Double(maxMemory)) {
                problems.append(
                    LimitViolation(
                        .memory(bytes: memory, frames: framesInFlight, frameBytes: frameBytes),
                        limit: maxMemory))
            }
        }
        return problems
    }

    /// The limit an image of `width` × `height` pixels (read from its header) breaks, or
    /// nil when it may be decoded.
    public func imageViolation(width: Int, height: Int) -> LimitViolation? {
        let pixels = Double(width) * Double(height)
        guard pixels <= Double(maxPixels) else {
            return LimitViolation(.imagePixels(width: width, height: height), limit: maxPixels)
        }
        guard pixels * 4 <= Double(maxMemory) else {
            return LimitViolation(.imageMemory(width: width, height: height), limit: maxMemory)
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
        return mp >= 100 || mp == mp.rounded()
            ? "\(format(mp.rounded())) Mpx" : "\(Double(Int(mp * 10)) / 10) Mpx"
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
    public var violations: [LimitViolation]
    /// How the messages name the settings to raise.
    public var naming: LimitNaming
    public init(violations: [LimitViolation], naming: LimitNaming = .properties) {
        self.violations = violations
        self.naming = naming
    }
    public var description: String {
        violations.map { $0.message(naming: naming) }.joined(separator: "\n")
    }
}

extension ResourceLimits {
    /// Throws every limit the scene breaks (see ``violations(of:scale:fps:framesInFlight:)``).
    public func check(
        _ scene: Scene, scale: Double? = nil, fps: Double? = nil, framesInFlight: Int = 2,
        naming: LimitNaming = .properties
    ) throws(ResourceLimitError) {
        let problems = violations(of: scene, scale: scale, fps: fps, framesInFlight: framesInFlight)
        if !problems.isEmpty { throw ResourceLimitError(violations: problems, naming: naming) }
    }
}
