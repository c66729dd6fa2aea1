/// APNG frame delays (delay_num / delay_den) whose rounding does not accumulate.
///
/// At a whole frame rate up to 50 fps the denominator is the fps and every frame lasts
/// exactly 1/fps. Otherwise the clock is milliseconds and ``GIFTiming``'s plan is used on
/// it: frame i starts at ⌊1000·i/fps⌋ ms, the total is exact, and no delay is under 20 ms
/// (browsers play shorter ones as 100 ms), dropping frames above 50 fps as GIFs do.
public enum APNGTiming {
    /// The delay denominator and the frames kept, with their delays in its ticks.
    public static func plan(frameCount: Int, fps: Double) -> (
        denominator: Int, frames: [GIFFramePlan]
    ) {
        let whole = fps.rounded()
        if abs(fps - whole) < 1e-9, whole >= 1, whole <= 50 {
            return (
                Int(whole), (0..<max(0, frameCount)).map { GIFFramePlan(frameIndex: $0, delay: 1) }
            )
        }
        return (
            1000,
            GIFTiming.plan(frameCount: frameCount, fps: fps, ticksPerSecond: 1000, minimumDelay: 20)
        )
    }
}
