import Foundation
import Testing
import FlipbookCodecs

/// The content hash lives inside the outputs (a GIF comment, a PNG `tEXt` chunk), never
/// in a file beside them. The files are read here with this file's own block and chunk
/// walkers, not with Flipbook's readers.
@Suite struct EmbeddedHashTests {
    /// The comment extensions of a GIF, each with the number of images before it; nil
    /// when the block structure does not parse to the trailer.
    static func gifComments(_ bytes: [UInt8]) -> [(text: String, imagesBefore: Int)]? {
        guard bytes.count >= 13, bytes.starts(with: Array("GIF89a".utf8)) else { return nil }
        var i = 13
        if bytes[10] & 0x80 != 0 { i += 3 << (Int(bytes[10] & 7) + 1) }
        var comments: [(String, Int)] = [], images = 0
        /// The data of the sub-blocks at `i`, which moves past their terminator.
        func subBlocks() -> [UInt8]? {
            var data: [UInt8] = []
            while i < bytes.count {
                let n = Int(bytes[i])
                i += 1
                if n == 0 { return data }
                guard i + n <= bytes.count else { return nil }
                data += bytes[i..<(i + n)]
                i += n
            }
            return nil
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x21:
                guard i + 1 < bytes.count else { return nil }
                let label = bytes[i + 1]
                i += 2
                guard let data = subBlocks() else { return nil }
                if label == 0xFE {
                    comments.append((String(decoding: data, as: UTF8.self), images))
                }
            case 0x2C:
                guard i + 10 < bytes.count else { return nil }
                let flags = bytes[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1  // LZW minimum code size
                guard subBlocks() != nil else { return nil }
                images += 1
            case 0x3B:
                return comments
            default:
                return nil
            }
        }
        return nil
    }

