#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system failure: what was being done, the path, and the system's reason
/// (`strerror`'s text) where it gave one.
public enum FileIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A file that cannot be opened for reading.
    case cannotOpen(path: String, reason: String)
    /// Reading stopped with the stream's error flag set.
    case readFailed(path: String)
    /// The temporary file beside `path` cannot be made.
    case cannotCreate(path: String, reason: String)
    /// Fewer bytes written than given, or a seek that failed.
    case writeFailed(path: String, reason: String)
    /// A write or commit after the file was committed or abandoned.
    case alreadyClosed(path: String)
    /// The flush, fsync or close before the rename failed.
    case cannotFinish(path: String, reason: String)
    /// The finished temporary file cannot be renamed to `path`.
    case cannotRename(path: String, reason: String)
    /// A folder on the way to `path` cannot be made.
    case cannotMakeFolder(path: String, reason: String)
    /// `path` exists and is not a folder.
    case notAFolder(path: String)
    /// A positioned read or write (`pread`, `pwrite`) that stopped short.
    case transferFailed(path: String, reason: String)

    /// The file or folder the failure is about.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .readFailed(let path), .cannotCreate(let path, _),
            .writeFailed(let path, _), .alreadyClosed(let path), .cannotFinish(let path, _),
            .cannotRename(let path, _), .cannotMakeFolder(let path, _), .notAFolder(let path),
            .transferFailed(let path, _):
            path
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .cannotOpen(_, let reason), .cannotCreate(_, let reason), .writeFailed(_, let reason),
            .cannotRename(_, let reason), .cannotMakeFolder(_, let reason),
            .transferFailed(_, let reason):
            reason
        case .readFailed: "read error"
        case .alreadyClosed: "already closed"
        case .cannotFinish(_, let reason): "could not finish writing: \(reason)"
        case .notAFolder: "not a folder"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// Whole-file reads and atomic writes.
///
/// Outputs are written to a temporary file in the target's folder and renamed over the
/// target only once complete, so a failed or interrupted write never leaves a truncated
/// file or destroys a good one.
public enum FileIO {
    public static func readAll(path: String) throws(FileIOError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw FileIOError.cannotOpen(path: path, reason: lastError())
        }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { out.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { throw FileIOError.readFailed(path: path) }
                break
            }
        }
        return out
    }

    /// Writes `bytes` to a temporary file beside `path`, flushes it, and renames it into place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileIOError) {
        let writer = try AtomicFileWriter(path: path)
        do {
            try writer.write(bytes)
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// The C library's message for the current errno.
    public static func lastError() -> String { String(cString: strerror(errno)) }
}

/// A file being written under a temporary name beside its final path; ``commit()``
/// renames it into place, ``abandon()`` (or never committing) deletes it.
public final class AtomicFileWriter {
    public let path: String
    public let temporaryPath: String
    private var file: UnsafeMutablePointer<FILE>?

    public init(path: String) throws(FileIOError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw FileIOError.cannotCreate(path: path, reason: FileIO.lastError())
        }
        temporaryPath = String(
            decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
            as: UTF8.self)
        TemporaryFiles.register(temporaryPath)
        fchmod(fd, 0o644)
        guard let f = fdopen(fd, "wb") else {
            close(fd)
            TemporaryFiles.remove(temporaryPath)
            throw FileIOError.cannotCreate(path: path, reason: FileIO.lastError())
        }
        file = f
    }

    deinit { abandon() }

    public func write(_ bytes: [UInt8]) throws(FileIOError) {
        guard let file else { throw FileIOError.alreadyClosed(path: path) }
        let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard n == bytes.count else {
            throw FileIOError.writeFailed(path: path, reason: FileIO.lastError())
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
        guard let file else { throw FileIOError.alreadyClosed(path: path) }
        guard bytes.count > 0 else { return }
        let n = fwrite(bytes.baseAddress, 1, bytes.count, file)
        guard n == bytes.count else {
            throw FileIOError.writeFailed(path: path, reason: FileIO.lastError())
        }
    }

    /// The underlying stream, for C writers (giflib) that write through it.
    public var stream: UnsafeMutablePointer<FILE>? { file }

    /// Flushes, closes and renames the temporary file over `path`.
    public func commit() throws(FileIOError) {
        guard let f = file else { throw FileIOError.alreadyClosed(path: path) }
        file = nil
        let flushed = fflush(f) == 0 && fsync(fileno(f)) == 0
        let closed = fclose(f) == 0
        guard flushed, closed else {
            let reason = FileIO.lastError()
            TemporaryFiles.remove(temporaryPath)
            throw FileIOError.cannotFinish(path: path, reason: reason)
        }
        let renamed = TemporaryFiles.rename([(temporaryPath, path)])
        guard renamed == 1 else {
            let reason = FileIO.lastError()
            TemporaryFiles.remove(temporaryPath)
            throw FileIOError.cannotRename(path: path, reason: reason)
        }
    }

    /// Deletes the temporary file; the target is left untouched.
    public func abandon() {
        if let f = file {
            fclose(f)
            file = nil
            TemporaryFiles.remove(temporaryPath)
        }
    }
}

/// The temporary files this process is writing, so that an interrupted process can delete
/// them as it exits (the command line's watchdog, which ends a process that has not
/// stopped within a moment of Ctrl-C: see `Interruption`).
///
/// Rules: a file is registered from its creation until it is renamed into place or
/// deleted. Renames into place and ``removeAllAndHold()`` take the same lock, so an exit
/// through the latter either sees a rename whole or not at all: no output is left half
/// renamed, and no temporary file outlives the process.
public enum TemporaryFiles {
    nonisolated(unsafe) private static var paths: Set<String> = []
    private static let lock = PThreadLock()

    /// Records `path` as a temporary file to delete if the process is interrupted.
    public static func register(_ path: String) {
        lock.lock()
        paths.insert(path)
        lock.unlock()
    }

    /// Deletes `path` and forgets it.
    public static func remove(_ path: String) {
        lock.lock()
        unlink(path)
        paths.remove(path)
        lock.unlock()
    }

    /// Renames each temporary file over its final path, in order, stopping at the first
    /// failure (errno then says why); returns how many were renamed. The renamed ones are
    /// forgotten; the others stay registered.
    public static func rename(_ moves: [(temporary: String, final: String)]) -> Int {
        lock.lock()
        defer { lock.unlock() }
        for (index, move) in moves.enumerated() {
            guard systemRename(move.temporary, move.final) == 0 else { return index }
            paths.remove(move.temporary)
        }
        return moves.count
    }

    /// The files registered now (for tests).
    public static var registered: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    /// Deletes every registered file and keeps the lock, so that no rename or new
    /// registration follows: for a process about to exit.
    public static func removeAllAndHold() {
        lock.lock()
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}

/// `rename(2)`, which the static method of the same name hides inside ``TemporaryFiles/rename(_:)``.
@inline(__always) private func systemRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}

/// A pthread mutex (this target does not import Foundation for NSLock).
private final class PThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
