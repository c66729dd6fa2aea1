import FlipbookCodecs
import FlipbookGeometry
import Foundation

/// The independent expectation for text layout: Pango (FriBidi + HarfBuzz + FreeType +
/// fontconfig, through Debian's `pango-view`, installed by scripts/setup) drawing the same
/// string with the same font and size, rendered at test time; nothing is recorded from
/// our own output.
///
/// The settings make Pango draw what Flipbook draws: unhinted outlines (`--hinting=none`),
/// unhinted metrics and fractional positions (`--hint-metrics=off --subpixel-positions`),
/// grey anti-aliasing, 72 dpi so points are pixels, no margin, so the layout's top-left
/// is the image's. Pango's `left`/`right` swap in a right-to-left paragraph (its
/// alignment is relative to the text's direction), so callers pass Pango's own word.
struct PangoReference {
    /// Pango's rendering as ink.
    var image: InkImage
    /// The text of each line Pango laid out (trailing whitespace removed).
    var lines: [String]
    /// The layout's logical width (the widest line's advance) and height, pixels.
    var width: Double
    var height: Double
    /// For an ellipsized one-line layout, the text Pango kept (the string without the
    /// range its ellipsis run replaces); nil when nothing was cut.
    var kept: String?

    struct Options {
        var font = "DejaVu Sans 32px"
        var width: Double?
        var align: String?
        var ellipsize: String?
        var justify = false
        /// Forces the base direction (`--rtl --no-auto-dir`).
        var rtl = false
    }

    static func render(_ text: String, _ options: Options = Options()) throws -> PangoReference {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-pango-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("out.png").path,
            json = folder.appendingPathComponent("out.json").path
        var arguments = [
            "-q", "--font=\(options.font)", "--hinting=none", "--hint-metrics=off",
            "--subpixel-positions",
            "--antialias=gray", "--language=en", "--margin=0", "--dpi=72", "--background=white",
            "--foreground=black",
            "--text=\(text)", "--output=\(png)", "--serialize-to=\(json)",
        ]
        if let width = options.width { arguments += ["--width=\(Int(width))", "--wrap=word-char"] }
        if let align = options.align { arguments.append("--align=\(align)") }
        if let ellipsize = options.ellipsize { arguments.append("--ellipsize=\(ellipsize)") }
        if options.justify { arguments.append("--justify") }
        if options.rtl { arguments += ["--rtl", "--no-auto-dir"] }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pango-view")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            throw PangoError(
                "cannot run /usr/bin/pango-view (scripts/setup installs pango1.0-tools): \(error)")
        }
        let message = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PangoError("pango-view failed: \(message)")
        }

        let image = InkImage(blackOnWhite: try PNGCodec.read(path: png))
        let object = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: json)))
        guard let output = (object as? [String: Any])?["output"] as? [String: Any],
            let lines = output["lines"] as? [[String: Any]]
        else { throw PangoError("no lines in \(json)") }
        let bytes = Array(text.utf8)
        let texts = lines.map { line -> String in
            let start = line["start-index"] as? Int ?? 0, length = line["length"] as? Int ?? 0
            let s = String(decoding: bytes[start..<min(bytes.count, start + length)], as: UTF8.self)
            return String(s.reversed().drop { $0.isWhitespace }.reversed())
        }
        let width = Double(output["width"] as? Int ?? 0) / 1024,
            height = Double(output["height"] as? Int ?? 0) / 1024
        var kept: String?
        // The ellipsis run is flagged 2 (PANGO_GLYPH_ITEM_… "is ellipsis") and spans the text it replaces.
        for run in lines.first?["runs"] as? [[String: Any]] ?? []
        where (run["flags"] as? Int ?? 0) & 2 != 0 {
            let start = run["offset"] as? Int ?? 0, length = run["length"] as? Int ?? 0
            kept = String(
                decoding: bytes[..<start] + bytes[min(bytes.count, start + length)...],
                as: UTF8.self)
        }
        return PangoReference(image: image, lines: texts, width: width, height: height, kept: kept)
    }
}

struct PangoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
