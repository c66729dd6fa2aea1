import Foundation
import FlipbookCodecs
import FlipbookRaster

/// A self-contained static report of a ``SequenceDiff``: `index.html` and the PNGs it
/// shows, in one folder that opens from disk with no network access (styles and script
/// inline), fit to be kept as a CI artifact.
///
/// Contents: a summary (inputs, frames compared, failing frames, differing and AA pixel
/// totals, the options and limits); a filmstrip of every paired frame's actual image,
/// failing frames outlined in red and linked to their section; then one section per
/// failing frame with expected | actual | difference side by side (difference as
/// ``DiffImage/highlight(expected:diff:)``), a swipe slider and an onion-skin toggle
/// between expected and actual, and the differing-pixel count, bounding box and PSNR.
///
/// Files: `index.html`, `frame-N-expected.png`, `frame-N-actual.png`, `frame-N-diff.png`
/// per failing frame (N its index), `thumb-N.png` per paired frame. At most
/// ``maxDetailedFrames`` failing frames get a section (the rest are listed).
public enum HTMLReport {
    /// Failing frames shown in full; more are listed by name only.
    public static let maxDetailedFrames = 60
    /// Thumbnails fit in a square of this many pixels.
    public static let thumbnailSize = 96

    /// The images of a paired frame, looked up by its position in `result.frames`.
    public typealias FrameImages = (_ position: Int) -> (expected: Pixmap?, actual: Pixmap?)

