import CGIFLib

/// Memory a GIF asks for before it is decoded.
///
/// giflib's `DGifSlurp` allocates width × height bytes for each image descriptor before
/// reading its pixels, whatever the logical screen says, and keeps them all until the file
/// is closed; the reader then keeps one canvas-sized RGBA pixmap per frame, plus a working
/// canvas and the copy "restore to previous" needs. A 300-byte file could ask for
/// gigabytes (found by scripts/fuzz). ``check(_:canvasLimit:maxBytes:)`` walks the block
/// structure (a few bytes per block, nothing decoded) and adds those allocations up before
/// any of them is made:
///
///     memory = Σ image width × height  +  4 × canvas × (frames + 2)
///
/// and refuses the file when the sum passes `maxBytes`, counting image by image so that a
/// file of a million descriptors stops at the first one over.
public enum GIFDecodeBudget {
    /// The budget when the caller names none: 1 GiB.
    public static let defaultMaxBytes = 1 << 30

    /// The logical screen and every image descriptor's size, in file order, as far as the
    /// block structure can be followed; nil when the bytes do not start like a GIF.
    public static func declaredSizes(_ b: [UInt8]) -> (
        screen: (width: Int, height: Int),
        images: [(width: Int, height: Int)]
    )? {
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
                images.append(
                    (Int(b[i + 5]) | Int(b[i + 6]) << 8, Int(b[i + 7]) | Int(b[i + 8]) << 8))
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

    /// Throws when decoding `bytes` would allocate more than `maxBytes`; `canvasLimit` is
    /// the largest logical screen or image accepted, in pixels.
    public static func check(_ bytes: [UInt8], canvasLimit: Int, maxBytes: Int = defaultMaxBytes)
        throws(GIFError)
    {
        guard let (screen, images) = declaredSizes(bytes) else { return }
        var total = 0
        for (index, image) in images.enumerated() {
            let pixels = image.width * image.height  // each at most 65535², no overflow
            total += pixels
            guard pixels <= canvasLimit else {
                throw GIFError.imageTooLarge(
                    image: index, width: image.width, height: image.height, limit: canvasLimit)
            }
            guard total <= maxBytes else {
                throw GIFError.imagesOverMemoryLimit(
                    image: index, width: image.width, height: image.height, maxBytes: maxBytes)
            }
        }
        let canvas = screen.width * screen.height
        let (frameBytes, overflow) = (4 * canvas).multipliedReportingOverflow(by: images.count + 2)
        guard !overflow, total + frameBytes <= maxBytes else {
            throw GIFError.framesOverMemoryLimit(
                frames: images.count, width: screen.width, height: screen.height, maxBytes: maxBytes
            )
        }
    }

    /// `bytes` in the largest binary unit that divides it, as the CLI's size options read.
    static func describe(_ bytes: Int) -> String {
        for (suffix, unit) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= unit && bytes % unit == 0 {
            return "\(bytes / unit) \(suffix)"
        }
        return "\(bytes) bytes"
    }
}
