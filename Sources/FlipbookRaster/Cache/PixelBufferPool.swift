#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-thread spare pixel buffers for the renderer's offscreens (a layer's group, its
/// matte), which live for one layer of one frame.
///
/// Why: an offscreen of 256×256 pixels is 256 KB, past malloc's threshold for mapping fresh
/// pages, so every frame paid for page faults on new memory (about a tenth of water_filling's
/// time). A recycled buffer is cleared instead.
///
/// Rules: a buffer handed out is all zeros and exactly as long as asked, whatever it held
/// before; one that is still referenced elsewhere when it is recycled is copied on its next
/// write (arrays copy on write), so recycling never changes what another holder sees. A thread
/// keeps at most ``maxBuffers`` buffers and ``maxBytes`` bytes; past that the smallest go.
package final class PixelBufferPool {
    static let maxBuffers = 6
    static let maxBytes = 32 << 20

    private var spare: [[UInt8]] = []
    private var bytes = 0

    /// `count` zero bytes, in a recycled buffer when one is large enough.
    package func zeroed(count: Int) -> [UInt8] {
        // The smallest spare buffer that holds `count` bytes without growing.
        var pick = -1
        for i in spare.indices where spare[i].capacity >= count {
            if pick < 0 || spare[i].capacity < spare[pick].capacity { pick = i }
        }
        guard pick >= 0 else { return [UInt8](repeating: 0, count: count) }
        var buffer = spare.remove(at: pick)
        bytes -= buffer.capacity
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        buffer.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { memset(base, 0, raw.count) }
        }
        return buffer
    }

    /// Keeps `buffer` for a later ``zeroed(count:)`` on this thread.
    package func recycle(_ buffer: consuming [UInt8]) {
        let size = buffer.capacity
        guard size > 0, size <= Self.maxBytes else { return }
        spare.append(buffer)
        bytes += size
        while spare.count > Self.maxBuffers || bytes > Self.maxBytes {
            let smallest = spare.indices.min { spare[$0].capacity < spare[$1].capacity }!
            bytes -= spare.remove(at: smallest).capacity
        }
    }

    /// The calling thread's pool.
    package static var current: PixelBufferPool { threadLocal.value }
    private static let threadLocal = PerThread { PixelBufferPool() }
}

extension Pixmap {
    /// A transparent pixmap whose bytes come from the thread's ``PixelBufferPool``; give
    /// them back with ``recycle()`` once it is drawn.
    package static func pooled(width: Int, height: Int) -> Pixmap {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        return Pixmap(
            width: width, height: height,
            premultipliedRGBA: PixelBufferPool.current.zeroed(count: width * height * 4))
    }

    /// Hands the bytes to the thread's ``PixelBufferPool``, leaving the pixmap empty of
    /// data: for an offscreen at the end of its use.
    package mutating func recycle() {
        var taken: [UInt8] = []
        swap(&taken, &data)
        PixelBufferPool.current.recycle(taken)
    }
}
