import Foundation
import Testing
import FlipbookGeometry
@testable import FlipbookRaster

/// The coverage cache replays a fill's spans exactly: the fourth identical fill on a
/// thread (replayed: the third recorded it) paints the bytes the first (swept) painted,
/// with solid, gradient and mask painters, a clip mask, a row window and even-odd curves.
/// Each case uses coordinates no other test draws, so its first fill is a cold sweep.
struct CoverageCacheTests {
    /// A curvy even-odd star, offset by `seed` so that each case has its own key.
    static func star(_ seed: Double) -> Path {
        var p = Path()
        p.move(to: Point(x: 20 + seed, y: 2.3))
        for k in 1...5 {
            let a = Double(k) * 4 * Double.pi / 5
            p.cubic(
                to: Point(x: 20 + seed + 17.7 * sin(a), y: 20 - 17.7 * cos(a)),
                control1: Point(x: 30 + seed, y: 15.1), control2: Point(x: 9.4 + seed, y: 27.6))
        }
        p.close()
        return p
    }

    static let clip = Mask.path(
        .ellipse(in: Rect(3.5, 6.25, 30, 24)), transform: .identity, rule: .nonZero,
        width: 48, height: 40)

    /// Fills `path` four times onto fresh pixmaps; returns the four results and whether the
    /// thread's cache held the fill afterwards (so the fourth was a replay).
    static func fourFills(
        _ path: Path, rule: FillRule, paint: Paint, clip: Mask?, rows: Range<Int>?
    )
        -> (results: [Pixmap], cached: Bool)
    {
        var results: [Pixmap] = []
        for _ in 0..<4 {
            var p = Pixmap(width: 48, height: 40)
            p.fill(Color(red: 0.2, green: 0.3, blue: 0.4, alpha: 0.5))
            p.writableRows = rows
            p.fill(path, transform: .identity, rule: rule, paint: paint, opacity: 0.9, clip: clip)
            results.append(p)
        }
        let area = Rasterizer.deviceBounds(
            of: path, transform: .identity,
            within: clip?.bounds ?? PixelBounds(x0: 0, y0: 0, x1: 48, y1: 40))!
        let key = CoverageCache.Key(path: path, transform: .identity, rule: rule, area: area)
        return (results, CoverageCache.current.entry(for: key) != nil)
    }

    @Test(arguments: [
        (1.0, false, false), (2.0, true, false), (3.0, false, true), (4.0, true, true),
    ])
    func replayPaintsTheSweptBytes(seed: Double, clipped: Bool, window: Bool) {
        let gradient = Gradient(
            kind: .axial, colors: [.black, Color(red: 1, green: 0.5, blue: 0)], locations: nil,
            transform: AffineTransform(a: 1.0 / 40, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        for (rule, paint) in [
            (FillRule.evenOdd, Paint.solid(Color(red: 0.9, green: 0.1, blue: 0.3))),
            (FillRule.nonZero, Paint.gradient(gradient)),
        ] {
            let (results, cached) = Self.fourFills(
                Self.star(seed), rule: rule, paint: paint,
                clip: clipped ? Self.clip : nil, rows: window ? 7..<23 : nil)
            #expect(cached, "the third fill should have been recorded")
            for r in results.dropFirst() { #expect(r.data == results[0].data) }
        }
    }

    /// Masks drawn from the cache equal masks swept.
    @Test func maskFromReplayEqualsSweep() {
        let path = Self.star(5.5)
        let masks = (0..<4).map { _ in
            Mask.path(path, transform: .identity, rule: .evenOdd, width: 48, height: 40)
        }
        for m in masks.dropFirst() {
            #expect(m.data == masks[0].data)
            #expect(m.bounds == masks[0].bounds)
        }
    }

    /// A key differing in any part (transform, rule, one coordinate) is a different fill.
    @Test func keysCompareEveryPart() {
        let path = Self.star(6.5)
        let area = PixelBounds(x0: 0, y0: 0, x1: 48, y1: 40)
        let key = CoverageCache.Key(path: path, transform: .identity, rule: .nonZero, area: area)
        var moved = path
        moved.elements[0] = .move(Point(x: 26.5, y: 2.3000000000000003))
        #expect(
            key == CoverageCache.Key(path: path, transform: .identity, rule: .nonZero, area: area))
        #expect(
            key != CoverageCache.Key(path: moved, transform: .identity, rule: .nonZero, area: area))
        #expect(
            key
                != CoverageCache.Key(
                    path: path, transform: .translation(0, 1e-9), rule: .nonZero, area: area))
        #expect(
            key != CoverageCache.Key(path: path, transform: .identity, rule: .evenOdd, area: area))
        #expect(
            key
                != CoverageCache.Key(
                    path: path, transform: .identity, rule: .nonZero,
                    area: PixelBounds(x0: 1, y0: 0, x1: 48, y1: 40)))
    }
}

