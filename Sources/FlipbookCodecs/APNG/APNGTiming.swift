/// APNG frame delays (delay_num / delay_den) whose rounding does not accumulate.
///
/// Browsers (Chromium, Firefox, WebKit) show a frame of 10 ms or less for 100 ms, whatever
/// the format; a longer one plays as written, whether an APNG stores it in milliseconds or in
/// 1/fps. So at a whole frame rate up to 90 fps the denominator is the fps and every frame
/// lasts exactly 1/fps (≥ 11.1 ms: a 60 fps Lottie keeps all 60 frames a second). Otherwise
/// the clock is milliseconds and ``GIFTiming``'s plan is used on it: frame i starts at
/// ⌊1000·i/fps⌋ ms, the total is exact, and no delay is under ``minimumDelayMilliseconds``,
/// dropping frames above 90 fps as GIFs drop them above 50 (a GIF's centiseconds cannot
/// hold 11 ms). The animated WebP keeps the same floor.
public enum APNGTiming {
    /// The shortest delay written, in ms: the first that browsers do not slow to 100 ms.
    public static let minimumDelayMilliseconds = 11

    /// The delay denominator and the frames kept, with their delays in its ticks.
    public static func plan(frameCount: Int, fps: Double) -> (
        denominator: Int, frames: [GIFFramePlan]
    ) {
        let whole = fps.rounded()
        if abs(fps - whole) < 1e-9, whole >= 1, whole * Double(minimumDelayMilliseconds) <= 1000 {
            return (
                Int(whole), (0..<max(0, frameCount)).map { GIFFramePlan(frameIndex: $0, delay: 1) }
            )
        }
        return (
            1000,
            GIFTiming.plan(
                frameCount: frameCount, fps: fps, ticksPerSecond: 1000,
                minimumDelay: minimumDelayMilliseconds)
        )
    }
}