    /// Writes the report into `folder` (created if needed) and returns the path of its
    /// `index.html`.
    @discardableResult
    public static func write(
        _ result: SequenceDiff, images: FrameImages, to folder: String,
        title: String
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var strip: [String] = []
        var sections: [String] = []
        var listed: [String] = []
        for (position, frame) in result.frames.enumerated() {
            let (expected, actual) = images(position)
            let thumb = "thumb-\(frame.index).png"
            if let source = actual ?? expected {
                try PNGCodec.write(thumbnail(source), to: folder + "/" + thumb)
            }
            let mark = frame.passed ? "pass" : "fail"
            let link = frame.passed ? "" : " href=\"#frame-\(frame.index)\""
            strip.append(
                "<a class=\"thumb \(mark)\"\(link) title=\"\(escape(frame.label)): \(mark)\">"
                    + "<img src=\"\(thumb)\" alt=\"frame \(frame.index)\"><span>\(frame.index)</span></a>"
            )
            guard !frame.passed else { continue }
            if sections.count >= maxDetailedFrames {
                listed.append("<li>\(escape(DiffReport.line(frame)))</li>")
                continue
            }
            sections.append(
                try section(
                    frame, expected: expected, actual: actual, options: result.options,
                    folder: folder))
        }
        var html = head(title) + summary(result, title: title)
        html += "<h2>Frames</h2><div class=\"strip\">" + strip.joined() + "</div>\n"
        if !result.missing.isEmpty {
            html +=
                "<h2>Missing</h2><ul>" + result.missing.map { "<li>\(escape($0))</li>" }.joined()
                + "</ul>\n"
        }
        html += sections.joined(separator: "\n")
        if !listed.isEmpty {
            html += "<h2>More failing frames</h2><ul>" + listed.joined() + "</ul>\n"
        }
        html += script + "</body></html>\n"
        let path = folder + "/index.html"
        try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    static func section(
        _ frame: FrameOutcome, expected: Pixmap?, actual: Pixmap?, options: DiffOptions,
        folder: String
    ) throws -> String {
        let n = frame.index
        var html =
            "<section class=\"frame\" id=\"frame-\(n)\"><h2>Frame \(n) <small>\(escape(frame.label))</small></h2>\n"
        html += "<p class=\"facts\">\(escape(DiffReport.line(frame)))</p>\n"
        if let d = frame.diff {
            html +=
                "<table class=\"numbers\"><tr><th>differing pixels</th><td>\(d.differingPixels)</td>"
                + "<th>ratio</th><td>\(DiffReport.percent(d.ratio))</td>"
                + "<th>bounding box</th><td>\(d.bounds.map { escape("\($0)") } ?? "–")</td>"
                + "<th>PSNR</th><td>\(DiffReport.decibels(d.psnr))</td>"
                + "<th>AA pixels</th><td>\(d.antiAliasedPixels)</td>"
                + (d.windowDifferingPixels.map { "<th>densest window</th><td>\($0)</td>" } ?? "")
                + "</tr></table>\n"
        }
        var panels: [(String, String)] = []
        if let expected {
            try PNGCodec.write(expected, to: folder + "/frame-\(n)-expected.png")
            panels.append(("expected", "frame-\(n)-expected.png"))
        }
        if let actual {
            try PNGCodec.write(actual, to: folder + "/frame-\(n)-actual.png")
            panels.append(("actual", "frame-\(n)-actual.png"))
        }
        if let expected, let actual, expected.width == actual.width,
            expected.height == actual.height
        {
            let kept = ImageComparator.compare(
                expected, actual, options: options, keepClasses: true)
            try PNGCodec.write(
                DiffImage.highlight(expected: expected, diff: kept),
                to: folder + "/frame-\(n)-diff.png")
            panels.append(("difference", "frame-\(n)-diff.png"))
        }
        html +=
            "<div class=\"panels\">"
            + panels.map {
                "<figure><img src=\"\($0.1)\" alt=\"\($0.0)\"><figcaption>\($0.0)</figcaption></figure>"
            }.joined() + "</div>\n"
        if let expected, let actual, expected.width == actual.width,
            expected.height == actual.height
        {
            html += """
                <div class="compare"><div class="swipe" style="aspect-ratio: \(expected.width) / \(expected.height)">\
                <img src="frame-\(n)-expected.png" alt="expected"><img class="top" src="frame-\(n)-actual.png" alt="actual"></div>\
                <label>expected ◀ <input type="range" class="slider" min="0" max="100" value="50"> ▶ actual</label> \
                <label><input type="checkbox" class="onion"> onion skin</label></div>

                """
        }
        return html + "</section>"
    }

    static func summary(_ r: SequenceDiff, title: String) -> String {
        let o = r.options
        let verdict =
            r.passed ? "<span class=\"ok\">PASSED</span>" : "<span class=\"bad\">FAILED</span>"
        var rows: [(String, String)] = [
            ("expected", escape(r.expectedSource)), ("actual", escape(r.actualSource)),
            ("frames compared", "\(r.frames.count)"),
            ("failing frames", "\(r.failingFrames.count)"),
            ("differing pixels", "\(r.totalDifferingPixels)"),
            ("anti-aliasing pixels (not counted)", "\(r.totalAntiAliasedPixels)"),
            (
                "metric",
                "\(o.metric.rawValue), threshold \(o.threshold), backdrop \(o.backdrop.rawValue)"
                    + (o.includeAntiAliased ? ", AA counted" : "")
            ),
            (
                "limits",
                "max differing pixels \(o.maxDiffPixels.map(String.init) ?? "0 unless a ratio is set"), "
                    + "max ratio \(o.maxDiffRatio.map { "\($0)" } ?? "–")"
                    + (o.window.map { ", window \($0)×\($0)" } ?? "")
            ),
        ]
        if r.countMismatch {
            rows.append(("frame count", "\(r.expectedCount) expected, \(r.actualCount) actual"))
        }
        if !o.ignoreRegions.isEmpty {
            rows.append(
                ("ignored regions", o.ignoreRegions.map { escape("\($0)") }.joined(separator: "; "))
            )
        }
        return
            "<h1>\(escape(title)) — \(verdict)</h1>\n<p class=\"line\">\(escape(DiffReport.summary(r)))</p>\n"
            + "<table class=\"summary\">"
            + rows.map { "<tr><th>\($0.0)</th><td>\($0.1)</td></tr>" }.joined()
            + "</table>\n"
    }

    /// The frame shrunk to fit ``thumbnailSize`` (box filter over premultiplied pixels).
    static func thumbnail(_ p: Pixmap) -> Pixmap {
        let scale = max(1, (max(p.width, p.height) + thumbnailSize - 1) / thumbnailSize)
        let w = max(1, p.width / scale), h = max(1, p.height / scale)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var sum = (0, 0, 0, 0)
                for sy in (y * scale)..<min(p.height, (y + 1) * scale) {
                    for sx in (x * scale)..<min(p.width, (x + 1) * scale) {
                        let i = (sy * p.width + sx) * 4
                        sum.0 += Int(p.data[i]); sum.1 += Int(p.data[i + 1])
                        sum.2 += Int(p.data[i + 2]); sum.3 += Int(p.data[i + 3])
                    }
                }
                let n = scale * scale, o = (y * w + x) * 4
                out[o] = UInt8(sum.0 / n); out[o + 1] = UInt8(sum.1 / n)
                out[o + 2] = UInt8(sum.2 / n); out[o + 3] = UInt8(sum.3 / n)
            }
        }
        return Pixmap(width: w, height: h, premultipliedRGBA: out)
    }

    /// Text made safe for HTML element content and attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static func head(_ title: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #222; background: #fafafa; }
        h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; } small { color: #666; font-weight: normal; }
        .ok { color: #1a7f37; } .bad { color: #cf222e; }
        table { border-collapse: collapse; } th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
        th { font-weight: 600; color: #444; }
        .line, .facts { font-family: ui-monospace, monospace; font-size: 12px; }
        .strip { display: flex; flex-wrap: wrap; gap: 4px; }
        .thumb { display: inline-flex; flex-direction: column; align-items: center; border: 2px solid #ccc;
                 padding: 2px; background: #fff; text-decoration: none; color: #444; font-size: 11px; }
        .thumb.fail { border-color: #cf222e; color: #cf222e; font-weight: 600; }
        .thumb img { display: block; max-width: \(thumbnailSize)px; max-height: \(thumbnailSize)px; }
        .frame { border-top: 1px solid #ddd; margin-top: 16px; }
        .panels { display: flex; gap: 12px; align-items: flex-start; }
        figure { margin: 0; flex: 1 1 0; min-width: 0; text-align: center; }
        figure img, .swipe img { width: 100%; height: auto; image-rendering: pixelated; display: block;
                 background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .compare { margin-top: 12px; }
        .swipe { position: relative; width: min(100%, 480px); overflow: hidden; border: 1px solid #ccc; }
        .swipe img { position: absolute; inset: 0; height: 100%; }
        .swipe img.top { clip-path: inset(0 0 0 50%); }
        .swipe.onion img.top { clip-path: none; opacity: 0.5; }
        </style></head><body>

        """
    }

    static let script = """
        <script>
        for (const c of document.querySelectorAll('.compare')) {
          const swipe = c.querySelector('.swipe'), top = swipe.querySelector('img.top');
          const slider = c.querySelector('.slider'), onion = c.querySelector('.onion');
          slider.addEventListener('input', () => { top.style.clipPath = 'inset(0 0 0 ' + slider.value + '%)'; });
          onion.addEventListener('change', () => { swipe.classList.toggle('onion', onion.checked);
            top.style.clipPath = onion.checked ? 'none' : 'inset(0 0 0 ' + slider.value + '%)'; });
        }
        </script>

        """
}