/// Stroke outlines remembered per thread: a repeated stroke gets the stored outline (the
/// same storage), equal to one built on a fresh thread; any change of style misses.
struct OutlineCacheTests {
    static func builtOnFreshThread(_ path: Path, _ style: StrokeStyle) -> Path {
        final class Box: @unchecked Sendable { var path = Path() }
        let box = Box()
        onFreshThread { box.path = Stroker.outline(of: path, style: style) }
        return box.path
    }

    /// Runs `body` on a new thread (so with empty caches) and waits for it.
    static func onFreshThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body(); done.signal()
        }
        thread.start()
        done.wait()
    }

    static func sameStorage(_ a: Path, _ b: Path) -> Bool {
        a.elements.withUnsafeBufferPointer { a in
            b.elements.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
    }

    @Test func repeatedStrokeIsRemembered() {
        let path = CoverageCacheTests.star(7.25)
        let style = StrokeStyle(
            width: 3.5, cap: .round, join: .miter, miterLimit: 4, dashes: [6, 2.5], dashPhase: 1)
        let first = Stroker.outline(of: path, style: style)
        let second = Stroker.outline(of: path, style: style)
        #expect(Self.sameStorage(first, second), "the second outline should come from the cache")
        #expect(second == Self.builtOnFreshThread(path, style))
        var other = style
        other.dashPhase = 1.5
        #expect(Stroker.outline(of: path, style: other) != first)
        other = style
        other.join = .round
        #expect(Stroker.outline(of: path, style: other) == Self.builtOnFreshThread(path, other))
        #expect(Stroker.outline(of: path, style: other) != first)
    }

    /// Admission: an outline built for a new key is dropped when the next one is built,
    /// unless asked for in between; built again for that key, it is kept.
    @Test func anOutlineMetOnceIsNotKept() {
        final class Box: @unchecked Sendable { var checks: [(String, Bool)] = [] }
        let box = Box()
        Self.onFreshThread {
            let style = StrokeStyle(
                width: 2, cap: .butt, join: .round, miterLimit: 10, dashes: [], dashPhase: 0)
            let (a, b, c) = (
                CoverageCacheTests.star(7.25), CoverageCacheTests.star(3.5),
                CoverageCacheTests.star(5)
            )
            func check(_ what: String, _ ok: Bool) { box.checks.append((what, ok)) }
            let a1 = Stroker.outline(of: a, style: style)
            check(
                "a asked again at once", Self.sameStorage(a1, Stroker.outline(of: a, style: style)))
            let b1 = Stroker.outline(of: b, style: style)
            _ = Stroker.outline(of: c, style: style)  // drops b's, not a's (asked again)
            check("a kept", Self.sameStorage(a1, Stroker.outline(of: a, style: style)))
            let b2 = Stroker.outline(of: b, style: style)
            check("b's first outline dropped", !Self.sameStorage(b1, b2))
            check("b rebuilt equal", b1 == b2)
            _ = Stroker.outline(of: c, style: style)
            _ = Stroker.outline(of: CoverageCacheTests.star(9), style: style)
            check(
                "b's second outline kept",
                Self.sameStorage(b2, Stroker.outline(of: b, style: style)))
        }
        #expect(box.checks.count == 5)
        for (what, ok) in box.checks { #expect(ok, "\(what)") }
    }
}
