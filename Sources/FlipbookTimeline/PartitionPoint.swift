extension RandomAccessCollection where Index == Int {
    /// The first index in `range` whose element satisfies `isPast`, or `range.upperBound`
    /// when none does, for a predicate that is false and then true along the range (times
    /// that do not decrease, compared with one instant): a binary search, log n where a scan
    /// from the start costs n per evaluation (a million keyframes, a million steps a frame).
    func partitionPoint(in range: Range<Int>, where isPast: (Element) -> Bool) -> Int {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if isPast(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
