import CGIFLib

/// Memory a GIF asks for before it is decoded.
///
/// giflib's `DGifSlurp` allocates width × height bytes for each image descriptor before
/// reading its pixels, whatever the logical screen says, and the reader then keeps one
/// canvas-sized pixmap per frame: a 300-byte file could ask for gigabytes (found by
/// scripts/fuzz). ``check(_:canvasLimit:)`` walks the block structure (a few bytes per
/// block, nothing decoded) and refuses such files first.
public enum GIFDecodeBudget {
    /// Most pixels over all image descriptors, and over all decoded frames (canvas ×
    /// frame count): 2^28, 256 MB of indices and 1 GiB of RGBA frames.
    public static let maxTotalPixels = 1 << 28

    /// The logical screen and every image descriptor's size, in file order, as far as the
    /// block structure can be followed; nil when the bytes do not start like a GIF.
    public static func declaredSizes(_ b: [UInt8]) -> (screen: (width: Int, height: Int),
                                                        images: [(width: Int, height: Int)])? {
        guard b.count >= 13, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 else { return nil }
        let screen = (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
        var images: [(Int, Int)] = []
        func skipSubBlocks() {
            while i < b.count {
                let n = Int(b[i])
                i += 1
                if n == 0 { return }
                i += n
            }
        }
        scan: while i < b.count {
            switch b[i] {
            case 0x21:  // extension: label, then sub-blocks
                // giflib 5.2's DGifSlurp reads the first sub-block, then reads on until an
                // empty one, so an empty first block does not end the extension.
                i += 2
                if i < b.count { i += 1 + Int(b[i]) }
                skipSubBlocks()
            case 0x2C:  // image descriptor: its size counts even if its data is cut short
                guard i + 10 <= b.count else { break scan }
                images.append((Int(b[i + 5]) | Int(b[i + 6]) << 8, Int(b[i + 7]) | Int(b[i + 8]) << 8))
                let flags = b[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1  // LZW minimum code size
                skipSubBlocks()
            default:  // trailer, or something giflib refuses too
                break scan
            }
        }
        return (screen, images)
    }

    /// Throws when decoding `bytes` would allocate more than the budget; `canvasLimit` is
    /// the largest logical screen accepted.
    public static func check(_ bytes: [UInt8], canvasLimit: Int) throws(GIFError) {
        guard let (screen, images) = declaredSizes(bytes) else { return }
        let canvas = screen.width * screen.height
        var total = 0
        for (index, image) in images.enumerated() {
            let pixels = image.width * image.height
            total += pixels
            guard pixels <= canvasLimit, total <= maxTotalPixels else {
                throw GIFError(code: Int(D_GIF_ERR_DATA_TOO_BIG),
                               message: "GIF image \(index) is \(image.width)×\(image.height) px; "
                                   + "the images would take more than \(maxTotalPixels) pixels")
            }
        }
        guard canvas * images.count <= maxTotalPixels else {
            throw GIFError(code: Int(D_GIF_ERR_DATA_TOO_BIG),
                           message: "GIF has \(images.count) frames of \(screen.width)×\(screen.height) px, "
                               + "more than \(maxTotalPixels) pixels decoded")
        }
    }
}
