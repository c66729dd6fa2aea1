import Dispatch
import FlipbookGeometry
import Testing
@testable import FlipbookText

/// Line breaking is a pure function of the text: ICU's break iterator aliases the UTF-16
/// buffer it is given, so a walk after that buffer is freed read reused memory and gave
/// random break opportunities (scenes/fragment-banner.yaml broke "Wireless" mid-word in
/// about one render in twenty). These tests churn the heap between calls so that a
/// dangling read would see other bytes.
///
/// Expected lines for "Wireless Headphones 无线耳机", DejaVu Sans Bold 20 pt, width 185:
/// hmtx advances (units · 20 / 2048, fontTools) give Wireless 96.57, space 6.96,
/// Headphones 140.11; WenQuanYi Micro Hei's CJK ideographs are 1 em = 20 pt.
/// UAX #14 allows breaks only before "H" and before each ideograph (ID class).
/// Line 1: "Wireless Headphones" = 243.6 > 185, so break before "H".
/// Line 2: "Headphones 无" = 167.1 ≤ 185 but "Headphones 无线" = 187.1 > 185 (margin 2 pt,
/// above any kerning, since no kerning pair spans a font change), so break before "线".
/// Line 3: "线耳机" = 60.
struct LineBreakDeterminismTests {
    static let banner = "Wireless Headphones 无线耳机"
    static let expectedLines = ["Wireless", "Headphones 无", "线耳机"]
    /// Clusters a line may start with: "H" (9) and the four ideographs (20…23).
    static let expectedOpportunities: Set<Int> = [9, 20, 21, 22, 23]

    /// Allocates and scribbles over buffers of the size a freed UTF-16 copy would have had.
    static func churnHeap(_ round: Int) {
        for k in 0..<8 {
            var junk = [UInt16](repeating: UInt16(0x4E00 + (round * 8 + k) % 0x5000), count: 24 + k)
            junk[0] = 0x20
            withExtendedLifetime(junk) {}
        }
    }

    @Test func opportunitiesAreTheSameOnEveryCall() {
        let text = Substring(Self.banner)
        var starts: [Int] = []
        var utf16 = 0
        for c in text { starts.append(utf16); utf16 += c.utf16.count }
        for round in 0..<500 {
            let breaks = LineBreaks.opportunities(text, clusterStarts: starts)
            Self.churnHeap(round)
            let found = Set(breaks.indices.filter { breaks[$0] })
            #expect(found == Self.expectedOpportunities, "round \(round)")
            if found != Self.expectedOpportunities { return }
        }
    }

    static func request() -> TextRequest {
        TextRequest(
            string: banner, font: .family("DejaVu Sans:bold"), fontSize: 20, boxSize: Size(185, 56),
            alignment: .left, wrapped: true, truncation: .none)
    }

    @Test func bannerWrapsAtTheSamePlaceFromAColdCache() throws {
        for round in 0..<50 {
            let layout = try TextEngine().layout(Self.request())
            Self.churnHeap(round)
            #expect(layout.lines.map(\.text) == Self.expectedLines, "round \(round)")
        }
    }

    @Test func bannerWrapsAtTheSamePlaceOnEveryThread() throws {
        let results = Locked([[String]]())
        DispatchQueue.concurrentPerform(iterations: 32) { round in
            Self.churnHeap(round)
            let lines = (try? TextEngine().layout(Self.request()))?.lines.map(\.text) ?? []
            results.withLock { $0.append(lines) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 32)
        #expect(all.allSatisfy { $0 == Self.expectedLines })
    }
}
