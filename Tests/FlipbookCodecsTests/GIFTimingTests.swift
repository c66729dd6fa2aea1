import Testing
@testable import FlipbookCodecs

@Suite struct GIFTimingTests {
    /// At 30 fps frame i starts at 10·i/3 cs; starts rounded down, 0, 3, 6, 10, 13, 16, 20 …,
    /// give delays 3, 3, 4 repeating (three frames per 10 cs), as the issue asks.
    @Test func thirtyFPSRepeatsThreeThreeFour() {
        let delays = GIFTiming.delays(frameCount: 120, fps: 30)
        #expect(delays.count == 120)
        #expect(Array(delays.prefix(9)) == [3, 3, 4, 3, 3, 4, 3, 3, 4])
        for i in 0..<120 {
            // ⌊10i/3⌋ is integer division.
            #expect(delays[i] == (10 * (i + 1)) / 3 - (10 * i) / 3)
        }
        #expect(delays.reduce(0, +) == 400)
        #expect(Set(delays) == [3, 4])
    }

    @Test func exactTotalsForCommonRates() {
        for (fps, frames, total) in [
            (25.0, 100, 400), (24.0, 48, 200), (29.97, 300, 1001), (50.0, 10, 20), (12.0, 7, 58),
        ] {
            let delays = GIFTiming.delays(frameCount: frames, fps: fps)
            #expect(delays.reduce(0, +) == total, "fps \(fps)")
            #expect(delays.allSatisfy { $0 >= 2 }, "fps \(fps)")
        }
        #expect(GIFTiming.delays(frameCount: 4, fps: 25) == [4, 4, 4, 4])
    }

    /// 60 fps: starts ⌊5i/3⌋ = 0, 1, 3, 5, 6, 8, 10: frames 1 and 4 start less than 2 cs
    /// after the previous kept frame and are dropped.
    @Test func sixtyFPSDropsFramesButKeepsTheTotal() {
        let plan = GIFTiming.plan(frameCount: 120, fps: 60)
        #expect(Array(plan.prefix(5).map(\.frameIndex)) == [0, 2, 3, 5, 6])
        #expect(Array(plan.prefix(4).map(\.delay)) == [3, 2, 3, 2])
        #expect(plan.reduce(0) { $0 + $1.delay } == 200)
        #expect(plan.allSatisfy { $0.delay >= 2 })
        #expect(plan.count == 80)  // 4 kept frames per 10 cs (starts 0, 3, 5, 8)
        let delays = GIFTiming.delays(frameCount: 120, fps: 60)
        #expect(Array(delays.prefix(6)) == [3, 0, 2, 3, 0, 2])
        #expect(delays.reduce(0, +) == 200)
    }

    @Test func veryHighRatesAndTinyAnimations() {
        let plan = GIFTiming.plan(frameCount: 120, fps: 100)
        #expect(plan.count == 60)
        #expect(plan.allSatisfy { $0.delay == 2 })
        #expect(GIFTiming.plan(frameCount: 1, fps: 100) == [GIFFramePlan(frameIndex: 0, delay: 2)])
        #expect(GIFTiming.plan(frameCount: 0, fps: 30).isEmpty)
        let odd = GIFTiming.plan(frameCount: 1000, fps: 144)
        #expect(odd.reduce(0) { $0 + $1.delay } == 694)  // round(100 · 1000 / 144) = round(694.4)
        #expect(odd.allSatisfy { $0.delay >= 2 })
    }
}
