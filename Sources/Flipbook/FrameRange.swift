/// An inclusive range of frame indices, as `--frames A-B` gives it.
public struct FrameRange: Sendable, Equatable {
    public var first: Int
    public var last: Int

    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// Parses "A-B", "A-" (to the end), "-B" (from 0) or "A" (one frame).
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(
            String.init)
        func number(_ s: String, default d: Int) -> Int? {
            s.isEmpty ? d : Int(s).flatMap { $0 >= 0 ? $0 : nil }
        }
        if parts.count == 1 {
            guard let n = number(parts[0], default: -1), n >= 0 else { return nil }
            self.init(first: n, last: n)
        } else {
            guard let a = number(parts[0], default: 0), let b = number(parts[1], default: Int.max),
                a <= b
            else { return nil }
            self.init(first: a, last: b)
        }
    }

    /// The indices of this range that exist in a scene of `frameCount` frames.
    public func clamped(toFrameCount frameCount: Int) -> ClosedRange<Int>? {
        let lo = max(first, 0), hi = min(last, frameCount - 1)
        return lo <= hi ? lo...hi : nil
    }
}
