import CFlipbookZlib
import Foundation
import Testing
@preconcurrency import ZIPFoundation

/// Issue 22's hostile Lottie files, each through the built `flipbook` as a user runs it:
/// the exit status, the message (its JSON path, the limit and the flag that raises it)
/// and, for the large ones, peak memory read from the kernel for that child process
/// (`ChildUsage`), which must stay within `--max-memory` plus a small constant.
@Suite struct HostileLottieTests {
    /// What the process itself takes before any file is read (code, Foundation, ICU):
    /// about 30 MiB here; the allowance above `--max-memory` is this and some slack.
    static let processBaseline = 96 << 20

    static func document(layers: String) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[\#(layers)]}"#
    }

    static func solid(_ index: Int, extra: String = "") -> String {
        ##"{"ty":1,"ind":\##(index),"ip":0,"op":30,"st":0,"sw":10,"sh":10,"sc":"#ff0000","ks":{}\##(extra)}"##
    }

    /// `1e308` where Lottie has an integer (it trapped converting to Int before: exit 132):
    /// every command that reads the file names it at its JSON path. Like any value players
    /// pass over (issue 24 §1) it is a warning, the field taking its default or its part
    /// left out, and `--strict` refuses the file.
    static let integerFields: [(name: String, json: String, path: String)] = [
        (
            "layer ty", document(layers: #"{"ty":1e308,"ind":1,"ip":0,"op":30,"ks":{}}"#),
            "layers[0].ty"
        ),
        (
            "layer ind",
            document(layers: solid(1).replacingOccurrences(of: #""ind":1"#, with: #""ind":1e308"#)),
            "layers[0].ind"
        ),
        (
            "layer parent", document(layers: solid(1, extra: #","parent":1e308"#)),
            "layers[0].parent"
        ),
        ("layer tt", document(layers: solid(1, extra: #","tt":1e308"#)), "layers[0].tt"),
        ("layer tp", document(layers: solid(1, extra: #","tp":1e308"#)), "layers[0].tp"),
        ("layer bm", document(layers: solid(1, extra: #","bm":1e308"#)), "layers[0].bm"),
        (
            "effect ty", document(layers: solid(1, extra: #","ef":[{"ty":1e308,"ef":[]}]"#)),
            "layers[0].ef[0].ty"
        ),
        (
            "blur dimensions",
            document(
                layers: solid(
                    1,
                    extra: #","ef":[{"ty":29,"ef":[{"v":{"a":0,"k":5}},{"v":{"a":0,"k":1e308}}]}]"#)
            ),
            "layers[0].ef[0].ef[1].v.k"
        ),
        (
            "merge mode",
            document(
                layers:
                    #"{"ty":4,"ind":1,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"mm","mm":1e308}]}"#),
            "layers[0].shapes[0].mm"
        ),
        (
            "gradient p",
            document(
                layers:
                    #"{"ty":4,"ind":1,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"gf","o":{"a":0,"k":100},"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[10,0]},"t":1,"g":{"p":1e308,"k":{"a":0,"k":[0,1,0,0,1,0,0,1]}}}]}"#
            ),
            "layers[0].shapes[0].g.p"
        ),
    ]

    @Test(arguments: integerFields.map(\.name))
    func hugeIntegerFieldIsAWarningAtItsPath(_ name: String) throws {
        let field = try #require(Self.integerFields.first { $0.name == name })
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(field.json, to: folder + "/a.json")
        for command in [
            ["validate", "a.json"], ["info", "a.json"],
            ["still", "a.json", "--at", "50%", "-o", "s.png"],
            ["render", "a.json", "-o", "r.gif"],
            ["validate", "--strict", "a.json"],
        ] {
            let outcome = try CLI.run(command, in: folder)
            let said = outcome.stdout + outcome.stderr
            let strict = command.contains("--strict")
            #expect(outcome.status == (strict ? 2 : 0), "\(name), \(command): \(said)")
            #expect(said.contains("`\(field.path)`:"), "\(name), \(command): \(said)")
            #expect(said.contains("1e+308"), "\(name), \(command): \(said)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/s.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/r.gif"))
    }

    /// Literal NaN, Infinity and a number beyond a double: the file is a malformed Lottie
    /// file, told with its line and column, never a Flipbook scene missing `canvas`.
    @Test(arguments: [
        ("op", "NaN", "`NaN` is not a JSON value"),
        ("op", "Infinity", "`Infinity` is not a JSON value"),
        ("op", "-Infinity", "`-Infinity` is not a JSON value"),
        ("op", "1e400", "the number 1e400 is too large for a double"),
    ])
    func nonFiniteLiteralIsReportedAsLottie(_ key: String, _ literal: String, _ message: String)
        throws
    {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.write(
            "{\"v\":\"5.7.0\",\"fr\":30,\"ip\":0,\n\"\(key)\":\(literal),\"w\":100,\"h\":100,\"layers\":[]}",
            to: folder + "/a.json")
        let outcome = try CLI.run(["validate", "a.json"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("a.json:2:6: not valid Lottie JSON: \(message)"),
            "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("canvas"))
        #expect(
            outcome.stderr.split(separator: "\n").count == 1,
            "one line, not the scene reader's list: \(outcome.stderr)")
    }

    /// Colours of fewer than three numbers (a fuzzing finding: `"fc": []` trapped on an
    /// index out of range): the missing components are zero, and the file renders.
    @Test func shortColoursRender() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text =
            #"{"ty":5,"ind":1,"ip":0,"op":30,"ks":{},"t":{"d":{"k":[{"t":0,"s":{"t":"Hi","s":12,"f":"Sans","fc":[]}}]}}}"#
        let shape =
            #"{"ty":4,"ind":2,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1]},"o":{"a":0,"k":100}},{"ty":"st","c":{"a":0,"k":[]},"o":{"a":0,"k":100},"w":{"a":0,"k":2}}]}"#
        try CLI.write(Self.document(layers: text + "," + shape), to: folder + "/a.json")
        let outcome = try CLI.run(["still", "a.json", "--at", "0%", "-o", "a.png"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/a.png"))
    }

    // MARK: Limits counted while reading

    /// A million solid layers, 70 MB of JSON, as a .tgs (2.7 MB) and a .lottie: refused
    /// after the 101st layer with `--max-layers 100`, within `--max-memory 512M`.
    @Test(arguments: ["tgs", "lottie"])
    func millionLayersAreRefusedWhileReading(_ container: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = Self.document(
            layers: (0..<1_000_000).map { Self.solid($0) }.joined(separator: ","))
        try Self.writeContainer(container, json: Data(json.utf8), to: folder + "/a.\(container)")
        let outcome = try ChildUsage.run(
            ["validate", "a.\(container)", "--max-memory", "512M", "--max-layers", "100"],
            in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "more than 100 layers, over the limit of 100; raise --max-layers"),
            "\(outcome.stderr)")
        #expect(
            outcome.peakBytes < (512 << 20) + Self.processBaseline, "peak \(outcome.peakMiB) MiB")
    }

    /// A small .tgs that expands past what --max-memory lets a file be: refused while it is
    /// decompressed, naming --max-memory.
    @Test func gzipBombIsRefusedWhileDecompressing() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layer = #"{"ty":3,"ip":0,"op":1},"#
        var json = Data(#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":["#.utf8)
        json.append(Data(String(repeating: layer, count: 5_000_000).utf8))
        json.append(Data(#"{"ty":3,"ip":0,"op":1}]}"#.utf8))
        try Self.writeContainer("tgs", json: json, to: folder + "/bomb.tgs")
        let size =
            try FileManager.default.attributesOfItem(atPath: folder + "/bomb.tgs")[.size] as? Int
            ?? 0
        #expect(size < 1 << 20, "the sticker is \(size) bytes")
        let outcome = try ChildUsage.run(
            ["validate", "bomb.tgs", "--max-memory", "256M"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("expands to more than 67108864 bytes; raise --max-memory"),
            "\(outcome.stderr)")
        #expect(
            outcome.peakBytes < (256 << 20) + Self.processBaseline, "peak \(outcome.peakMiB) MiB")
    }

    /// A million keyframes (26 MB): refused by --max-keyframes while the JSON is read, at
    /// the 200001st.
    @Test func millionKeyframesAreRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = (0..<1_000_000).map { #"{"t":\#($0),"s":[\#($0 % 100)]}"# }.joined(
            separator: ",")
        try CLI.write(
            Self.document(
                layers: Self.solid(1).replacingOccurrences(
                    of: #""ks":{}"#, with: #""ks":{"o":{"a":1,"k":[\#(frames)]}}"#)),
            to: folder + "/a.json")
        let outcome = try ChildUsage.run(
            ["validate", "a.json", "--max-memory", "512M"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("a.json:1:"), "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "the file has more than 200000 keyframes, over the limit of 200000; "
                    + "raise --max-keyframes"), "\(outcome.stderr)")
        #expect(
            outcome.peakBytes < (512 << 20) + Self.processBaseline, "peak \(outcome.peakMiB) MiB")
    }

    /// Ten million path vertices in one path (80 MB): refused while the JSON is read, at
    /// the 100001st vertex.
    @Test func tenMillionPathVerticesAreRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let points = String(repeating: "[0,0],", count: 10_000_000) + "[0,0]"
        let shape =
            #"{"ty":4,"ind":1,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[\#(points)]}}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
        try CLI.write(Self.document(layers: shape), to: folder + "/a.json")
        let outcome = try ChildUsage.run(
            ["still", "a.json", "--at", "0%", "-o", "a.png"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "a path has more than 100000 vertices, over the limit of 100000 path elements; "
                    + "raise --max-path-elements"), "\(outcome.stderr)")
        #expect(outcome.peakBytes < (2 << 30) + Self.processBaseline, "peak \(outcome.peakMiB) MiB")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.png"))
    }

    /// A text layer of a million characters: refused by --max-text-length.
    @Test func megabyteOfTextIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = String(repeating: "lorem ipsum ", count: 90_000)
        let layer =
            #"{"ty":5,"ind":1,"ip":0,"op":30,"ks":{},"t":{"d":{"k":[{"t":0,"s":{"t":"\#(text)","s":12,"f":"Sans"}}]}}}"#
        try CLI.write(Self.document(layers: layer), to: folder + "/a.json")
        let outcome = try CLI.run(["still", "a.json", "--at", "0%", "-o", "a.png"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "the file has more than 100000 characters of text, over the limit of 100000; "
                    + "raise --max-text-length"), "\(outcome.stderr)")
    }

    /// A hundred thousand gradient stops (2 MB): refused at once by --max-gradient-stops.
    @Test func hundredThousandGradientStopsAreRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let n = 100_000
        let stops = (0..<n).map { "\(Double($0) / Double(n)),1,0,0" }.joined(separator: ",")
        let layer =
            #"{"ty":4,"ind":1,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0}},{"ty":"gf","o":{"a":0,"k":100},"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},"t":1,"g":{"p":\#(n),"k":{"a":0,"k":[\#(stops)]}}}]}"#
        try CLI.write(Self.document(layers: layer), to: folder + "/a.json")
        let outcome = try ChildUsage.run(
            ["still", "a.json", "--at", "0%", "-o", "a.png"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "layers[0].shapes[1].g: the file has more than 1000 colour stops in one gradient, "
                    + "over the limit of 1000; raise --max-gradient-stops"), "\(outcome.stderr)")
        #expect(outcome.seconds < 20, "\(outcome.seconds) s")
    }

    // MARK: Containers

    static func writeContainer(_ kind: String, json: Data, to path: String) throws {
        switch kind {
        case "tgs":
            try gzip(json).write(to: URL(fileURLWithPath: path))
        default:
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
            let manifest = Data(#"{"animations":[{"id":"a"}]}"#.utf8)
            for (name, data) in [("manifest.json", manifest), ("animations/a.json", json)] {
                try archive.addEntry(
                    with: name, type: .file, uncompressedSize: Int64(data.count),
                    compressionMethod: .deflate
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
    }

    /// gzip through zlib (windowBits 31 writes the gzip wrapper), level 9.
    static func gzip(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw POSIXError(.EINVAL) }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let written: Int = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                _ = deflate(&stream, Z_FINISH)
                return outBuf.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(written))
    }
}

/// dotLottie archives that players open anyway: each problem is one warning, never a
/// silent choice; a symbolic link inside is never followed.
@Suite struct DotLottieWarningTests {
    static let animation = Data(
        HostileLottieTests.document(layers: HostileLottieTests.solid(1)).utf8)

    /// Writes `a.lottie` from (name, bytes, is a symbolic link) entries.
    func archive(_ entries: [(String, Data, Bool)], in folder: String) throws -> String {
        let path = folder + "/a.lottie"
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, data, isLink) in entries {
            try archive.addEntry(
                with: name, type: isLink ? .symlink : .file, uncompressedSize: Int64(data.count),
                compressionMethod: .none
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return path
    }

    @Test(arguments: [
        (
            "no manifest", [("animations/x.json", animation, false)],
            "dotLottie: no manifest.json; opened `animations/x.json`"
        ),
        (
            "manifest names a missing animation",
            [
                ("manifest.json", Data(#"{"animations":[{"id":"gone"}]}"#.utf8), false),
                ("animations/x.json", animation, false),
            ],
            "dotLottie: the manifest names animation `gone`, which the archive lacks; opened `animations/x.json`"
        ),
        (
            "symlinked image",
            [
                ("manifest.json", Data(#"{"animations":[{"id":"x"}]}"#.utf8), false),
                ("animations/x.json", animation, false),
                ("images/img_0.png", Data("/etc/passwd".utf8), true),
            ],
            "dotLottie: image entry `images/img_0.png` is a symbolic link, which is not followed"
        ),
    ])
    func warnsAndStillOpens(_ name: String, _ entries: [(String, Data, Bool)], _ warning: String)
        throws
    {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try archive(entries, in: folder)
        let outcome = try CLI.run(["validate", "a.lottie"], in: folder)
        #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains(warning), "\(name): \(outcome.stderr)")
        let strict = try CLI.run(["validate", "a.lottie", "--strict"], in: folder)
        #expect(strict.status == 2, "\(name): \(strict.stderr)")
    }
}
