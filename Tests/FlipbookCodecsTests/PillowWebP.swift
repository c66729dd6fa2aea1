import Foundation
import Testing

/// Pillow (Debian's python3-pil, installed by scripts/setup) as an independent decoder
/// of animated WebP: its frames as straight RGBA bytes and its durations in ms.
enum PillowWebP {
    struct Decoded {
        var frames: [[UInt8]]
        var durations: [Int]
    }

    /// Debian's Python, whose packages scripts/setup installs (a pyenv or venv `python3`
    /// on PATH may lack Pillow).
    static let python = "/usr/bin/python3"

    static let script = """
        import sys
        from PIL import Image, ImageSequence
        im = Image.open(sys.argv[1])
        assert im.format == sys.argv[3], im.format
        out = open(sys.argv[2], "wb")
        for frame in ImageSequence.Iterator(im):
            rgba = frame.convert("RGBA")
            print(frame.info.get("duration", -1))
            out.write(rgba.tobytes())
        """

    /// Fully transparent pixels as 0, 0, 0, 0: libwebp may store any colour under them
    /// (`exact` is off, as in `img2webp`), and `Pixmap.straightRGBA()` writes zeros there.
    static func clearedTransparency(_ rgba: [UInt8]) -> [UInt8] {
        var out = rgba
        for i in stride(from: 0, to: out.count - 3, by: 4) where out[i + 3] == 0 {
            out.replaceSubrange(i..<i + 3, with: [0, 0, 0])
        }
        return out
    }

    /// Decodes `path` with Pillow (as `format`, Pillow's name: WEBP, or GIF for the lossy
    /// tests' reference); a recorded issue (not a skip) when Pillow is missing.
    static func decode(_ path: String, width: Int, height: Int, format: String = "WEBP") throws
        -> Decoded?
    {
        let raw = path + ".rgba"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, path, raw, format]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            Issue.record("\(python) is missing: run scripts/setup (python3-pil)")
            return nil
        }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(
            decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Issue.record(
                "Pillow could not decode \(path) (scripts/setup installs python3-pil): \(failure)")
            return nil
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height * 4
        let frames = stride(from: 0, to: bytes.count, by: size).map {
            Array(bytes[$0..<min(bytes.count, $0 + size)])
        }
        return Decoded(
            frames: frames.map(clearedTransparency),
            durations: text.split(separator: "\n").compactMap { Int($0) })
    }
}
