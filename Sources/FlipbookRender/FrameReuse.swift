import Foundation
import FlipbookGeometry
import FlipbookRaster
import FlipbookTimeline

/// Reuse between frames (damage tracking): each thread that renders through it keeps the
/// last frame it rendered, tree and pixels, and draws its next frame by repainting only
/// the rows where the two trees can differ (``FrameDamage``) on those pixels.
///
/// The bytes are those of a full render, by construction:
/// - Outside the damaged rows every pixel is the previous frame's, which a full render of
///   the new frame would repeat (``FrameDamage``'s rules).
/// - The damaged rows are refilled with the starting color and every layer that can reach
///   them is drawn again exactly as in a full render, with ``Pixmap/writableRows`` keeping
///   its writes to those rows: the rasterizer's work area, spans and shading do not depend
///   on the limit, so each row gets the same values (`FrameReuseTests` compares every frame
///   of the seed scenes and Lottie files both ways, in and out of order).
/// - Which earlier frame a thread kept does not matter: any pair of trees gives a correct
///   damage box, so the output does not depend on how frames were spread over threads.
///
/// Memory: one kept frame per thread, whichever scene it belongs to (a thread rendering
/// another scene drops it first), released when the thread ends. When nobody else holds
/// the kept pixels any more (the encoder is done with them), the next frame is drawn into
/// them in place; otherwise they are copied once (copy on write).
public final class FrameReuse: @unchecked Sendable {
    /// A thread's kept frame, in its thread dictionary: one per thread whichever
    /// ``FrameReuse`` rendered it, so that many scenes rendered in turn on a thread (a
    /// batch) still keep one frame there, and a thread's frame goes when the thread does.
    private final class Slot {
        let owner: FrameReuse
        let generation: Int
        let tree: FrameTree
        let start: (pixel: UInt32, layers: Int)
        var pixels: Pixmap?

        init(
            owner: FrameReuse, generation: Int, tree: FrameTree,
            start: (pixel: UInt32, layers: Int), pixels: Pixmap
        ) {
            self.owner = owner
            self.generation = generation
            self.tree = tree
            self.start = start
            self.pixels = pixels
        }
    }

    private static let slotKey = "FlipbookRender.FrameReuse"
    private let lock = NSLock()
    private var generation = 0
    private var partial = 0

    public init() {}

    /// Whether new renderers reuse frames (default true): an option for measuring without
    /// it, like tiny-skia's `force_hq_pipeline`. Set it before rendering starts; the library
    /// reads no environment (`flipbook` maps FLIPBOOK_FRAME_REUSE onto it).
    nonisolated(unsafe) package static var isEnabled = true

    /// How many frames were drawn by repainting fewer rows than the frame has (including
    /// frames where nothing changed).
    public var partialRepaints: Int {
        lock.lock()
        defer { lock.unlock() }
        return partial
    }

    /// Renders `tree` with `renderer`, reusing this thread's previous frame where it can.
    /// Every call must pass the same renderer (scale, images, options).
    public func render(_ tree: FrameTree, with renderer: FrameRenderer) -> Pixmap {
        let dictionary = Thread.current.threadDictionary
        // Taken out first (whoever it belongs to), so that the thread never holds two
        // frames and the pixels are drawn into in place when the slot held the last reference.
        let slot = dictionary[Self.slotKey] as? Slot
        dictionary.removeObject(forKey: Self.slotKey)
        lock.lock()
        let current = generation
        lock.unlock()
        let (width, height) = renderer.pixelSize(of: tree.canvasSize)
        let root = FlipbookGeometry.AffineTransform.scale(renderer.scale, renderer.scale)
        let start = renderer.startingPixel(tree, root: root, width: width, height: height)
        var result: Pixmap
        var repaintedRows = height
        // The rows to repaint on the kept pixels, or nil to render the frame whole: when
        // the damage covers most of the frame, a fresh frame costs what repainting does,
        // without copying the kept pixels first if the encoder still holds them.
        var rows: Range<Int>? = nil
        if let slot, slot.owner === self, slot.generation == current, let kept = slot.pixels,
            kept.width == width, kept.height == height,
            let damage = FrameDamage.box(
                from: slot.tree, oldStart: slot.start, to: tree, newStart: start,
                renderer: renderer),
            damage.height * 5 < height * 3
        {
            rows = damage.y0..<max(damage.y0, damage.y1)
        }
        if let rows, let slot, var previous = slot.pixels {
            // Dropped from the slot first, so that the pixels are drawn into in place when
            // the slot held the last reference.
            slot.pixels = nil
            repaintedRows = rows.count
            if !rows.isEmpty {
                renderer.repaint(tree, rows: rows, start: start, root: root, into: &previous)
            }
            result = previous
        } else {
            slot?.pixels = nil
            result = renderer.render(tree)
        }
        // A frame drawn while a stop was requested may be incomplete: it is not kept.
        if !RenderCancellation.shared.isCancelled {
            dictionary[Self.slotKey] = Slot(
                owner: self, generation: current, tree: tree, start: start, pixels: result)
        }
        if repaintedRows < height {
            lock.lock()
            partial += 1
            lock.unlock()
        }
        return result
    }

    /// Forgets every kept frame (each thread drops its own at its next render) and the count.
    public func reset() {
        lock.lock()
        generation += 1
        partial = 0
        lock.unlock()
        let dictionary = Thread.current.threadDictionary
        if (dictionary[Self.slotKey] as? Slot)?.owner === self {
            dictionary.removeObject(forKey: Self.slotKey)
        }
    }
}

extension FrameRenderer {
    /// The starting pixel and folded layer count ``render(_:)`` uses.
    func startingPixel(
        _ frame: FrameTree, root: FlipbookGeometry.AffineTransform, width: Int, height: Int
    ) -> (pixel: UInt32, layers: Int) {
        foldsBackground
            ? BackgroundFolding.fold(frame, root: root, width: width, height: height)
            : (pixel: SolidComposite.premultiplied(frame.background), layers: 0)
    }

    /// Redraws `rows` of `surface` for `frame`: the rows refilled with the starting pixel,
    /// then every layer whose box reaches them drawn as ``render(_:)`` draws it, writing
    /// those rows only.
    func repaint(
        _ frame: FrameTree, rows: Range<Int>, start: (pixel: UInt32, layers: Int),
        root: FlipbookGeometry.AffineTransform,
        into surface: inout Pixmap
    ) {
        let width = surface.width
        surface.data.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { pixels in
                pixels.baseAddress!.advanced(by: rows.lowerBound * width)
                    .update(repeating: start.pixel, count: rows.count * width)
            }
        }
        let whole = PixelBounds(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        let band = PixelBounds(x0: 0, y0: rows.lowerBound, x1: surface.width, y1: rows.upperBound)
        surface.writableRows = rows
        for layer in frame.layers.dropFirst(start.layers) {
            if let box = FrameDamage.deviceBox(
                of: layer, parent: root, whole: whole, images: images),
                box.intersection(band).isEmpty
            {
                continue
            }
            draw(layer, parent: root, into: &surface, clip: nil)
        }
        surface.writableRows = nil
    }
}
