import FlipbookGeometry
import FlipbookRaster
import FlipbookText

/// A one-PNG overview of an animation: evenly spaced frames in a grid, each labelled
/// with its frame number and time, under a title line.
///
/// Rules:
/// - ``frameIndices(from:count:)`` picks `count` (default 12) frames evenly spaced over
///   the frames actually rendered, first and last included.
/// - Thumbnails are box-filtered by the smallest whole factor that brings the longer
///   side to at most ``thumbnailSide`` px, so they are exact averages (deterministic).
/// - Labels are laid out by ``TextEngine`` (DejaVu Sans, fontconfig fallback) and filled
///   by the project's rasterizer; a missing font leaves the labels out, never fails.
package enum ContactSheet {
    package static let defaultCount = 12
    package static let thumbnailSide = 200
    static let columns = 4
    static let padding = 8
    static let labelHeight = 18
    static let titleHeight = 26

    /// `count` indices evenly spaced over `rendered` (sorted frame indices).
    package static func frameIndices(from rendered: [Int], count: Int = defaultCount) -> [Int] {
        guard !rendered.isEmpty else { return [] }
        guard rendered.count > count, count > 1 else { return rendered }
        var out: [Int] = []
        for k in 0..<count {
            let position = (k * (rendered.count - 1) + (count - 1) / 2) / (count - 1)
            let index = rendered[position]
            if out.last != index { out.append(index) }
        }
        return out
    }

    /// The box-filter factor for a frame of this size.
    package static func factor(width: Int, height: Int) -> Int {
        max(1, (max(width, height) + thumbnailSide - 1) / thumbnailSide)
    }

    /// Averages `factor` × `factor` blocks (premultiplied, rounded).
    package static func thumbnail(_ frame: Pixmap, factor f: Int) -> Pixmap {
        let w = max(1, frame.width / f), h = max(1, frame.height / f)
        guard f > 1 else { return frame }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let n = UInt32(f * f)
        frame.data.withUnsafeBufferPointer { src in
            for ty in 0..<h {
                for tx in 0..<w {
                    var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                    for y in (ty * f)..<min(frame.height, ty * f + f) {
                        var i = (y * frame.width + tx * f) * 4
                        for _ in 0..<f {
                            sum.0 &+= UInt32(src[i]); sum.1 &+= UInt32(src[i + 1])
                            sum.2 &+= UInt32(src[i + 2]); sum.3 &+= UInt32(src[i + 3])
                            i += 4
                        }
                    }
                    let o = (ty * w + tx) * 4
                    out[o] = UInt8((sum.0 + n / 2) / n); out[o + 1] = UInt8((sum.1 + n / 2) / n)
                    out[o + 2] = UInt8((sum.2 + n / 2) / n); out[o + 3] = UInt8((sum.3 + n / 2) / n)
                }
            }
        }
        return Pixmap(width: w, height: h, premultipliedRGBA: out)
    }

    /// Lays the thumbnails (frame index → thumbnail, all the same size) out in a grid.
    package static func compose(
        title: String, thumbnails: [(frame: Int, image: Pixmap)], fps: Double
    ) -> Pixmap {
        let items = thumbnails.sorted { $0.frame < $1.frame }
        guard let first = items.first?.image else { return Pixmap(width: 1, height: 1) }
        let cols = min(columns, items.count)
        let rows = (items.count + cols - 1) / cols
        let cellW = max(first.width, 90) + padding * 2
        let cellH = first.height + labelHeight + padding * 2
        var sheet = Pixmap(width: cols * cellW, height: titleHeight + rows * cellH)
        sheet.fill(Color(red: 0.93, green: 0.94, blue: 0.95))
        label(
            &sheet, title, x: padding, y: 4, width: Double(sheet.width - padding * 2), size: 14,
            alignment: .left)
        let checkerA = Color(red: 0.8, green: 0.8, blue: 0.8), checkerB = Color.white
        for (k, item) in items.enumerated() {
            let x0 = (k % cols) * cellW + (cellW - item.image.width) / 2
            let y0 = titleHeight + (k / cols) * cellH + padding
            // A checkerboard behind the frame shows transparency.
            let box = Path(
                rectX: Double(x0), y: Double(y0), width: Double(item.image.width),
                height: Double(item.image.height))
            sheet.fill(box, transform: .identity, rule: .nonZero, paint: .solid(checkerB))
            var squares = Path()
            for sy in stride(from: 0, to: item.image.height, by: 8) {
                for sx in stride(from: (sy / 8) % 2 * 8, to: item.image.width, by: 16) {
                    squares.appendRect(
                        x: Double(x0 + sx), y: Double(y0 + sy),
                        width: Double(min(8, item.image.width - sx)),
                        height: Double(min(8, item.image.height - sy)))
                }
            }
            sheet.fill(squares, transform: .identity, rule: .nonZero, paint: .solid(checkerA))
            sheet.draw(item.image, x: x0, y: y0)
            let seconds = Double(item.frame) / fps
            label(
                &sheet, "#\(item.frame)  \(formatSeconds(seconds)) s", x: (k % cols) * cellW,
                y: y0 + item.image.height + 3, width: Double(cellW), size: 11, alignment: .center)
        }
        return sheet
    }

    static func formatNumber(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
    }

    static func formatSeconds(_ s: Double) -> String {
        let hundredths = Int((s * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100)." + (frac < 10 ? "0" : "") + "\(frac)"
    }

    static func label(
        _ sheet: inout Pixmap, _ text: String, x: Int, y: Int, width: Double, size: Double,
        alignment: TextRequest.Alignment
    ) {
        let request = TextRequest(
            string: text, font: .family("DejaVu Sans"), fontSize: size,
            boxSize: Size(width: width, height: size * 1.5), alignment: alignment)
        guard let layout = try? TextEngine.shared.layout(request) else { return }
        sheet.fill(
            layout.path, transform: .translation(Double(x), Double(y)), rule: .nonZero,
            paint: .solid(Color(red: 0.15, green: 0.15, blue: 0.18)))
    }
}

extension Path {
    init(rectX x: Double, y: Double, width: Double, height: Double) {
        self.init()
        appendRect(x: x, y: y, width: width, height: height)
    }

    mutating func appendRect(x: Double, y: Double, width: Double, height: Double) {
        move(to: Point(x: x, y: y))
        line(to: Point(x: x + width, y: y))
        line(to: Point(x: x + width, y: y + height))
        line(to: Point(x: x, y: y + height))
        close()
    }
}
