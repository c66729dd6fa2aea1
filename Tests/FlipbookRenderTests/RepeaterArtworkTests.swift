import Testing
import FlipbookGeometry
import FlipbookScene
@testable import FlipbookTimeline
@testable import FlipbookRender

/// A repeater draws exactly what its copies written out as groups draw (the rule in
/// ``VectorRenderer``: copy k is the nodes above it in a group turned by
/// ``Repeaters/matrix(_:steps:)`` with its step's opacity), whether its copies share one
/// built scope (nothing reshapes them afterwards) or are built one by one (a trim, round
/// corners or another modifier after the repeater, here or in an enclosing group).
@Suite struct RepeaterArtworkTests {
    static let star: VectorNode = {
        var p = Path()
        p.move(to: Point(0, -10)); p.line(to: Point(6, 8)); p.line(to: Point(-9, -3));
        p.line(to: Point(9, -3))
        p.line(to: Point(-6, 8)); p.close()
        return .path(p)
    }()
    static let fill = VectorNode.fill(
        paint: .solid(Color(red: 1, green: 0.5, blue: 0.2)), rule: .nonZero)
    static let spark = VectorNode.group(
        VectorGroupFrame(nodes: [star, fill], transform: .scale(0.5, 1), opacity: 0.9))

    static func repeater(_ copies: Int, newerAbove: Bool = false) -> VectorRepeaterFrame {
        VectorRepeaterFrame(
            copies: copies, offset: 0.5, newerAbove: newerAbove, anchor: Point(2, 1),
            position: Point(0, -12), scale: Point(0.9, 0.9), rotation: 30,
            startOpacity: 1, endOpacity: 0.4)
    }

    /// The copies written out as groups, as the repeater rule defines them.
    static func written(_ above: [VectorNode], _ r: VectorRepeaterFrame) -> [VectorNode] {
        let copies = (0..<r.copies).map { k in
            VectorNode.group(
                VectorGroupFrame(
                    nodes: above, transform: Repeaters.matrix(r, steps: Double(k) + r.offset),
                    opacity: r.copies > 1
                        ? r.startOpacity + (r.endOpacity - r.startOpacity) * Double(k)
                            / Double(r.copies - 1)
                        : r.startOpacity))
        }
        return r.newerAbove ? copies.reversed() : copies
    }

    static func same(_ a: VectorRenderer.Artwork, _ b: VectorRenderer.Artwork) -> Bool {
        a.drawings == b.drawings && a.layers.count == b.layers.count
            && zip(a.layers, b.layers).allSatisfy { $0.equals($1) }
    }

    static let trim = VectorNode.trim(start: 0, end: 0.55, offset: 0.1, individually: true)

    /// Artwork with a repeater, and the nodes after it, by name.
    static let cases: [String: (nodes: [VectorNode], below: [VectorNode])] = [
        "alone": ([spark, .repeater(repeater(12))], []),
        "newer above": ([spark, .repeater(repeater(5, newerAbove: true))], []),
        "trim after, individually": ([spark, .repeater(repeater(6)), trim], [trim]),
        "trim after, simultaneously": (
            [
                spark, .repeater(repeater(6)),
                .trim(start: 0.2, end: 0.7, offset: 0, individually: false),
            ],
            [.trim(start: 0.2, end: 0.7, offset: 0, individually: false)]
        ),
        "round corners after": (
            [spark, .repeater(repeater(4)), .roundCorners(radius: 3)], [.roundCorners(radius: 3)]
        ),
        "fill after": ([star, .repeater(repeater(3)), fill], [fill]),
    ]

    @Test(arguments: [
        "alone", "newer above", "trim after, individually", "trim after, simultaneously",
        "round corners after", "fill after",
    ])
    func repeaterDrawsItsWrittenOutCopies(_ name: String) throws {
        let (nodes, below) = try #require(Self.cases[name])
        let r = try #require(
            nodes.lazy.compactMap { node -> VectorRepeaterFrame? in
                if case .repeater(let r) = node { r } else { nil }
            }.first)
        let above = Array(nodes.prefix { if case .repeater = $0 { false } else { true } })
        let expected = VectorRenderer.artwork(Self.written(above, r) + below, id: "s")
        #expect(Self.same(VectorRenderer.artwork(nodes, id: "s"), expected), "\(name)")
        // The same inside a group that a modifier after it reshapes (no sharing).
        let outer = [
            VectorNode.group(
                VectorGroupFrame(nodes: nodes, transform: .translation(5, 5), opacity: 1)),
            Self.trim,
        ]
        let outerExpected = [
            VectorNode.group(
                VectorGroupFrame(
                    nodes: Self.written(above, r) + below,
                    transform: .translation(5, 5), opacity: 1)), Self.trim,
        ]
        #expect(
            Self.same(
                VectorRenderer.artwork(outer, id: "s"),
                VectorRenderer.artwork(outerExpected, id: "s")),
            "\(name), trimmed outside")
    }

    /// A repeater of a repeater: the inner one's copies are built once per outer copy set.
    @Test func nestedRepeatersDrawTheirCopies() {
        let inner = [Self.spark, VectorNode.repeater(Self.repeater(3))]
        let nodes = [
            VectorNode.group(VectorGroupFrame(nodes: inner, transform: .identity, opacity: 1)),
            .repeater(Self.repeater(4)),
        ]
        let innerWritten = [
            VectorNode.group(
                VectorGroupFrame(
                    nodes: Self.written([Self.spark], Self.repeater(3)),
                    transform: .identity, opacity: 1))
        ]
        let expected = VectorRenderer.artwork(Self.written(innerWritten, Self.repeater(4)), id: "s")
        let got = VectorRenderer.artwork(nodes, id: "s")
        #expect(Self.same(got, expected))
        #expect(got.drawings.count == 12 || got.layers.count == 4)
    }
}
