#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFlipbookZlib
import Dispatch
import FlipbookGeometry
import FlipbookRaster

/// Writes an animated PNG: frames appended in order are differenced against the canvas a
/// decoder holds (see ``APNGFrameEncoder``) and kept until every frame is known, so that
/// the format fits them all (``APNGColorMode``: indexed, RGB with a transparent key colour,
/// or RGBA); then compressed on up to `jobs` threads and written in order as chunks with
/// their sequence numbers and CRCs. A frame equal to the one before lengthens that one's delay.
///
/// Layout: signature, IHDR (8-bit), acTL (plays forever), the optional tEXt, PLTE and
/// tRNS, then per frame an fcTL and its data (IDAT for the first frame, which is also the
/// still image, fdAT after), IEND. The acTL's frame count is written once the frames are known.
/// Memory: the changed regions of the frames, up to ``bufferBudget`` bytes; past it the
/// format is fixed (RGB or RGBA) and frames stream out, at most `jobs` + 3 in flight.
public final class APNGWriter {
    public let width: Int
    public let height: Int
    private let denominator: Int
    private let jobs: Int
    /// Every frame must be opaque (a frame that is not fails ``append(_:delay:)``).
    private let opaque: Bool
    /// How hard each frame is deflated (`--png-compression`): `fast` libdeflate level 6,
    /// `default` the candidates ranked at level 6 and the winner deflated at 12 (a frame
    /// that deflates well tries more), `small` every candidate at 12 (see
    /// ``APNGFrameEncoder/compress(_:mode:effort:keptRowsBudget:)``). Set before the first
    /// frame.
    public var compression = PNGCompression.default
    private let text: PNGText?
    /// The format, once chosen: until then frames are only differenced and kept.
    private var mode: APNGColorMode?
    private var bufferedBytes = 0
    /// Bytes of kept frame regions past which the format is fixed without seeing the rest.
    static let bufferBudget = 256 << 20
    private var sink: Sink
    private var sequence: UInt32 = 0
    private var framesWritten = 0
    private var actlOffset = 0
    private var previous: Pixmap?
    private var previousRect: PixelBounds?
    /// The frame before `previous` (nil until there is one): the canvas `previous` would
    /// have been drawn on had that frame's dispose_op been NONE (see ``revision(for:cost:)``).
    private var beforePrevious: Pixmap?
    /// The canvas `previous` was drawn on (what dispose_op PREVIOUS restores); nil while
    /// `previous` is the first frame (whose PREVIOUS means BACKGROUND).
    private var canvasBefore: Pixmap?
    private var pending: [Pending] = []
    /// CPU time the compression threads spent on the frames written so far (for `--timings`).
    public private(set) var compressionNanoseconds: UInt64 = 0
    private let slots: DispatchSemaphore
    private static let queue = DispatchQueue(
        label: "flipbook.apng.compress", attributes: .concurrent)

    /// A frame whose compression runs or ran; its delay and dispose_op stay open until the
    /// next frame is known.
    private final class Pending: @unchecked Sendable {
        let group = DispatchGroup()
        var delay: Int
        var dispose: UInt8 = 0
        var result: Result<APNGEncodedFrame, PNGError>?
        /// The frame to compress, until it is submitted.
        var work: APNGFrameWork?
        var cpuNanoseconds: UInt64 = 0
        init(delay: Int) { self.delay = delay }
    }

    private enum Sink {
        case file(AtomicFileWriter, offset: Int)
        case memory([UInt8])
    }

    /// Starts writing to a temporary file beside `path` (renamed into place by
    /// ``finish()``). `denominator` is delay_den (see ``APNGTiming``); `text` becomes a
    /// tEXt chunk before the image data.
    /// `opaque`: every frame will be opaque (a scene with an opaque background); a frame
    /// that is not fails ``append(_:delay:)``.
    public convenience init(
        path: String, width: Int, height: Int, denominator: Int, text: PNGText? = nil,
        jobs: Int = 1, opaque: Bool = false
    ) throws {
        try self.init(
            sink: .file(try AtomicFileWriter(path: path), offset: 0), width: width, height: height,
            denominator: denominator, text: text, jobs: jobs, opaque: opaque)
    }

