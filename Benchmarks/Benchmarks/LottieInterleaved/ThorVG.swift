#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ThorVG's software canvas playing one Lottie file, reached through its C API in the
/// shared library that thorvg-python ships (loaded at run time: nothing of ThorVG is built
/// or linked here). The calls are the ones scripts/bench-lottie-peers makes through
/// Python: an engine without worker threads, a canvas on one preallocated ABGR8888 buffer,
/// and per frame `set_frame` + `update` + `draw(clear)` + `sync`.
final class ThorVGPlayer {
    private typealias Handle = UnsafeMutableRawPointer
    private let setFrame: @convention(c) (Handle, Float) -> Int32
    private let update: @convention(c) (Handle) -> Int32
    private let draw: @convention(c) (Handle, Bool) -> Int32
    private let sync: @convention(c) (Handle) -> Int32
    private let canvas: Handle
    private let animation: Handle
    private let buffer: UnsafeMutablePointer<UInt32>

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Loads `file` into a `width`×`height` canvas, with ThorVG from `library`.
    init(library: String, file: String, width: Int, height: Int) throws {
        guard let lib = dlopen(library, RTLD_NOW) else {
            throw Failure(
                description: "cannot load ThorVG from \(library): \(String(cString: dlerror()))")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let address = dlsym(lib, name) else {
                throw Failure(description: "\(library) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        let engineInit = try symbol("tvg_engine_init", (@convention(c) (UInt32) -> Int32).self)
        let canvasCreate = try symbol(
            "tvg_swcanvas_create", (@convention(c) (UInt8) -> Handle?).self)
        let setTarget = try symbol(
            "tvg_swcanvas_set_target",
            (@convention(c) (Handle, UnsafeMutablePointer<UInt32>, UInt32, UInt32, UInt32, UInt8)
                -> Int32).self)
        let animationNew = try symbol(
            "tvg_lottie_animation_new", (@convention(c) () -> Handle?).self)
        let picture = try symbol(
            "tvg_animation_get_picture", (@convention(c) (Handle) -> Handle?).self)
        let load = try symbol(
            "tvg_picture_load", (@convention(c) (Handle, UnsafePointer<CChar>) -> Int32).self)
        let setSize = try symbol(
            "tvg_picture_set_size", (@convention(c) (Handle, Float, Float) -> Int32).self)
        let add = try symbol("tvg_canvas_add", (@convention(c) (Handle, Handle) -> Int32).self)
        setFrame = try symbol(
            "tvg_animation_set_frame", (@convention(c) (Handle, Float) -> Int32).self)
        update = try symbol("tvg_canvas_update", (@convention(c) (Handle) -> Int32).self)
        draw = try symbol("tvg_canvas_draw", (@convention(c) (Handle, Bool) -> Int32).self)
        sync = try symbol("tvg_canvas_sync", (@convention(c) (Handle) -> Int32).self)

        // 0 worker threads: ThorVG renders on the calling thread, as rlottie and the
        // measured Flipbook pass do.
        guard engineInit(0) == 0 else { throw Failure(description: "tvg_engine_init failed") }
        // 1: the default engine option (what thorvg-python's SwCanvas() passes).
        guard let canvas = canvasCreate(1) else {
            throw Failure(description: "tvg_swcanvas_create failed")
        }
        self.canvas = canvas
        buffer = .allocate(capacity: width * height)
        guard setTarget(canvas, buffer, UInt32(width), UInt32(width), UInt32(height), 0) == 0,
            let animation = animationNew(), let picture = picture(animation),
            load(picture, file) == 0, setSize(picture, Float(width), Float(height)) == 0,
            add(canvas, picture) == 0
        else { throw Failure(description: "ThorVG could not load \(file)") }
        self.animation = animation
    }

    /// Draws frame `index` into the buffer.
    func render(_ index: Int) {
        _ = setFrame(animation, Float(index))
        _ = update(canvas)
        _ = draw(canvas, true)
        _ = sync(canvas)
    }

    /// Shows frame `index` without drawing it (the peers' loop sets the last frame before
    /// a pass, so that frame 0 is a change).
    func seek(_ index: Int) { _ = setFrame(animation, Float(index)) }
}
