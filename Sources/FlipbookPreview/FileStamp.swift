#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the watcher remembers of a file to notice that it changed: modification time,
/// size and inode (an editor that saves by renaming a new file into place changes the
/// inode even within one timestamp tick). nil for a file that does not exist.
struct FileStamp: Equatable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var inode: UInt64

    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            return FileStamp(
                seconds: Int(info.st_mtimespec.tv_sec), nanoseconds: Int(info.st_mtimespec.tv_nsec),
                size: Int(info.st_size), inode: UInt64(info.st_ino))
        #else
            return FileStamp(
                seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
                size: Int(info.st_size), inode: UInt64(info.st_ino))
        #endif
    }
}
