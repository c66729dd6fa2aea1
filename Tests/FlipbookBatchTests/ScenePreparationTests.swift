import Foundation
import Testing
import Flipbook
import FlipbookScene

/// ``ScenePreparation``: one path from a file to a renderer, its warnings returned as
/// values (the library prints nothing), the limits checked once with the size fitted to.
@Suite struct ScenePreparationTests {
    static let lottie = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("LottieCorpus/heart_fill.json").path

    @Test func warningsComeBackAsValues() throws {
        let prepared = try ScenePreparation.prepare(
            path: Self.lottie, options: PreparationOptions(scale: 0.5))
        #expect(prepared.warnings.count == 1)
        #expect(
            prepared.warnings.first?.hasPrefix(
                "warning: \(Self.lottie): rendered without unsupported features") == true)
        let size = prepared.renderer.pixelSize
        #expect(size.width == 256 && size.height == 256)
    }

    @Test func limitsAreCheckedWithTheFittedSize() throws {
        var options = PreparationOptions(
            limits: ResourceLimits(maxPixels: 1000 * 1000 - 1),
            size: (width: 2000, height: 1000))
        #expect(throws: ScenePreparationError.self) {
            try ScenePreparation.prepare(path: Self.lottie, options: options)
        }
        do {
            _ = try ScenePreparation.prepare(path: Self.lottie, options: options)
        } catch {
            // The 512×512 scene fitted into 2000×1000 (1000×1000 px) and the size itself: both
            // over 999999 pixels, one line each, after the path.
            #expect(error.messages.count == 2, "\(error.messages)")
            #expect(error.messages.allSatisfy { $0.hasPrefix(Self.lottie + ": ") })
            #expect(error.messages.last?.contains(": size 2000x1000: ") == true)
            #expect(error.warnings.count == 1)
            #expect(
                error.violations == [
                    LimitViolation(.outputPixels(width: 1000, height: 1000), limit: 999_999),
                    LimitViolation(.imagePixels(width: 2000, height: 1000), limit: 999_999),
                ])
        }
        options.limits.maxPixels = 1000 * 1000
        options.size = (width: 1000, height: 1000)
        let fitted = try ScenePreparation.prepare(path: Self.lottie, options: options).renderer
            .pixelSize
        #expect(fitted.width == 1000 && fitted.height == 1000)
    }
}
