import FlipbookCodecs
import FlipbookScene

/// SHA-256 (FIPS 180-4), small and dependency-free: the fingerprint of everything that
/// decides a scene's output bytes.
package struct SHA256 {
    private var h: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
        0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc,
        0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351,
        0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
        0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585,
        0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
        0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ]

    package init() {}

    package mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        buffer.append(contentsOf: bytes)
        var offset = 0
        while buffer.count - offset >= 64 {
            compress(buffer, at: offset)
            offset += 64
        }
        if offset > 0 { buffer.removeFirst(offset) }
    }

    package mutating func update(_ text: String) { update(Array(text.utf8)) }

    /// Appends a length-prefixed field, so that field boundaries are part of the hash.
    package mutating func field(_ name: String, _ bytes: [UInt8]) {
        update(name + ":" + String(bytes.count) + ":")
        update(bytes)
        update("\n")
    }

    package mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
        for i in (0..<8).reversed() {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)))
        }
        buffer.append(contentsOf: tail)
        var offset = 0
        while offset < buffer.count {
            compress(buffer, at: offset)
            offset += 64
        }
        buffer = []
        let digits = Array("0123456789abcdef")
        var out = ""
        for word in h {
            for shift in stride(from: 28, through: 0, by: -4) {
                out.append(digits[Int((word >> UInt32(shift)) & 0xF)])
            }
        }
        return out
    }

    private mutating func compress(_ block: [UInt8], at offset: Int) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
            (x >> n) | (x << (32 - n))
        }
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            let j = offset + i * 4
            w[i] =
                UInt32(block[j]) << 24 | UInt32(block[j + 1]) << 16 | UInt32(block[j + 2]) << 8
                | UInt32(block[j + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            hh = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
        h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        var s = SHA256()
        s.update(bytes)
        return s.finalize()
    }
}

/// The content hash that decides whether a scene's outputs are up to date.
///
/// It covers: ``rendererVersion``; the scene file's bytes; every asset file's bytes (by
/// asset name, sorted); every font *file* a text layer names (fontconfig family names
/// are hashed as names: the installed font behind a family is not tracked); and the
/// options that change output bytes (format, scale or size, fps, frame range, GIF and
/// PNG encoding). `--jobs`, `--shard`, `--quiet`, `--report` and `--contact-sheet` do not
/// change an output's bytes and are left out (the sheet is an output of its own, with the
/// hash inside it too).
///
/// The hash travels inside every output, never beside it: a GIF's comment extension
/// before its first image (``gifComment(_:)``), a PNG's `tEXt` chunk (``pngText(_:)``) in
/// the contact sheet and in every frame of a PNG folder, an animated WebP's private
/// chunk (``webpChunk(_:)``). An output is up to date when it
/// carries the hash the scene and options give now.
package enum ContentHash {
    /// Bump when a change to the renderer or encoders changes output bytes, so that
    /// every cached output is rendered again.
    // 7: wrapped-text line breaks (ICU buffer kept alive), image samples by position.
    // 8: fills inside a clip's open part are no longer split into the clip's runs, and a
    // gradient steps from its span's start, so a few gradient pixels under rounded clips
    // move by one level.
    package static let rendererVersion = "flipbook-renderer-8"

    /// The hash of `scene` (as loaded from `scenePath`) rendered with `options`.
    /// Options are given as sorted "key=value" strings.
    package static func compute(scenePath: String, scene: Scene, options: [String]) throws -> String
    {
        var hash = SHA256()
        hash.field("renderer", Array(rendererVersion.utf8))
        hash.field("scene", try FileIO.readAll(path: scenePath))
        for name in scene.assets.keys.sorted() {
            let path = scene.assets[name]!
            hash.field("asset " + name, try FileIO.readAll(path: path))
        }
        var fontFiles = Set<String>(), fontFamilies = Set<String>()
        for layer in scene.layers {
            layer.forEachLayer { l in
                if case .text(let text) = l.content {
                    switch text.font {
                    case .file(let path): fontFiles.insert(path)
                    case .family(let name): fontFamilies.insert(name)
                    case .coreTextName(let name): fontFamilies.insert("core-text:" + name)
                    }
                }
            }
        }
        for path in fontFiles.sorted() {
            hash.field("font " + path, try FileIO.readAll(path: path))
        }
        for name in fontFamilies.sorted() { hash.field("font family", Array(name.utf8)) }
        for option in options.sorted() { hash.field("option", Array(option.utf8)) }
        return hash.finalize()
    }

    /// The label of the hash inside outputs: the PNG `tEXt` keyword, and the start of the
    /// GIF comment.
    package static let label = "flipbook-hash"

    /// The GIF comment that carries `hash`: "flipbook-hash <64 hex digits>".
    package static func gifComment(_ hash: String) -> String { label + " " + hash }

    /// The PNG `tEXt` chunk that carries `hash` (keyword "flipbook-hash").
    package static func pngText(_ hash: String) -> PNGText { PNGText(keyword: label, text: hash) }

    /// The FourCC of ``webpChunk(_:)``.
    static let webpChunkID = "FBKH"

    /// The chunk that carries `hash` in an animated WebP: a private chunk, "FBKH", holding
    /// the hash's 32 bytes (40 bytes with its header). Readers skip chunks they do not know
    /// (the WebP container's rule; browsers, Pillow and libwebp do). It replaced an XMP
    /// packet of 352 bytes, which alone kept the lossless WebPs of water_filling and
    /// starstrips above `img2webp -lossless`'s (issue 25).
    public static func webpChunk(_ hash: String) -> WebPChunk {
        WebPChunk(fourCC: webpChunkID, payload: bytes(fromHex: hash))
    }

    /// The hash inside the WebP at `path` (nil when missing, unreadable or without one),
    /// from its ``webpChunk(_:)``.
    public static func stored(inWebP path: String) -> String? {
        guard let bytes = try? FileIO.readAll(path: path),
            let payload = WebPAnimationReader.metadata(webpChunkID, in: bytes),
            payload.count == 32
        else { return nil }
        let digits = Array("0123456789abcdef")
        return String(payload.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// The bytes of a string of hexadecimal digit pairs (a hash as ``compute`` gives it);
    /// a pair that is not hexadecimal gives 0.
    static func bytes(fromHex hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { i in
            UInt8(String(decoding: digits[i...(i + 1)], as: UTF8.self), radix: 16) ?? 0
        }
    }

    /// The hash inside the GIF at `path` (nil when missing, unreadable or without one),
    /// from the comments before its first image: the frames are not read.
    package static func stored(inGIF path: String) -> String? {
        let prefix = label + " "
        return GIFComment.read(path: path).first { $0.hasPrefix(prefix) }.map {
            String($0.dropFirst(prefix.count))
        }
    }

    /// The hash inside the PNG at `path` (nil when missing, unreadable or without one),
    /// from its chunks before the image data.
    package static func stored(inPNG path: String) -> String? {
        PNGText.read(path: path, keyword: label)
    }
}
