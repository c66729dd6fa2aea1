import Flipbook
import FlipbookCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the SCENE arguments of `flipbook render` into a list of scene files.
///
/// Rules:
/// - A file is taken as given, whatever its extension.
/// - A folder is searched recursively for `*.yaml`, `*.yml`, `*.json` (scenes or Lottie),
///   `*.lottie` and `*.tgs` files; hidden
///   files and folders (starting with `.`) are skipped, and so are symbolic links to
///   folders (no cycles).
/// - An argument containing `*`, `?` or `[` is a glob (glob(3), so `*` does not cross
///   `/`); each match is then a file or a folder as above. A glob matching nothing is a
///   problem, like a missing file.
/// - The result is sorted (byte order of the paths) and without duplicates, so that every
///   machine sees the same list in the same order (sharding depends on it).
package enum SceneDiscovery {
    package static let sceneExtensions: Set<String> = ["yaml", "yml", "json", "lottie", "tgs"]

    package struct Result: Sendable {
        /// Scene files, sorted, unique.
        package var scenes: [String]
        /// Arguments that named nothing (missing files, empty globs).
        package var missing: [String]
    }

    /// Whether `argument` is a glob pattern rather than a path.
    package static func isPattern(_ argument: String) -> Bool {
        argument.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func discover(_ arguments: [String]) -> Result {
        var found: [String] = []
        var missing: [String] = []
        for argument in arguments {
            let paths: [String]
            if isPattern(argument) {
                paths = glob(argument)
                if paths.isEmpty { missing.append(argument); continue }
            } else {
                paths = [argument]
            }
            for path in paths {
                if isFolder(path) {
                    found += scenes(inFolder: path)
                } else if FileSystem.size(of: path) != nil || !isPattern(argument) {
                    // A missing plain file is kept: loading it reports the error (exit 2).
                    found.append(path)
                }
            }
        }
        var seen = Set<String>()
        let unique = found.map(normalized).filter { seen.insert($0).inserted }
        return Result(
            scenes: unique.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) },
            missing: missing)
    }

    /// "./a//b/" → "a/b".
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    static func scenes(inFolder folder: String) -> [String] {
        var out: [String] = []
        guard let dir = opendir(folder) else { return out }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        for name in names.sorted() {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                out += scenes(inFolder: path)
            } else if kind == S_IFREG || (kind == S_IFLNK && !isFolder(path)) {
                if let dot = name.lastIndex(of: "."),
                    sceneExtensions.contains(name[name.index(after: dot)...].lowercased())
                {
                    out.append(path)
                }
            }
        }
        return out
    }

    static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        #if canImport(Glibc)
            guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        #else
            guard Darwin.glob(pattern, 0, nil, &g) == 0 else { return [] }
        #endif
        var out: [String] = []
        for i in 0..<Int(g.gl_pathc) {
            if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
        }
        return out
    }
}
