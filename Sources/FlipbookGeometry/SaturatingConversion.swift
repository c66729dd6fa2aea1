extension Int {
    /// The largest magnitude ``init(saturating:nan:)`` gives: 2^52, far beyond any pixel
    /// coordinate, and small enough that adding or subtracting a few such values cannot
    /// overflow.
    package static let saturationLimit = 1 << 52

    /// `value` truncated toward zero, clamped to ±2^52, with NaN giving `nan`: for numbers
    /// that come from scene data, where `Int(_:)` traps on infinities, NaN and anything
    /// beyond ±9.2e18. Finite values within the range convert exactly as `Int(_:)` does.
    package init(saturating value: Double, nan: Int = 0) {
        guard !value.isNaN else {
            self = nan
            return
        }
        let limit = Double(Int.saturationLimit)
        self = Int(Swift.min(Swift.max(value, -limit), limit))
    }
}
