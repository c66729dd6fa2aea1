import Foundation
import Testing
import FlipbookCodecs
import FlipbookGeometry
import FlipbookRaster

/// Frames that exercise every APNG encoding path: a transparent canvas, a semi-transparent
/// gradient edge, an opaque square that moves (OVER), a translucent square that moves over
/// visible pixels (SOURCE), content that vanishes to transparency (a BACKGROUND disposal
/// pays), and repeated frames (merged into one with the summed delay).
enum APNGSamples {
    static let width = 48, height = 32

    static func frame(_ k: Int) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        // A fixed soft edge along the top: alpha ramps 0…255, premultiplied.
        for x in 0..<width {
            let a = x * 255 / (width - 1)
            set(&p, x, 0, r: a * 200 / 255, g: a * 40 / 255, b: a * 90 / 255, a: a)
        }
        let step = k >= 4 && k <= 5 ? 4 : k  // frames 4 and 5 repeat frame 4
        // An opaque square moving right.
        for y in 4..<12 {
            for x in (2 + step * 3)..<(10 + step * 3) { set(&p, x, y, r: 255, g: 0, b: 0, a: 255) }
        }
        // A translucent square moving down over a fixed opaque bar (semi-transparent over visible pixels).
        for x in 20..<44 { set(&p, x, 20, r: 0, g: 0, b: 255, a: 255) }
        for y in (14 + step)..<(22 + step) where y < height {
            for x in 30..<38 { set(&p, x, y, r: 64, g: 64, b: 0, a: 128) }
        }
        // A block that exists only in even frames before frame 6 (vanishes to transparency).
        if step % 2 == 0 && k < 6 {
            for y in 24..<31 { for x in 2..<14 { set(&p, x, y, r: 10, g: 200, b: 30, a: 255) } }
        }
        return p
    }

    static func set(_ p: inout Pixmap, _ x: Int, _ y: Int, r: Int, g: Int, b: Int, a: Int) {
        let i = (y * p.width + x) * 4
        p.data[i] = UInt8(r); p.data[i + 1] = UInt8(g); p.data[i + 2] = UInt8(b);
        p.data[i + 3] = UInt8(a)
    }

    static let count = 9

    /// The APNG of frames 0..<count, each 1/30 s.
    static func encoded(jobs: Int = 2, compression: PNGCompression = .default) throws -> [UInt8] {
        let writer = try APNGWriter(
            width: width, height: height, denominator: 30,
            text: PNGText(keyword: "flipbook-hash", text: "abc"), jobs: jobs)
        writer.compression = compression
        for k in 0..<count { try writer.append(frame(k), delay: 1) }
        return try writer.finishInMemory()
    }

    /// Expects Pillow to decode `apng` as exactly `frames` (straight RGBA, every frame, one
    /// duration each). `anyColourWhenTransparent`: a fully transparent pixel's colour is not
    /// compared (a tRNS key colour or a grey level decodes to some colour at alpha 0).
    static func expectPillowDecodes(
        _ apng: [UInt8], as frames: [Pixmap], anyColourWhenTransparent: Bool = false
    ) throws {
        let (rgba, durations) = try decodedByPillow(apng)
        #expect(durations.count == frames.count)
        let size = try #require(frames.first).data.count
        try #require(rgba.count == size * frames.count)
        for (i, frame) in frames.enumerated() {
            var decoded = Array(rgba[(i * size)..<((i + 1) * size)])
            if anyColourWhenTransparent {
                for p in stride(from: 0, to: size, by: 4) where decoded[p + 3] == 0 {
                    decoded[p] = 0; decoded[p + 1] = 0; decoded[p + 2] = 0
                }
            }
            #expect(decoded == frame.straightRGBA(), "frame \(i)")
        }
    }

    /// Pillow's decoding of an APNG (an independent decoder): every frame's straight RGBA
    /// bytes, one after another, and each frame's duration in ms.
    static func decodedByPillow(_ apng: [UInt8]) throws -> (rgba: [UInt8], durations: [Double]) {
        let python = "/usr/bin/python3"
        // scripts/setup installs python3 and python3-pil: their absence is a failure, not a skip.
        #expect(
            FileManager.default.isExecutableFile(atPath: python),
            "python3 is missing: run scripts/setup")
        let folder = NSTemporaryDirectory() + "apng-pillow-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(apng).write(to: URL(fileURLWithPath: folder + "/a.png"))
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            out = open(sys.argv[2], "wb")
            for i in range(im.n_frames):
                im.seek(i)
                out.write(im.convert("RGBA").tobytes())
                print(repr(im.info["duration"]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, folder + "/a.png", folder + "/frames.rgba"]
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let printed = String(
            decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "Pillow failed: \(failure)")
        let durations = printed.split(separator: "\n").compactMap { Double($0) }
        let rgba = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/frames.rgba")))
        return (rgba, durations)
    }
}
