#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a file a scene names stays inside the scene's folder: both paths are compared
/// with every symlink, `.` and `..` resolved, so that neither `..`, an absolute path nor a
/// link inside the folder can lead elsewhere. Shared by every reader (YAML scenes, Lottie).
public enum AssetConfinement {
    /// Whether `resolved` lies inside `folder`, and the real path it leads to (for messages).
    public static func check(_ resolved: String, inside folder: String) -> (
        inside: Bool, real: String
    ) {
        let base = realPath(folder)
        let real = realPath(resolved)
        return (real.hasPrefix(base.hasSuffix("/") ? base : base + "/"), real)
    }

    /// The path with every symlink, `.` and `..` resolved (the path itself if that fails).
    public static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
