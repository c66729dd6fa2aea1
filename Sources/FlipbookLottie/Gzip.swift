import CFlipbookZlib
import FlipbookGeometry
import Foundation

/// gzip (and zlib) decompression through zlib, bounded in output size so that a small
/// hostile `.tgs` cannot expand without limit.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The data expands past the limit (rather than being corrupt).
        var isLimit = false
    }

    static func isLimit(_ error: any Error) -> Bool { (error as? Failure)?.isLimit ?? false }

    static func decompress(_ data: Data, limit: Int) throws -> Data {
        guard !data.isEmpty else { throw Failure(description: "the file is empty") }
        var stream = z_stream()
        // 15 + 32: a zlib or gzip header, detected from the data.
        guard
            inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else {
            throw Failure(description: "zlib could not start")
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
                        throw Failure(description: reason)
                    }
                    output.append(outBuf.baseAddress!, count: outBuf.count - Int(stream.avail_out))
                }
                if output.count > limit {
                    throw Failure(
                        description: "it expands to more than \(limit) bytes", isLimit: true)
                }
                if RenderCancellation.shared.isCancelled {
                    throw Failure(description: "interrupted")
                }
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 {
                    throw Failure(description: "the compressed data ends early")
                }
            } while status != Z_STREAM_END
        }
        return output
    }
}