    /// Writes into memory: ``finishInMemory()`` returns the bytes.
    public convenience init(
        width: Int, height: Int, denominator: Int, text: PNGText? = nil, jobs: Int = 1,
        opaque: Bool = false
    ) throws {
        try self.init(
            sink: .memory([]), width: width, height: height, denominator: denominator, text: text,
            jobs: jobs,
            opaque: opaque)
    }

    private init(
        sink: Sink, width: Int, height: Int, denominator: Int, text: PNGText?, jobs: Int,
        opaque: Bool
    ) throws {
        guard width > 0, height > 0, width < 1 << 31, height < 1 << 31 else {
            throw PNGError.animationSizeOutOfRange(width: width, height: height)
        }
        guard (1...65535).contains(denominator) else {
            throw PNGError.delayDenominatorOutOfRange(denominator)
        }
        self.sink = sink
        self.width = width
        self.height = height
        self.denominator = denominator
        self.jobs = max(1, jobs)
        self.opaque = opaque
        self.text = text
        slots = DispatchSemaphore(value: self.jobs)
    }

    /// Fixes the format, writes the header and starts compressing the kept frames.
    private func start(_ mode: APNGColorMode) throws {
        self.mode = mode
        try emit([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // 8 bits a sample, deflate, adaptive filtering, no interlace.
        try chunk("IHDR", Self.be32(width) + Self.be32(height) + [8, mode.colorType, 0, 0, 0])
        actlOffset = offset
        // frame count patched by finish; plays 0 = forever
        try chunk("acTL", Self.be32(0) + Self.be32(0))
        if let text { try chunk("tEXt", Array(text.keyword.utf8) + [0] + Array(text.text.utf8)) }
        for (type, data) in mode.headerChunks { try chunk(type, data) }
        for entry in pending.dropLast() { submit(entry, mode) }
    }

    /// Appends a frame shown for `delay` ticks of 1/denominator s (1…65535).
    public func append(_ frame: Pixmap, delay: Int) throws {
        try RenderCancellation.shared.check()
        guard frame.width == width, frame.height == height else {
            throw PNGError.frameSizeMismatch(
                frameWidth: frame.width, frameHeight: frame.height, width: width, height: height)
        }
        guard (1...65535).contains(delay) else {
            throw PNGError.delayOutOfRange(delay)
        }
        guard let previous, let previousRect else {
            try add(
                try work(
                    frame, base: nil, cleared: nil,
                    rect: PixelBounds(x0: 0, y0: 0, x1: width, y1: height)), delay: delay)
            self.previous = frame
            self.previousRect = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
            return
        }
        let kept = APNGFrameEncoder.changedRect(frame, previous, cleared: nil)
        if kept == nil, let last = pending.last, last.delay + delay <= 65535 {
            last.delay += delay
            return
        }
        // The previous frame's dispose_op is the one that leaves the least to draw: NONE
        // (keep it), BACKGROUND (its region cleared: content that disappears from a
        // transparent canvas) or PREVIOUS (the canvas before it restored: a transient overlay
        // such as a tooltip or a blinking caret). Ties keep the earlier, simpler op. The cost
        // is the area to draw, plus for PREVIOUS the pixels of the previous frame that blend
        // SOURCE must then write although OVER would leave them transparent (see below).
        var options:
            [(dispose: UInt8, base: Pixmap, cleared: PixelBounds?, rect: PixelBounds?, cost: Int)] =
                [
                    (0, previous, nil, kept, 0),
                    (
                        1, previous, previousRect,
                        APNGFrameEncoder.changedRect(frame, previous, cleared: previousRect), 0
                    ),
                ]
        if let canvasBefore {
            let extra = pending.last?.work.map(Self.pixelsLeftByOver) ?? 0
            options.append(
                (
                    2, canvasBefore, nil,
                    APNGFrameEncoder.changedRect(frame, canvasBefore, cleared: nil), extra
                ))
        }
        let best = options.min {
            ($0.rect.map(Self.area) ?? 0) + $0.cost < ($1.rect.map(Self.area) ?? 0) + $1.cost
        }!
        if let revised = try revision(for: frame, cost: (best.rect.map(Self.area) ?? 0) + best.cost)
        {
            try add(revised, delay: delay)
            beforePrevious = previous
            self.previous = frame
            self.previousRect = revised.rect
            try flush(final: false)
            return
        }
        // Identical but too long to merge: a 1-pixel frame continues the delay.
        let rect = best.rect ?? PixelBounds(x0: 0, y0: 0, x1: 1, y1: 1)
        pending.last?.dispose = best.dispose
        // A frame disposed to PREVIOUS is written with blend SOURCE. Both are exact by the
        // specification, and browsers and ffmpeg play PREVIOUS after OVER right, but Pillow
        // 13.0 blends OVER into the very image it keeps for PREVIOUS, so its restore brings
        // back the frame itself (scenes/demo.png: 105 of 120 frames wrong). The frame is not
        // yet compressed (see ``add``).
        if best.dispose == 2 { pending.last?.work?.over = nil }
        try add(try work(frame, base: best.base, cleared: best.cleared, rect: rect), delay: delay)
        switch best.dispose {
        case 0: canvasBefore = previous
        case 1: canvasBefore = Self.clearing(previous, previousRect)
        default: break  // restored: the new frame is drawn on the same canvas as the previous one
        }
        beforePrevious = previous
        self.previous = frame
        self.previousRect = rect
        try flush(final: false)
    }

    /// A choice made one frame too early, taken back: the frame before the previous one
    /// (k − 2) disposed NONE instead of BACKGROUND or PREVIOUS, and the previous one (k − 1)
    /// disposed PREVIOUS, so that `frame` (k) is drawn over frame k − 2 itself. This is
    /// what a pose that returns after one frame needs, as in a walk cycle's passing pose
    /// (lolo_walk's frames 11–13: frame 13 redraws 104 × 135 pixels of frame 11 instead of
    /// 159 × 173 over frame 12); ``append(_:delay:)``'s choice of the previous frame's
    /// dispose_op alone cannot see it, because frame k − 2 was already disposed to
    /// BACKGROUND when frame k − 1's region came out a little smaller that way.
    /// Taken when it leaves less to draw over both frames than `cost`, the best choice
    /// for `frame` alone (frame k − 1 is priced as in ``append(_:delay:)``'s PREVIOUS:
    /// its area plus the pixels SOURCE writes that OVER would leave transparent). Returns
    /// `frame`'s work when taken, having rewritten frame k − 1's work and both dispose_ops;
    /// nil when not. Frame k − 2 may be compressed already: its stream does not depend on
    /// its own dispose_op (a frame disposed PREVIOUS is blended SOURCE, which stays exact
    /// under NONE), and ``flush(final:)`` keeps it unwritten until frame k is known.
    private func revision(for frame: Pixmap, cost: Int) throws -> APNGFrameWork? {
        guard let older = beforePrevious, let previous, let previousRect, pending.count >= 2,
            pending[pending.count - 2].dispose != 0, pending[pending.count - 1].work != nil
        else { return nil }
        let unit = PixelBounds(x0: 0, y0: 0, x1: 1, y1: 1)
        let previousRegion = APNGFrameEncoder.changedRect(previous, older, cleared: nil) ?? unit
        let region = APNGFrameEncoder.changedRect(frame, older, cleared: nil) ?? unit
        let current = Self.area(previousRect) + cost
        guard Self.area(previousRegion) + Self.area(region) < current else { return nil }
        var previousWork = try work(previous, base: older, cleared: nil, rect: previousRegion)
        let revised =
            Self.area(previousRegion) + Self.pixelsLeftByOver(previousWork) + Self.area(region)
        guard revised < current else { return nil }
        previousWork.over = nil  // disposed PREVIOUS: blended SOURCE (see append)
        pending[pending.count - 2].dispose = 0
        pending[pending.count - 1].work = previousWork
        pending[pending.count - 1].dispose = 2
        canvasBefore = older
        return try work(frame, base: older, cleared: nil, rect: region)
    }

    /// `pixmap` with `rect` transparent.
    private static func clearing(_ pixmap: Pixmap, _ rect: PixelBounds) -> Pixmap {
        var out = pixmap
        out.data.withUnsafeMutableBufferPointer { d in
            for y in rect.y0..<rect.y1 {
                let start = (y * pixmap.width + rect.x0) * 4
                UnsafeMutableBufferPointer(rebasing: d[start..<(start + (rect.x1 - rect.x0) * 4)])
                    .update(repeating: 0)
            }
        }
        return out
    }

    private func work(_ frame: Pixmap, base: Pixmap?, cleared: PixelBounds?, rect: PixelBounds)
        throws(PNGError) -> APNGFrameWork
    {
        guard
            let work = APNGFrameEncoder.work(
                frame, base: base, cleared: cleared, rect: rect, opaque: opaque)
        else {
            throw PNGError.frameNotOpaque
        }
        return work
    }

    private static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    private static func area(_ r: PixelBounds) -> Int { (r.x1 - r.x0) * (r.y1 - r.y0) }

    /// The pixels of a frame's region that its OVER variant leaves transparent (they equal
    /// the canvas below) and SOURCE must write; 0 when it has no OVER variant.
    private static func pixelsLeftByOver(_ work: APNGFrameWork) -> Int {
        guard let over = work.over else { return 0 }
        return over.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt32.self).reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
        }
    }

