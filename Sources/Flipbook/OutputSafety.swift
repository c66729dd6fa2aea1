import FlipbookScene
import Foundation

/// Refuses, before anything is written, an output that is the same file as an input (the
/// scene, an asset, a font) or as another output: `still a.json -o a.json`, `render s.yaml
/// --report s.yaml`, `--report X -o X`.
///
/// Rules: two paths name the same file when they resolve to the same directory entry
/// (symbolic links resolved, `..` normalised; the parent folder compared by device and
/// inode, so that bind mounts and differently spelled folders match) or, when both exist,
/// to the same device and inode (hard links, a symbolic link to the file). Strings are
/// never compared as such. An output folder (PNG frames, an HTML report, goldens) holds
/// the files whose names its writer uses: it endangers an input inside it with such a
/// name.
package enum OutputSafety {
    /// A file a command reads or writes, with what it is for the message ("the scene",
    /// "--report").
    package struct File {
        package var path: String
        package var role: String

        package init(_ path: String, role: String) {
            self.path = path
            self.role = role
        }
    }

    /// A folder a command writes files into, those whose names `writes` accepts.
    package struct Folder {
        package var path: String
        package var role: String
        package var writes: @Sendable (String) -> Bool

        package init(_ path: String, role: String, writes: @escaping @Sendable (String) -> Bool) {
            self.path = path
            self.role = role
            self.writes = writes
        }
    }

    /// The first clash, as a one-line message, or nil when every output is its own file.
    package static func conflict(inputs: [File], outputs: [File], folders: [Folder] = []) -> String?
    {
        var resolver = Resolver()
        var claimed: [String: File] = [:]
        func claim(_ key: String, _ file: File) -> File? {
            if let owner = claimed[key] { return owner }
            claimed[key] = file
            return nil
        }
        for input in inputs {
            for key in resolver.keys(of: input.path) where claimed[key] == nil {
                claimed[key] = input
            }
        }
        let inputKeys = Set(claimed.keys)
        for output in outputs {
            for key in resolver.keys(of: output.path) {
                if let owner = claim(key, output) {
                    return message(output, owner, isInput: inputKeys.contains(key))
                }
            }
        }
        for folder in folders {
            let folderKey = resolver.folderKey(folder.path)
            // An output folder that is itself an input or output file.
            for key in resolver.keys(of: folder.path) {
                if let owner = claimed[key] {
                    return message(
                        File(folder.path, role: folder.role), owner,
                        isInput: inputKeys.contains(key))
                }
            }
            for (key, file) in claimed where key.hasPrefix("entry " + folderKey + "/") {
                let name = String(key.dropFirst(("entry " + folderKey + "/").count))
                if folder.writes(name) {
                    return message(
                        File(folder.path + "/" + name, role: folder.role), file,
                        isInput: inputKeys.contains(key))
                }
            }
            // Files already in the folder under a name it writes: hard links to inputs.
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where folder.writes(name) {
                if let key = resolver.inodeKey(folder.path + "/" + name), let owner = claimed[key] {
                    return message(
                        File(folder.path + "/" + name, role: folder.role), owner,
                        isInput: inputKeys.contains(key))
                }
            }
        }
        return nil
    }

    /// The frame files `PNGSequenceExporter` writes for `frames`.
    package static func frameFiles(_ frames: ClosedRange<Int>) -> @Sendable (String) -> Bool {
        { name in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png"),
                let n = Int(name.dropFirst(6).dropLast(4)), frames.contains(n)
            else { return false }
            return PNGSequenceExporter.fileName(ofFrame: n) == name
        }
    }

    private static func message(_ output: File, _ owner: File, isInput: Bool) -> String {
        let what = isInput ? "the input" : "the output"
        return
            "\(output.path) (\(output.role)) is the same file as \(what) \(owner.path) (\(owner.role)); "
            + "refusing to write anything"
    }

    /// The files a scene reads besides itself: its image assets and font files.
    package static func inputs(of scene: Scene, scenePath: String) -> [File] {
        var files = [File(scenePath, role: "the scene")]
        for name in scene.assets.keys.sorted() {
            files.append(File(scene.assets[name]!, role: "asset `\(name)`"))
        }
        var fonts = Set<String>()
        for layer in scene.layers {
            layer.forEachLayer { l in
                if case .text(let text) = l.content, case .file(let path) = text.font {
                    fonts.insert(path)
                }
            }
        }
        for path in fonts.sorted() { files.append(File(path, role: "a font")) }
        return files
    }

    /// Keys naming a path's file: its directory entry and, when it exists, its inode.
    private struct Resolver {
        private var folders: [String: String] = [:]

        mutating func keys(of path: String) -> [String] {
            var keys = ["entry " + entryKey(path)]
            if let inode = inodeKey(path) { keys.append(inode) }
            return keys
        }

        func inodeKey(_ path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return "inode \(info.st_dev):\(info.st_ino)"
        }

        /// The folder's identity: device and inode when it exists, else its resolved path.
        mutating func folderKey(_ path: String) -> String {
            let resolved = Self.resolve(path)
            if let known = folders[resolved] { return known }
            let key = inodeKey(resolved).map { "folder " + $0 } ?? "path " + resolved
            folders[resolved] = key
            return key
        }

        /// The parent folder's key and the last component of the resolved path.
        private mutating func entryKey(_ path: String) -> String {
            let resolved = Self.resolve(path)
            let slash = resolved.lastIndex(of: "/")!
            let parent = slash == resolved.startIndex ? "/" : String(resolved[..<slash])
            return folderKey(parent) + "/" + resolved[resolved.index(after: slash)...]
        }

        /// The absolute path with symbolic links resolved as far as the path exists, and
        /// `.` and `..` removed from the rest (which, not existing, holds no links).
        static func resolve(_ path: String) -> String {
            let absolute =
                path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var existing = absolute
            var rest: [Substring] = []
            while true {
                if let real = realpath(existing, nil) {
                    defer { free(real) }
                    var parts = String(cString: real).split(
                        separator: "/", omittingEmptySubsequences: true)
                    for part in rest.reversed() {
                        if part == "." || part.isEmpty { continue }
                        if part == ".." { _ = parts.popLast() } else { parts.append(part) }
                    }
                    return "/" + parts.joined(separator: "/")
                }
                guard let slash = existing.lastIndex(of: "/"), existing != "/" else {
                    return absolute
                }
                rest.append(existing[existing.index(after: slash)...])
                existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
            }
        }
    }
}

/// An output that is the same file as an input or another output (``OutputSafety``):
/// nothing was written. The command line exits 64 with ``description``.
public struct OutputConflict: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension OutputSafety {
    /// The files `HTMLReport` writes into its folder: index.html, thumb-N.png and
    /// frame-N-expected/actual/diff.png.
    package static func htmlReportFiles(_ name: String) -> Bool {
        if name == "index.html" { return true }
        guard name.hasSuffix(".png") else { return false }
        let stem = name.dropLast(4)
        if stem.hasPrefix("thumb-") { return Int(stem.dropFirst(6)) != nil }
        guard stem.hasPrefix("frame-") else { return false }
        let parts = stem.dropFirst(6).split(separator: "-")
        return parts.count == 2 && Int(parts[0]) != nil
            && ["expected", "actual", "diff"].contains(String(parts[1]))
    }
}
