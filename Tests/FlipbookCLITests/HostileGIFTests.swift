import Foundation
import Testing

/// `flipbook diff` on GIFs that ask for more memory than `--max-memory` allows: refused
/// before decoding, exit 2, the flag named, and peak memory within the limit (issue 22:
/// scripts/fuzz's gif target ran out of memory when the decoder's budget was a fixed
/// 1.3 GB whatever the limit).
@Suite struct HostileGIFTests {
    /// What a `flipbook` process takes before it reads anything (as in HostileLottieTests).
    static let processBaseline = 96 << 20

    /// A GIF89a with a `width`×`height` logical screen and `frames` images of 1×1 px, each a
    /// black pixel (global table of two colours; LZW minimum code size 2: clear 4, index 0,
    /// end 5 as 3-bit codes, packed LSB first into 0x44 0x01).
    static func gif(width: Int, height: Int, frames: Int) -> [UInt8] {
        var bytes =
            Array("GIF89a".utf8) + [
                UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF),
                UInt8(height >> 8), 0x80, 0, 0,
            ]
        bytes += [0, 0, 0, 255, 255, 255]
        for _ in 0..<frames { bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0] }
        return bytes + [0x3B]
    }

    /// 2000 frames of a 1000×1000 canvas (30 KB) would be 8 GB of decoded frames.
    @Test func aGIFOfManyLargeFramesIsRefusedBeforeDecoding() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.gif(width: 1000, height: 1000, frames: 2000)).write(
            to: URL(fileURLWithPath: folder + "/a.gif"))
        let outcome = try ChildUsage.run(["diff", "a.gif", "a.gif"], in: folder)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "a.gif: GIF has 2000 frames of 1000×1000 px; decoding them would take more "
                    + "than 1 GiB, the memory limit (both inputs share --max-memory; raise it)"),
            "\(outcome.stderr)")
        #expect(outcome.peakBytes < Self.processBaseline, "peak \(outcome.peakMiB) MiB")
    }

    /// 10 frames of 1000×1000 take 48 MB decoded (4 MB × 12): over half of 64 MiB, within
    /// half of 256 MiB, where the diff runs and finds the file equal to itself.
    @Test func theLimitIsTheFlag() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.gif(width: 1000, height: 1000, frames: 10)).write(
            to: URL(fileURLWithPath: folder + "/a.gif"))
        let refused = try ChildUsage.run(
            ["diff", "a.gif", "a.gif", "--max-memory", "64M"], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("more than 32 MiB, the memory limit"), "\(refused.stderr)")
        let accepted = try ChildUsage.run(
            ["diff", "a.gif", "a.gif", "--max-memory", "256M"], in: folder)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(
            accepted.peakBytes < (256 << 20) + Self.processBaseline, "peak \(accepted.peakMiB) MiB")
    }
}
