import CFreeType
import FlipbookGeometry

/// Glyph outlines of one FreeType face, in font units with y up, cached by glyph id.
///
/// Rules:
/// - Glyphs load with `FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP`: the
///   designer's unhinted outline in font units, so text scales, transforms and
///   anti-aliases like any other path (the layout scales by fontSize / unitsPerEm and
///   flips y).
/// - `FT_Outline_Decompose` maps to Path move/line/quad/cubic; every contour is closed.
/// - FreeType faces are not thread-safe: the face and the cache live behind one lock,
///   so a glyph is decomposed once and later calls are a dictionary lookup.
final class GlyphOutlines: @unchecked Sendable {
    private struct State {
        let face: FT_Face
        var cache: [UInt32: Path] = [:]
    }

    private let state: Locked<State>

    init(face: FT_Face) {
        state = Locked(State(face: face))
    }

    /// The outline of `glyph` (empty for blank glyphs and glyphs FreeType cannot load).
    func outline(_ glyph: UInt32) -> Path {
        state.withLock { s in
            if let path = s.cache[glyph] { return path }
            let path = Self.load(glyph, from: s.face)
            s.cache[glyph] = path
            return path
        }
    }

    private static func load(_ glyph: UInt32, from face: FT_Face) -> Path {
        let flags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return Path() }
        var outline = slot.pointee.outline
        let sink = PathSink()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in PathSink.from(user).move(to) },
            line_to: { to, user in PathSink.from(user).line(to) },
            conic_to: { c, to, user in PathSink.from(user).quad(c, to) },
            cubic_to: { c1, c2, to, user in PathSink.from(user).cubic(c1, c2, to) },
            shift: 0, delta: 0)
        let status = withExtendedLifetime(sink) {
            FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == 0 else { return Path() }
        sink.closeContour()
        return sink.path
    }
}

/// Receives FreeType's decomposition callbacks and builds a Path.
private final class PathSink {
    var path = Path()
    private var open = false

    static func from(_ user: UnsafeMutableRawPointer?) -> PathSink {
        Unmanaged<PathSink>.fromOpaque(user!).takeUnretainedValue()
    }

    private static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        guard let v else { return .zero }
        return Point(Double(v.pointee.x), Double(v.pointee.y))
    }

    func closeContour() {
        if open { path.close() }
        open = false
    }

    func move(_ to: UnsafePointer<FT_Vector>?) -> Int32 {
        closeContour()
        path.move(to: Self.point(to))
        open = true
        return 0
    }

    func line(_ to: UnsafePointer<FT_Vector>?) -> Int32 {
        path.line(to: Self.point(to))
        return 0
    }

    func quad(_ c: UnsafePointer<FT_Vector>?, _ to: UnsafePointer<FT_Vector>?) -> Int32 {
        path.quad(to: Self.point(to), control: Self.point(c))
        return 0
    }

    func cubic(
        _ c1: UnsafePointer<FT_Vector>?, _ c2: UnsafePointer<FT_Vector>?,
        _ to: UnsafePointer<FT_Vector>?
    ) -> Int32 {
        path.cubic(to: Self.point(to), control1: Self.point(c1), control2: Self.point(c2))
        return 0
    }
}