    /// CRC-32 as the PNG specification defines it (bit by bit, polynomial 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// The `tEXt` chunks of a PNG (keyword → text) that come before its first IDAT, every
    /// chunk's CRC checked; nil when the chunks do not parse or a CRC is wrong.
    static func pngTexts(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            return nil
        }
        var texts: [String: String] = [:]
        var i = 8, sawImage = false
        while i + 12 <= bytes.count {
            let n = bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard i + 12 + n <= bytes.count else { return nil }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let data = bytes[(i + 8)..<(i + 8 + n)]
            let stored = bytes[(i + 8 + n)..<(i + 12 + n)].reduce(UInt32(0)) {
                $0 << 8 | UInt32($1)
            }
            guard crc32(bytes[(i + 4)..<(i + 8 + n)]) == stored else { return nil }
            if type == "IDAT" { sawImage = true }
            if type == "tEXt" && !sawImage, let zero = data.firstIndex(of: 0) {
                texts[String(decoding: data[..<zero], as: UTF8.self)] = String(
                    decoding: data[(zero + 1)...], as: UTF8.self)
            }
            if type == "IEND" { return texts }
            i += 12 + n
        }
        return nil
    }

    /// Every file under `folder` whose name mentions flipbook-hash (old sidecars, unit markers).
    static func sidecars(under folder: String) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return all.filter { $0.contains("flipbook-hash") }
    }

    static func hashes(_ reportPath: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for scene in try BatchRenderTests.report(reportPath)["scenes"] as! [[String: Any]] {
            out[scene["name"] as! String] = scene["hash"] as? String
        }
        return out
    }

    @Test func gifsCarryTheHashBeforeTheirFirstImageAndNothingSitsBeside() throws {
        let folder = try BatchRenderTests.sceneFolder()
        let one = try CLI.run(
            ["render", "scenes", "-o", "one", "--jobs", "1", "--report", "one.json"], in: folder)
        let two = try CLI.run(["render", "scenes", "-o", "two", "--jobs", "2"], in: folder)
        #expect(one.status == 0 && two.status == 0, "\(one.stderr) \(two.stderr)")
        let hashes = try Self.hashes(folder + "/one.json")
        for name in ["slide", "fade", "pictured"] {
            let bytes = try FileIO.readAll(path: folder + "/one/\(name).gif")
            let comments = Self.gifComments(bytes)
            #expect(comments?.count == 1, "\(name)")
            #expect(
                comments?.first?.imagesBefore == 0,
                "\(name): the comment comes before the first image")
            let hash = try #require(hashes[name])
            #expect(hash.count == 64 && comments?.first?.text == "flipbook-hash " + hash, "\(name)")
            #expect(
                bytes == (try FileIO.readAll(path: folder + "/two/\(name).gif")),
                "\(name): --jobs 1 and 2 differ")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/one").sorted()
                == ["fade.gif", "pictured.gif", "slide.gif"])

        // A second run finds the hashes inside the GIFs; --force writes the same bytes again.
        let before = try BatchRenderTests.files(in: folder + "/one")
        let again = try CLI.run(
            ["render", "scenes", "-o", "one", "--report", "again.json"], in: folder)
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/again.json"))
                == ["fade": "skipped", "pictured": "skipped", "slide": "skipped"], "\(again.stdout)"
        )
        let forced = try CLI.run(
            ["render", "scenes", "-o", "one", "--force", "--report", "forced.json"], in: folder)
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/forced.json"))
                == ["fade": "rendered", "pictured": "rendered", "slide": "rendered"],
            "\(forced.stderr)")
        #expect(try BatchRenderTests.files(in: folder + "/one") == before)

        // An edited scene renders again, and its GIF carries the new hash.
        try CLI.write(
            RenderCommandTests.sliding.replacingOccurrences(of: "to: blue", with: "to: green"),
            to: folder + "/scenes/slide.yaml")
        #expect(
            try CLI.run(["render", "scenes", "-o", "one", "--report", "edited.json"], in: folder)
                .status == 0)
        let edited = try Self.hashes(folder + "/edited.json")
        #expect(edited["slide"] != hashes["slide"] && edited["fade"] == hashes["fade"])
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/edited.json"))
                == ["fade": "skipped", "pictured": "skipped", "slide": "rendered"])
        let comments = Self.gifComments(try FileIO.readAll(path: folder + "/one/slide.gif"))
        #expect(comments?.map(\.text) == ["flipbook-hash " + edited["slide"]!])
        #expect(Self.sidecars(under: folder).isEmpty, "\(Self.sidecars(under: folder))")
    }

    @Test func everyPNGFrameAndTheSheetCarryTheHash() throws {
        let folder = try BatchRenderTests.sceneFolder()
        let arguments = [
            "render", "scenes/slide.yaml", "--format", "png", "-o", "frames", "--frames", "0-9",
            "--contact-sheet", "--report", "r.json",
        ]
        #expect(try CLI.run(arguments, in: folder).status == 0)
        let hash = try #require(try Self.hashes(folder + "/r.json")["slide"])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(names == (0...9).map { String(format: "frame-%04d.png", $0) })
        for name in names + ["../frames-sheet.png"] {
            let bytes = try FileIO.readAll(path: folder + "/frames/" + name)
            #expect(Self.pngTexts(bytes) == ["flipbook-hash": hash], "\(name)")
        }
        // The chunk changes nothing in the pixels.
        let frame = try PNGCodec.read(path: folder + "/frames/frame-0000.png")
        #expect(
            frame.width == 40 && frame.height == 30 && frame.pixel(x: 1, y: 15) == (255, 0, 0, 255))

        #expect(try CLI.run(arguments, in: folder).stdout.contains("frames: up to date, skipped"))
        // One frame replaced by a PNG without the hash (same pixels): the folder is out of date.
        try PNGCodec.write(
            try PNGCodec.read(path: folder + "/frames/frame-0004.png"),
            to: folder + "/frames/frame-0004.png")
        #expect(Self.pngTexts(try FileIO.readAll(path: folder + "/frames/frame-0004.png")) == [:])
        #expect(try CLI.run(arguments, in: folder).status == 0)
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/r.json")) == [
                "slide": "rendered"
            ])
        #expect(
            Self.pngTexts(try FileIO.readAll(path: folder + "/frames/frame-0004.png")) == [
                "flipbook-hash": hash
            ])
        #expect(Self.sidecars(under: folder).isEmpty, "\(Self.sidecars(under: folder))")
    }

    /// Shards keep no marker files: a shard's frames carry the hash, so a shard run again is skipped.
    @Test func shardsAreSkippedByTheHashInTheirFrames() throws {
        let folder = try BatchRenderTests.sceneFolder()
        func framesRendered(_ report: String) throws -> Int {
            try (BatchRenderTests.report(folder + "/" + report)["scenes"] as! [[String: Any]]).map {
                $0["frames"] as! Int
            }
            .reduce(0, +)
        }
        #expect(
            try CLI.run(
                ["render", "scenes", "-o", "shared", "--shard", "1/2", "--report", "1.json"],
                in: folder
            ).status == 0)
        let again = try CLI.run(
            ["render", "scenes", "-o", "shared", "--shard", "1/2", "--report", "2.json"], in: folder
        )
        #expect(again.status == 0)
        #expect(
            try framesRendered("1.json") > 0 && framesRendered("2.json") == 0, "\(again.stdout)")
        #expect(again.stdout.contains("up to date, skipped"), "\(again.stdout)")
        #expect(Self.sidecars(under: folder).isEmpty, "\(Self.sidecars(under: folder))")
    }

    /// What older versions wrote beside an output is deleted when the output is written
    /// again, and never read: a GIF without the hash inside renders again even with a
    /// matching old hash file beside it.
    @Test func oldHashFilesAreRemovedNotRead() throws {
        let folder = try BatchRenderTests.sceneFolder()
        #expect(
            try CLI.run(["render", "scenes/slide.yaml", "--report", "r.json"], in: folder).status
                == 0)
        let hash = try #require(try Self.hashes(folder + "/r.json")["slide"])
        let gif = try GIFReader.read(path: folder + "/output/slide.gif")
        // The same frames written without the comment, as an older version would have.
        let writer = try GIFWriter(
            path: folder + "/output/slide.gif", width: gif.width, height: gif.height, loopCount: 0,
            background: nil)
        for (frame, delay) in zip(gif.frames, gif.delays) {
            try writer.append(frame, delayCentiseconds: delay)
        }
        try writer.finish()
        #expect(
            Self.gifComments(try FileIO.readAll(path: folder + "/output/slide.gif"))?.isEmpty
                == true)
        try CLI.write(hash + "\n", to: folder + "/output/slide.gif.flipbook-hash")
        #expect(
            try CLI.run(["render", "scenes/slide.yaml", "--report", "r.json"], in: folder).status
                == 0)
        #expect(
            BatchRenderTests.statuses(try BatchRenderTests.report(folder + "/r.json")) == [
                "slide": "rendered"
            ])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/output") == ["slide.gif"]
        )
    }
}
