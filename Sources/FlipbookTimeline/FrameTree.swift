import FlipbookGeometry
import FlipbookScene

/// What one frame shows: the layer tree with every animated value evaluated at one
/// time, replicators expanded into their instances, hidden layers dropped.
///
/// Plain values only; the renderer draws it without knowing about time.
public struct FrameTree: Sendable {
    /// Seconds since the start of the scene.
    public var seconds: Double
    public var canvasSize: Size
    public var background: Color
    public var snap: SnapMode
    public var layers: [RenderLayer]
}

/// Data a later stage attaches to layers of the trees it builds from a ``FrameTree``
/// (the renderer's vector drawings), compared when frames are compared.
package protocol LayerAttachment: AnyObject, Sendable {
    func isEqual(to other: any LayerAttachment) -> Bool
}

/// One layer of a ``FrameTree``.
public struct RenderLayer: Sendable {
    public var id: String
    /// Model values with animations and follow maps applied.
    public var properties: LayerProperties
    public var content: LayerContent
    /// The effective snap mode for this layer's frame.
    public var snap: SnapMode
    /// When set, used instead of `properties.transform`'s matrix (replicator instances,
    /// whose accumulated instance transform can hold a skew that components cannot).
    public var transformOverride: AffineTransform?
    public var sublayers: [RenderLayer]
    /// Vector artwork evaluated at this frame (``LayerContent/vector(_:)``).
    public var vector: [VectorNode]?
    /// Masks, effects, blend and mask modes beyond Core Animation's model.
    public var compositing: RenderCompositing?
    /// What a later stage keeps with the layers it builds itself (the renderer's leaf
    /// drawings of expanded vector artwork); nil in the timeline's trees, which do not
    /// know what it holds.
    package var attachment: (any LayerAttachment)?
    /// The mask, if any, as a list of at most one (a struct cannot hold itself); the
    /// timeline evaluates a mask straight into it.
    package var maskStorage: [RenderLayer]

    public init(
        id: String, properties: LayerProperties, content: LayerContent, snap: SnapMode,
        transformOverride: AffineTransform? = nil, sublayers: [RenderLayer] = [],
        mask: RenderLayer? = nil
    ) {
        self.id = id
        self.properties = properties
        self.content = content
        self.snap = snap
        self.transformOverride = transformOverride
        self.sublayers = sublayers
        self.maskStorage = mask.map { [$0] } ?? []
    }

    /// Lives in this layer's coordinate space; its alpha masks the layer.
    public var mask: RenderLayer? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }

    /// Whether the layer has a mask (without copying it out, as `mask != nil` would).
    public var hasMask: Bool { !maskStorage.isEmpty }

    /// The layer's own transform matrix, applied about the anchor point.
    public var transformMatrix: AffineTransform { transformOverride ?? properties.transform.matrix }
}
