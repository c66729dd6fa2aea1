/// One ``ResourceLimits`` limit a scene or image breaks: which limit, the value asked for
/// and the limit, as data. The scene model does not know how its caller lets users raise a
/// limit, so the message names the setting through a ``LimitNaming`` the caller gives
/// (`flipbook` names its flags).
public struct LimitViolation: Sendable, Equatable {
    /// What was asked for, with the numbers the message shows.
    public enum Cause: Sendable, Equatable {
        /// An output side over ``ResourceLimits/maxSide`` (the size, in pixels).
        case outputSide(width: Double, height: Double)
        /// An output frame of more than `maxPixels` pixels.
        case outputPixels(width: Double, height: Double)
        /// More than `maxFrames` frames: `duration` seconds at `fps`.
        case frames(count: Double, duration: Double, fps: Double)
        /// More than `maxLayers` layers expanded (`lottie`: precompositions, parents, mattes
        /// and repeater copies; otherwise replicator instances). `Int.max` when it overflowed.
        case layers(count: Int, lottie: Bool)
        /// More than `maxPathElements` path elements over every shape path.
        case pathElements(count: Int)
        /// About `bytes` for `frames` frames of `frameBytes` in flight, over `maxMemory`.
        case memory(bytes: Double, frames: Int, frameBytes: Double)
        /// An image of more than `maxPixels` pixels.
        case imagePixels(width: Int, height: Int)
        /// An image whose decoded pixels take more than `maxMemory`.
        case imageMemory(width: Int, height: Int)
        /// A file that counts more of `item` than its limit while it is read (the count
        /// stops at the limit, so the message says "more than").
        case fileCount(CountedItem)
        /// One path of a file with more vertices than `maxPathElements`.
        case pathVertices
        /// A file of `bytes` bytes, over the most a file may have (`maxMemory`'s share,
        /// ``ResourceLimits/maxDocumentBytes``) with `maxMemory` at `memory`.
        case fileSize(bytes: Int64, memory: Int)
        /// A compressed file (a `.tgs` sticker) that expands past the most a file may have.
        case stickerExpansion
        /// A parsed document that needs more than its share of `maxMemory` to hold
        /// (the limit is that share, in bytes).
        case documentMemory
    }

    /// What a reader counts while it reads a file, each against its own limit.
    public enum CountedItem: Sendable, Equatable {
        /// Layers as the file lists them, precompositions' included (`maxLayers`).
        case layers
        /// Layers with precompositions expanded, parents and mattes counted (`maxLayers`).
        case expandedLayers
        /// Keyframes over every animated property (`maxKeyframes`).
        case keyframes
        /// Path elements over every shape path (`maxPathElements`).
        case pathElements
        /// Colour stops in one gradient (`maxGradientStops`).
        case gradientStops
        /// Characters over every text (`maxTextLength`).
        case textCharacters

        /// The words a message counts them in.
        var noun: String {
            switch self {
            case .layers: "layers"
            case .expandedLayers: "layers (precompositions expanded, parents and mattes counted)"
            case .keyframes: "keyframes"
            case .pathElements: "path elements"
            case .gradientStops: "colour stops in one gradient"
            case .textCharacters: "characters of text"
            }
        }

        /// The setting that raises the limit.
        var setting: ResourceLimits.Setting {
            switch self {
            case .layers, .expandedLayers: .maxLayers
            case .keyframes: .maxKeyframes
            case .pathElements: .maxPathElements
            case .gradientStops: .maxGradientStops
            case .textCharacters: .maxTextLength
            }
        }
    }

    public var cause: Cause
    /// The limit that was passed.
    public var limit: Int

    public init(_ cause: Cause, limit: Int) {
        self.cause = cause
        self.limit = limit
    }

    /// The setting that raises this limit; nil for ``Cause/outputSide(width:height:)``,
    /// which the GIF format fixes.
    public var setting: ResourceLimits.Setting? {
        switch cause {
        case .outputSide: nil
        case .outputPixels, .imagePixels: .maxPixels
        case .frames: .maxFrames
        case .layers: .maxLayers
        case .pathElements, .pathVertices: .maxPathElements
        case .memory, .imageMemory, .fileSize, .stickerExpansion, .documentMemory: .maxMemory
        case .fileCount(let item): item.setting
        }
    }

