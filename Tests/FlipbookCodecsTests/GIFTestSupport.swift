import FlipbookGeometry
import FlipbookRaster
@testable import FlipbookCodecs
#if canImport(Glibc)
    import Glibc
#endif

/// Small builders for GIF tests: frames drawn from straight colors, and scratch paths.
enum GIFTestSupport {
    /// A pixmap filled with one straight color, with rectangles painted over it.
    static func frame(
        width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8),
        rects: [(x: Int, y: Int, w: Int, h: Int, color: (UInt8, UInt8, UInt8, UInt8))] = []
    ) -> Pixmap {
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            straight[i * 4] = fill.0; straight[i * 4 + 1] = fill.1; straight[i * 4 + 2] = fill.2;
            straight[i * 4 + 3] = fill.3
        }
        for r in rects {
            for y in r.y..<(r.y + r.h) {
                for x in r.x..<(r.x + r.w) {
                    let o = (y * width + x) * 4
                    straight[o] = r.color.0; straight[o + 1] = r.color.1;
                    straight[o + 2] = r.color.2; straight[o + 3] = r.color.3
                }
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// A smooth two-axis gradient with thousands of distinct colors, shifted by `phase`.
    static func gradient(width: Int, height: Int, phase: Int = 0) -> Pixmap {
        var straight = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                straight[o] = UInt8((x + phase) * 255 / (width + phase))
                straight[o + 1] = UInt8(y * 255 / max(1, height - 1))
                straight[o + 2] = UInt8(255 - (x * 255 / width + y * 255 / max(1, height - 1)) / 2)
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// What a GIF can show for `pixmap` on a transparent canvas: alpha < 128 → clear,
    /// else the unpremultiplied color at full opacity.
    static func gifVisible(_ pixmap: Pixmap) -> [UInt8] {
        var s = pixmap.straightRGBA()
        for i in stride(from: 0, to: s.count, by: 4) {
            if s[i + 3] < 128 {
                s[i] = 0; s[i + 1] = 0; s[i + 2] = 0; s[i + 3] = 0
            } else {
                s[i + 3] = 255
            }
        }
        return s
    }

    static func scratchFolder() -> String {
        let folder = "/tmp/flipbook-gif-\(UInt32.random(in: 0...UInt32.max))"
        _ = folder.withCString { mkdir($0, 0o755) }
        return folder
    }

    static func files(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Writes `frames` with `delays` and returns the file's bytes.
    /// `reordersGlobalMap` false: without the writer's last pass (``GIFGlobalMapOrder``).
    static func encode(
        _ frames: [Pixmap], delays: [Int], loopCount: Int = 0,
        background: Color? = .white, reordersGlobalMap: Bool = true
    ) throws -> [UInt8] {
        let path = scratchFolder() + "/out.gif"
        let writer = try GIFWriter(
            path: path, width: frames[0].width, height: frames[0].height,
            loopCount: loopCount, background: background)
        writer.reordersGlobalMap = reordersGlobalMap
        for (f, d) in zip(frames, delays) { try writer.append(f, delayCentiseconds: d) }
        try writer.finish()
        return try FileIO.readAll(path: path)
    }
}
