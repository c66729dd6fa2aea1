import CFlipbookDeflate

/// libdeflate's whole-buffer compressor at one level, writing zlib streams (the data of
/// PNG's IDAT and APNG's fdAT chunks).
///
/// Levels run 0…12. The APNG writer ranks a frame's candidate encodings at a low level,
/// where libdeflate is several times faster than zlib, and deflates the winner at a high
/// one, where its near-optimal parsing gives smaller streams than zlib's level 9.
/// Not thread-safe: one compressor per thread (each frame's compression makes its own).
package final class LibDeflate {
    private let compressor: OpaquePointer
    package let level: Int32

    package init(level: Int32) throws(PNGError) {
        guard let c = libdeflate_alloc_compressor(level) else {
            throw PNGError.compressorCannotStart
        }
        compressor = c
        self.level = level
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// `input` as one zlib stream.
    package func compress(_ input: [UInt8]) throws(PNGError) -> [UInt8] {
        let bound = libdeflate_zlib_compress_bound(compressor, input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = input.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                libdeflate_zlib_compress(
                    compressor, src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
        }
        // 0 only when the output does not fit, which the bound rules out.
        guard written > 0 else { throw PNGError.compressionFailed(status: 0) }
        output.removeLast(bound - written)
        return output
    }
}

extension LibDeflate {
    /// The size of `count` bytes at `bytes` as raw deflate data, written into `scratch`
    /// (at least ``deflateBound(_:)`` bytes): what a filter chooser weighs a row by.
    package func deflatedSize(
        _ bytes: UnsafeRawPointer, count: Int, scratch: UnsafeMutableRawPointer, capacity: Int
    ) -> Int {
        libdeflate_deflate_compress(compressor, bytes, count, scratch, capacity)
    }

    /// The largest raw deflate output of `count` bytes.
    package func deflateBound(_ count: Int) -> Int {
        libdeflate_deflate_compress_bound(compressor, count)
    }
}