    /// The sentence a user reads, naming settings with `naming`.
    public func message(naming: LimitNaming) -> String {
        typealias L = ResourceLimits
        let raise = setting.map { naming.name($0) } ?? ""
        switch cause {
        case .outputSide(let w, let h):
            return
                "the output would be \(L.format(w))×\(L.format(h)) px; neither side may exceed \(limit) px"
        case .outputPixels(let w, let h):
            return
                "the output would be \(L.format(w))×\(L.format(h)) px (\(L.megapixels(w * h))), over the limit of "
                + "\(limit) pixels; lower canvas.size or the scale, or raise \(raise)"
        case .frames(let frames, let duration, let rate):
            return
                "the scene has \(L.format(frames)) frames (\(L.format(duration)) s at \(L.format(rate)) fps), over the "
                + "limit of \(limit); shorten canvas.duration or raise \(raise)"
        case .layers(let layers, let lottie):
            let count = layers == .max ? "more than \(Int.max)" : String(layers)
            return lottie
                ? "the animation has \(count) layers with precompositions, parents, mattes and repeater copies expanded, "
                    + "over the limit of \(limit); raise \(raise)"
                : "the scene has \(count) layers with replicator instances expanded, over the limit of \(limit); "
                    + "lower instanceCount or raise \(raise)"
        case .pathElements(let elements):
            return
                "the scene's paths have \(elements) elements, over the limit of \(limit); simplify them or raise \(raise)"
        case .memory(let memory, let frames, let frameBytes):
            return
                "rendering needs about \(L.bytes(memory)) (\(frames) frames of \(L.bytes(frameBytes)) in flight), over "
                + "the limit of \(L.bytes(Double(limit))); lower \(naming.name(.jobs)), the size or the scale, or raise \(raise)"
        case .imagePixels(let width, let height):
            return
                "the image is \(width)×\(height) px (\(L.megapixels(Double(width) * Double(height)))), over the limit "
                + "of \(limit) pixels; raise \(raise) to load it"
        case .imageMemory(let width, let height):
            return
                "the image is \(width)×\(height) px and would take \(L.bytes(Double(width) * Double(height) * 4)), over "
                + "the limit of \(L.bytes(Double(limit))); raise \(raise) to load it"
        case .fileCount(let item):
            return
                "the file has more than \(limit) \(item.noun), over the limit of \(limit); raise \(raise)"
        case .pathVertices:
            return
                "a path has more than \(limit) vertices, over the limit of \(limit) path elements; raise \(raise)"
        case .fileSize(let bytes, let memory):
            return
                "the file is \(bytes) bytes, over the \(limit) a file may have with \(raise) \(memory); raise \(raise)"
        case .stickerExpansion:
            return
                "not a gzip-compressed Lottie sticker: it expands to more than \(limit) bytes; raise \(raise)"
        case .documentMemory:
            return
                "the document needs more than \(limit >> 20) MiB to hold once read, over what \(raise) allows; "
                + "raise \(raise)"
        }
    }
}

extension ResourceLimits {
    /// A setting a message may tell the user to change: the limits; `jobs`, the
    /// renderer's thread count that decides how many frames are in flight; the exact
    /// output size asked for (`size`); and an exporter's size budget (`maxSize`) and the
    /// encoding settings its search lowers (`quality`, `lossy`).
    public enum Setting: String, Sendable, CaseIterable {
        case maxPixels, maxFrames, maxLayers, maxPathElements, maxMemory, maxKeyframes
        case maxGradientStops, maxTextLength, jobs, size, maxSize, quality, lossy
    }
}

/// How limit messages name a ``ResourceLimits/Setting``: a command-line tool names its
/// flags, a library its properties.
public struct LimitNaming: Sendable {
    public var name: @Sendable (ResourceLimits.Setting) -> String

    public init(name: @escaping @Sendable (ResourceLimits.Setting) -> String) { self.name = name }

    /// `ResourceLimits.maxPixels` and so on, for library callers (`jobs`: "the frames in
    /// flight"; the exporter's settings by their property names).
    public static let properties = LimitNaming { setting in
        switch setting {
        case .jobs: "the frames in flight"
        case .size, .maxSize, .quality, .lossy: setting.rawValue
        default: "ResourceLimits.\(setting.rawValue)"
        }
    }
}
