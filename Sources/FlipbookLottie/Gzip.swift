import CFlipbookZlib
import FlipbookGeometry
import Foundation

/// gzip (and zlib) decompression through zlib, bounded in output size so that a small
/// hostile `.tgs` cannot expand without limit.
enum Gzip {
    /// Why the data could not be decompressed.
    enum Failure: Error, CustomStringConvertible, Equatable {
        case empty
        case zlibUnavailable
        /// zlib's own message, or its status when it gives none.
        case corrupt(String)
        /// The data expands past the limit (rather than being corrupt).
        case exceedsLimit(Int)
        case interrupted
        case truncated

        var description: String {
            switch self {
            case .empty: "the file is empty"
            case .zlibUnavailable: "zlib could not start"
            case .corrupt(let reason): reason
            case .exceedsLimit(let limit): "it expands to more than \(limit) bytes"
            case .interrupted: "interrupted"
            case .truncated: "the compressed data ends early"
            }
        }
    }

    static func isLimit(_ error: any Error) -> Bool {
        if case .exceedsLimit = error as? Failure { return true }
        return false
    }

    static func decompress(_ data: Data, limit: Int) throws -> Data {
        guard !data.isEmpty else { throw Failure.empty }
        var stream = z_stream()
        // 15 + 32: a zlib or gzip header, detected from the data.
        guard
            inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else {
            throw Failure.zlibUnavailable
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = [UInt8](data)
        let count = input.count
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(count)
            repeat {
                try chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else {
                        let reason =
                            stream.msg.map { String(cString: $0) }
                            ?? "corrupt data (zlib status \(status))"
                        throw Failure.corrupt(reason)
                    }
                    output.append(outBuf.baseAddress!, count: outBuf.count - Int(stream.avail_out))
                }
                if output.count > limit {
                    throw Failure.exceedsLimit(limit)
                }
                if RenderCancellation.shared.isCancelled {
                    throw Failure.interrupted
                }
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 {
                    throw Failure.truncated
                }
            } while status != Z_STREAM_END
        }
        return output
    }
}
