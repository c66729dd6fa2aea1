import FlipbookCodecs
import FlipbookText
import Foundation
import FlipbookGeometry
import FlipbookRaster

/// A grey ink-coverage image (0 = paper, 255 = full ink) for comparing text renderings
/// by their drawn pixels rather than by raw bytes.
struct InkImage {
    var width: Int
    var height: Int
    var ink: [UInt8]

    subscript(x: Int, y: Int) -> UInt8 {
        x >= 0 && y >= 0 && x < width && y < height ? ink[y * width + x] : 0
    }

    /// Pango's output: black text on white, so ink = 255 − red.
    init(blackOnWhite pixmap: Pixmap) {
        width = pixmap.width
        height = pixmap.height
        ink = (0..<(width * height)).map { 255 - pixmap.data[$0 * 4] }
    }

    /// Our layout filled in black on a transparent pixmap: ink = alpha. The box's top-left
    /// is at (0, 0), as Pango draws its layout at the image's top-left with no margin.
    init(layout: TextLayout, width: Int, height: Int) {
        var pixmap = Pixmap(width: width, height: height)
        pixmap.fill(layout.path, transform: .identity, rule: .nonZero, paint: .solid(.black))
        self.width = width
        self.height = height
        ink = (0..<(width * height)).map { pixmap.data[$0 * 4 + 3] }
    }

    private init(width: Int, height: Int, ink: [UInt8]) {
        self.width = width
        self.height = height
        self.ink = ink
    }

    /// Rows or columns holding any ink above `threshold`.
    private func inkedRows(_ threshold: UInt8) -> [Int] {
        (0..<height).filter { y in (0..<width).contains { self[$0, y] > threshold } }
    }

    private func inkedColumns(_ threshold: UInt8) -> [Int] {
        (0..<width).filter { x in (0..<height).contains { self[x, $0] > threshold } }
    }

    /// The sub-image `xs` × `ys`.
    func cropped(x xs: ClosedRange<Int>, y ys: ClosedRange<Int>) -> InkImage {
        var out: [UInt8] = []
        out.reserveCapacity(xs.count * ys.count)
        for y in ys { for x in xs { out.append(self[x, y]) } }
        return InkImage(width: xs.count, height: ys.count, ink: out)
    }

    /// Cropped to its drawn pixels (ink above 1/8, so the faintest anti-aliasing does not
    /// decide the box).
    func croppedToInk() -> InkImage {
        let rows = inkedRows(32), columns = inkedColumns(32)
        guard let top = rows.first, let left = columns.first else {
            return InkImage(width: 0, height: 0, ink: [])
        }
        return cropped(x: left...columns.last!, y: top...rows.last!)
    }

    /// Writes the image as a binary PGM (for looking at a failed comparison).
    func writePGM(_ path: String) {
        let header = Array("P5\n\(width) \(height)\n255\n".utf8)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(header + ink.map { 255 - $0 }))
    }
}

/// How well two ink images agree, allowing one pixel of anti-aliasing phase.
struct InkAgreement: CustomStringConvertible {
    /// Size difference of the two images, pixels.
    var dw: Int, dh: Int
    /// Of the solid pixels (ink ≥ 50 %) of each image, the share with ink (≥ 25 %) in the
    /// other within one pixel (3×3 neighbourhood); the smaller of the two directions.
    var matched: Double
    var solid: (Int, Int)

    init(_ a: InkImage, _ b: InkImage) {
        dw = abs(a.width - b.width)
        dh = abs(a.height - b.height)
        func share(_ p: InkImage, _ q: InkImage) -> (Double, Int) {
            var solid = 0, hit = 0
            for y in 0..<p.height {
                for x in 0..<p.width where p[x, y] >= 128 {
                    solid += 1
                    if (-1...1).contains(where: { dy in
                        (-1...1).contains { dx in q[x + dx, y + dy] >= 64 }
                    }) {
                        hit += 1
                    }
                }
            }
            return (solid == 0 ? 1 : Double(hit) / Double(solid), solid)
        }
        let (ab, sa) = share(a, b), (ba, sb) = share(b, a)
        matched = min(ab, ba)
        solid = (sa, sb)
    }

    /// Same size within a pixel and ≥ 99 % of solid ink matched both ways.
    var agrees: Bool { dw <= 1 && dh <= 1 && matched >= 0.99 }

    var description: String {
        "size Δ \(dw)×\(dh) px, \(String(format: "%.2f", matched * 100)) % of solid ink matched "
            + "(\(solid.0) / \(solid.1) solid px)"
    }
}
