/// Fill rules, with CAShapeLayer's names.
///
/// Rules: a fill rule decides coverage from the accumulated (fractional) winding number
/// w of a pixel: non-zero takes min(|w|, 1); even-odd folds |w| modulo 2 into 0…1
/// (a value above 1 becomes 2 − value).

/// How the winding number of a pixel becomes coverage.
public enum FillRule: Sendable, Hashable {
    case nonZero, evenOdd
}