    /// Queues a frame. The frame before it, whose dispose_op is now known, is compressed
    /// when the format is fixed; until then frames are kept (and the format fixed as RGB or
    /// RGBA when the kept frames pass ``bufferBudget``). The newest frame waits for the next
    /// one: its dispose_op may still restrict its blend.
    private func add(_ work: APNGFrameWork, delay: Int) throws {
        let entry = Pending(delay: delay)
        entry.work = work
        pending.append(entry)
        if let mode {
            if pending.count >= 2 { submit(pending[pending.count - 2], mode) }
            return
        }
        bufferedBytes += work.source.count + (work.over?.count ?? 0)
        if bufferedBytes > Self.bufferBudget { try start(opaque ? .rgb(key: nil) : .rgba) }
    }

    private func submit(_ entry: Pending, _ mode: APNGColorMode) {
        guard let work = entry.work else { return }
        entry.work = nil
        slots.wait()
        entry.group.enter()
        Self.queue.async { [slots, compression] in
            // After a stop request the remaining frames are not compressed.
            let started = Self.threadCPUNanoseconds()
            entry.result =
                RenderCancellation.shared.isCancelled
                ? .failure(PNGError.interrupted)
                : Result { () throws(PNGError) in
                    try APNGFrameEncoder.compress(work, mode: mode, effort: compression)
                }
            entry.cpuNanoseconds = Self.threadCPUNanoseconds() &- started
            entry.group.leave()
            slots.signal()
        }
    }

