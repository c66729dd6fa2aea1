import Foundation
import FlipbookGeometry
import Testing
@testable import FlipbookText

/// Errors, bad input, caching and concurrency of ``TextEngine``.
struct EngineTests {
    @Test func unreadableFontFileThrows() {
        #expect(throws: TextError.self) {
            try TextTest.layout("a", font: .file("/nonexistent/font.ttf"))
        }
        #expect(throws: TextError.self) { try TextTest.layout("a", font: .file("/etc/hostname")) }
    }

    @Test func unparsableFamilyThrows() {
        #expect(throws: TextError.invalidFontPattern("  ")) {
            try TextTest.layout("a", font: .family("  "))
        }
    }

    @Test func fontFileAndFamilyAgree() throws {
        let a = try TextTest.layout("Hello", font: TextTest.dejaVuFile)
        let b = try TextTest.layout("Hello", font: TextTest.dejaVu)
        #expect(a.path == b.path)
    }

    /// Like CATextLayer with an unknown name, an unknown family gets fontconfig's
    /// substitute instead of an error.
    @Test func unknownFamilyGetsFontconfigsSubstitute() throws {
        let layout = try TextTest.layout("Hello", font: .family("No Such Family 1234"))
        #expect(layout.glyphs.count == 5 && layout.missingCharacters == 0)
    }

    /// A font opened by file still falls back through fontconfig for what it lacks.
    @Test func fileFontFallsBackForCJK() throws {
        let layout = try TextTest.layout("Hello 你好", font: TextTest.dejaVuFile)
        #expect(layout.missingCharacters == 0)
        #expect(layout.glyphs.last?.fontFamily.contains("WenQuanYi") == true)
    }

    @Test func boldStyleResolves() throws {
        let layout = try TextTest.layout("Hello", font: .family("DejaVu Sans:bold"))
        #expect(layout.glyphs.first?.fontFile.hasSuffix("DejaVuSans-Bold.ttf") == true)
    }

    @Test func badInputGivesEmptyLayouts() throws {
        #expect(try TextTest.layout("").lines.isEmpty)
        #expect(try TextTest.layout("a", size: .nan).path.isEmpty)
        #expect(try TextTest.layout("a", size: -3).path.isEmpty)
        #expect(try TextTest.layout("a", size: 1e12).path.isEmpty)
        #expect(try TextTest.layout("a", size: .infinity).path.isEmpty)
        _ = try TextTest.layout(
            "a b c", size: 20, box: Size(.nan, .nan), wrapped: true, truncation: .end)
        _ = try TextTest.layout(
            "a b c", size: 20, box: Size(-5, .infinity), alignment: .justified, wrapped: true)
        _ = try TextTest.layout(
            "\n\n\t\u{200D}\u{FE0F}", size: 20, box: Size(0, 0), wrapped: true, truncation: .middle)
        _ = try TextTest.layout(
            "a b c", size: 1e-300, box: Size(1, 1e300), wrapped: true, truncation: .end)
        _ = try TextTest.layout(
            "a b c", size: 1e5, box: Size(1e300, 1e-300), alignment: .center, wrapped: true,
            truncation: .end)
        let controls = try TextTest.layout("a\u{7}b", size: 20)
        #expect(controls.missingCharacters == 0)
    }

    @Test func concurrentLayoutsMatchSerialOnes() {
        let strings = (0..<24).map { "Label \($0) — 你好 שלום office" }
        let requests = strings.map {
            TextRequest(
                string: $0, font: TextTest.dejaVu, fontSize: 13, boxSize: Size(90, 60),
                wrapped: true,
                truncation: .end)
        }
        let serial = requests.map { try? TextEngine(cacheCapacity: 4).layout($0).path }
        let engine = TextEngine(cacheCapacity: 8)
        let results = Locked([Int: Path?]())
        DispatchQueue.concurrentPerform(iterations: 96) { i in
            let path = try? engine.layout(requests[i % requests.count]).path
            results.withLock { $0[i] = path }
        }
        for (i, path) in results.withLock({ $0 }) { #expect(path == serial[i % requests.count]) }
    }

    /// Timing of a typical 20-character label (debug build; printed for the report).
    @Test func cachedLayoutIsFast() throws {
        let engine = TextEngine()
        let request = TextRequest(
            string: "Settings · Profile 12", font: .family("DejaVu Sans:bold"), fontSize: 17,
            boxSize: Size(200, 30), alignment: .center)
        let clock = ContinuousClock()
        let first = try clock.measure { _ = try engine.layout(request) }
        let second = try clock.measure { for _ in 0..<1000 { _ = try engine.layout(request) } }
        var other = request
        other.string = "Settings · Account 34"
        let warm = try clock.measure { _ = try engine.layout(other) }
        print(
            "20-character label layout: cold engine \(first), new label on warm fonts \(warm), cached \(second / 1000)"
        )
        #expect(second / 1000 < first)
    }
}
