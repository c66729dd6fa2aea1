import FlipbookGeometry
import Testing
@testable import FlipbookText

/// Random strings mixing scripts, marks, controls and unassigned scalars, at random
/// sizes, boxes and modes: layout never traps and its lines respect basic invariants.
struct FuzzTests {
    @Test func randomRequestsNeverTrap() throws {
        var rng = SplitMix(seed: 0x5EED)
        let alphabet: [Unicode.Scalar] =
            Array("ab AV ffi\n\t-你好。「שלוםمرحبا123…".unicodeScalars)
            + [
                Unicode.Scalar(0x301)!, Unicode.Scalar(0x200D)!, Unicode.Scalar(0xFE0F)!,
                Unicode.Scalar(0x10FFFD)!,
                Unicode.Scalar(0x1F600)!, Unicode.Scalar(0x7)!, Unicode.Scalar(0xA0)!,
            ]
        let alignments: [TextRequest.Alignment] = [.left, .center, .right, .justified]
        let truncations: [TextRequest.Truncation] = [.none, .start, .middle, .end]
        let engine = TextEngine(cacheCapacity: 16)
        for _ in 0..<150 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<rng.next(40) { scalars.append(alphabet[rng.next(alphabet.count)]) }
            let box = Size(Double(rng.next(300)) - 20, Double(rng.next(120)))
            let request = TextRequest(
                string: String(scalars), font: TextTest.dejaVu, fontSize: Double(1 + rng.next(40)),
                boxSize: box, alignment: alignments[rng.next(4)], wrapped: rng.next(2) == 0,
                truncation: truncations[rng.next(4)])
            let layout = try engine.layout(request)
            for (a, b) in zip(layout.lines, layout.lines.dropFirst()) {
                #expect(b.baseline > a.baseline)
            }
            #expect(layout.lines.allSatisfy { $0.width.isFinite && $0.x.isFinite })
        }
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