    /// Writes the finished frames at the head of the queue; the last two stay (the last
    /// one's delay and dispose_op may change, and ``revision(for:cost:)`` may change the
    /// one before's dispose_op) unless `final`. Waits for the head when more than `jobs` + 2
    /// frames are queued, which bounds memory.
    private func flush(final: Bool) throws {
        guard mode != nil else { return }
        while let head = pending.first, final || pending.count > 2 {
            let ready = head.group.wait(timeout: .now()) == .success
            if !ready {
                guard final || pending.count > jobs + 2 else { return }
                head.group.wait()
            }
            pending.removeFirst()
            compressionNanoseconds &+= head.cpuNanoseconds
            try writeFrame(try head.result!.get(), delay: head.delay, dispose: head.dispose)
        }
    }

    private func writeFrame(_ frame: APNGEncodedFrame, delay: Int, dispose: UInt8) throws {
        let r = frame.rect
        var control = Self.be32(Int(sequence)) + Self.be32(r.x1 - r.x0) + Self.be32(r.y1 - r.y0)
        control += Self.be32(r.x0) + Self.be32(r.y0) + Self.be16(delay) + Self.be16(denominator)
        control += [dispose, frame.blendOver ? 1 : 0]
        sequence += 1
        try chunk("fcTL", control)
        // Chunks of at most 1 MiB: any decoder's buffers hold them.
        let limit = 1 << 20
        var start = 0
        repeat {
            let end = min(frame.data.count, start + limit)
            if framesWritten == 0 {
                try chunk("IDAT", Array(frame.data[start..<end]))
            } else {
                try chunk("fdAT", Self.be32(Int(sequence)) + frame.data[start..<end])
                sequence += 1
            }
            start = end
        } while start < frame.data.count
        framesWritten += 1
    }

