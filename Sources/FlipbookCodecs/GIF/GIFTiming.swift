/// One frame kept by a ``GIFTiming/plan(frameCount:fps:)``: which source frame to render
/// and how long (centiseconds) it stays on screen.
public struct GIFFramePlan: Sendable, Hashable {
    public var frameIndex: Int
    public var delay: Int
    public init(frameIndex: Int, delay: Int) {
        self.frameIndex = frameIndex
        self.delay = delay
    }
}

/// GIF frame delays in whole centiseconds whose rounding does not accumulate.
///
/// Algorithm: source frame i starts at the exact time 100·i/fps cs and is written to start
/// at T(i) = ⌊100·i/fps⌋ (never early, less than 1 cs late); the animation ends at
/// T(n) = round(100·n/fps). Frame i lasts T(i+1) − T(i), so the delays sum to exactly
/// T(n) whatever the frame count. At 30 fps this gives the repeating 3, 3, 4 pattern
/// (10 cs per 3 frames; the 120 frames of a 4 s animation sum to 400).
///
/// Browsers play delays of 0–1 cs as 10 cs, so no written delay is below 2 cs. Up to
/// 50 fps every delay is already ≥ 2 (T(i+1) − T(i) ≥ ⌊100/fps⌋). Above 50 fps frames are
/// dropped greedily: a frame is kept when its start lies at least 2 cs after the
/// previously kept frame's start and at least 2 cs before the end; a kept frame lasts until
/// the next kept frame starts. Kept frames still start at their exact times and the total
/// stays exact (60 fps keeps 4 of every 6 frames: delays 3, 2, 3, 2 …).
/// The only exception is an animation shorter than 2 cs in total: its single frame gets 2.
public enum GIFTiming {
    /// The start time T(i) = ⌊100·i/fps⌋ in centiseconds (the 1e-9 absorbs binary
    /// representation error, so 100·3/30 is 10, not 9.999…).
    static func start(_ i: Int, fps: Double, ticksPerSecond: Int = 100) -> Int {
        Int((Double(ticksPerSecond * i) / fps + 1e-9).rounded(.down))
    }

    /// Which frames to keep and their delays (sums to round(100·frameCount/fps)).
    public static func plan(frameCount: Int, fps: Double) -> [GIFFramePlan] {
        plan(frameCount: frameCount, fps: fps, ticksPerSecond: 100, minimumDelay: 2)
    }

    /// The same plan on a clock of `ticksPerSecond` (an APNG's delay_den) with delays of
    /// at least `minimumDelay` ticks: delays in ticks, summing to round(ticks·frameCount/fps).
    package static func plan(frameCount: Int, fps: Double, ticksPerSecond: Int, minimumDelay: Int)
        -> [GIFFramePlan]
    {
        guard frameCount > 0 else { return [] }
        precondition(fps > 0 && fps.isFinite, "fps must be positive")
        let total = Int(
            (Double(ticksPerSecond * frameCount) / fps).rounded(.toNearestOrAwayFromZero))
        var plan: [GIFFramePlan] = [GIFFramePlan(frameIndex: 0, delay: 0)]
        var lastStart = 0
        for i in 1..<frameCount {
            let t = start(i, fps: fps, ticksPerSecond: ticksPerSecond)
            if t - lastStart >= minimumDelay && total - t >= minimumDelay {
                plan[plan.count - 1].delay = t - lastStart
                plan.append(GIFFramePlan(frameIndex: i, delay: 0))
                lastStart = t
            }
        }
        plan[plan.count - 1].delay = max(minimumDelay, total - lastStart)
        return plan
    }

    /// One delay per source frame: the planned delay for kept frames, 0 for frames the plan
    /// drops (only above 50 fps). ``GIFWriter/append(_:delayCentiseconds:)`` skips frames
    /// whose delay is 0, so appending every frame with these delays follows the plan.
    public static func delays(frameCount: Int, fps: Double) -> [Int] {
        var out = [Int](repeating: 0, count: max(0, frameCount))
        for step in plan(frameCount: frameCount, fps: fps) { out[step.frameIndex] = step.delay }
        return out
    }
}