    /// Writes the remaining frames, IEND and the frame count, then renames the file into place.
    public func finish() throws {
        try finishFrames()
        guard case .file(let file, _) = sink else { return }
        try file.commit()
    }

    /// ``finish()`` for a writer made without a path: the APNG's bytes.
    public func finishInMemory() throws -> [UInt8] {
        try finishFrames()
        guard case .memory(let bytes) = sink else {
            throw PNGError.writtenToFile
        }
        return bytes
    }

    private func finishFrames() throws {
        guard !pending.isEmpty || mode != nil else { throw PNGError.noFrames }
        if mode == nil { try start(APNGColorMode.choose(pending.map { $0.work! })) }
        if let last = pending.last, let mode { submit(last, mode) }
        try flush(final: true)
        guard framesWritten > 0 else { throw PNGError.noFrames }
        try chunk("IEND", [])
        let actl = Self.chunkBytes("acTL", Self.be32(framesWritten) + Self.be32(0))
        switch sink {
        case .memory(var bytes):
            bytes.replaceSubrange(actlOffset..<(actlOffset + actl.count), with: actl)
            sink = .memory(bytes)
        case .file(let file, _):
            guard let stream = file.stream, fseek(stream, actlOffset, SEEK_SET) == 0 else {
                throw FileIOError.writeFailed(path: file.path, reason: FileIO.lastError())
            }
            try file.write(actl)
        }
    }

    /// Deletes the temporary file once the frames being compressed are done.
    public func abandon() {
        for entry in pending { entry.group.wait() }
        pending = []
        if case .file(let file, _) = sink { file.abandon() }
    }

    private var offset: Int {
        switch sink {
        case .file(_, let offset): return offset
        case .memory(let bytes): return bytes.count
        }
    }

    private func emit(_ bytes: [UInt8]) throws {
        switch sink {
        case .file(let file, let offset):
            try file.write(bytes)
            sink = .file(file, offset: offset + bytes.count)
        case .memory(var all):
            sink = .memory([])  // keeps `all` uniquely referenced: appended in place
            all += bytes
            sink = .memory(all)
        }
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws {
        try emit(Self.chunkBytes(type, data))
    }

    /// Length, type, data, CRC-32 of type and data.
    static func chunkBytes(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 4) }
        // zlib's crc32 with a null buffer returns its initial value: empty data is skipped.
        if !data.isEmpty {
            crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        }
        return be32(data.count) + typeBytes + data + be32(Int(crc))
    }

    static func be32(_ v: Int) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
            UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v),
        ]
    }
    static func be16(_ v: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
