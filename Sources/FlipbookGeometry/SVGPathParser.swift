#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A problem in SVG path data: what, and the UTF-8 offset where it was found (in UTF-8
/// code units from the start of the path data).
public enum SVGPathError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The data does not start with a moveto.
    case missingMoveTo(offset: Int)
    /// A character that is neither a command nor where a number may follow one.
    case unexpected(Character, offset: Int)
    /// A number was expected (a command's argument).
    case expectedNumber(offset: Int)
    /// A number that does not fit a Double.
    case numberOutOfRange(offset: Int)
    /// An arc's flag that is not 0 or 1.
    case expectedArcFlag(offset: Int)

    /// Where the problem was found.
    public var offset: Int {
        switch self {
        case .missingMoveTo(let offset), .unexpected(_, let offset), .expectedNumber(let offset),
            .numberOutOfRange(let offset), .expectedArcFlag(let offset):
            offset
        }
    }

    /// What is wrong, without the offset.
    public var message: String {
        switch self {
        case .missingMoveTo: "path data must start with M or m"
        case .unexpected(let character, _): "unexpected `\(character)`"
        case .expectedNumber: "expected a number"
        case .numberOutOfRange: "number out of range"
        case .expectedArcFlag: "expected an arc flag (0 or 1)"
        }
    }

    public var description: String { "\(message) at offset \(offset)" }
}

/// Reads SVG path data (the `d` attribute) into a ``Path``.
///
/// The whole grammar of SVG 1.1 §8.3: M L H V C S Q T A Z in absolute and relative
/// forms, repeated implicitly, numbers in every spelling the grammar allows (`1e-3`,
/// `.5.5`, `-1-2`) and arc flags without separators (`a1 1 0 00 1 1`). Arcs become cubic
/// Béziers through the endpoint-to-center conversion of the spec's implementation
/// notes (F.6), radii scaled up when too small to reach the end point.
public enum SVGPathParser {
    /// The path `d` describes; an empty or all-whitespace `d` is an empty path.
    /// Throws at the first problem, with its offset.
    public static func parse(_ d: String) throws(SVGPathError) -> Path {
        var parser = Scanner(bytes: Array(d.utf8))
        return try parser.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var path = Path()
        var current = Point.zero
        var subpathStart = Point.zero
        /// The second control point of the previous C/S, or the control of the previous
        /// Q/T, which S and T reflect.
        var lastCubicControl: Point?
        var lastQuadControl: Point?
        /// A drawing command after Z starts a new subpath at the old start.
        var needsMove = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() throws(SVGPathError) -> Path {
            skipSpace()
            guard i < bytes.count else { return path }
            var command: UInt8 = 0
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                let c = bytes[i]
                if Self.isCommand(c) {
                    command = c
                    i += 1
                } else if command == 0 || !startsNumber(c) || command == UInt8(ascii: "Z")
                    || command == UInt8(ascii: "z")
                {
                    if command == 0 {
                        throw SVGPathError.missingMoveTo(offset: i)
                    }
                    throw SVGPathError.unexpected(Character(Unicode.Scalar(c)), offset: i)
                }
                if command != 0, path.isEmpty, command != UInt8(ascii: "M"),
                    command != UInt8(ascii: "m")
                {
                    throw SVGPathError.missingMoveTo(offset: i - 1)
                }
                try perform(command)
                // A moveto's extra pairs are linetos.
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            }
            return path
        }

        static func isCommand(_ c: UInt8) -> Bool {
            "MmLlHhVvCcSsQqTtAaZz".utf8.contains(c)
        }

        func startsNumber(_ c: UInt8) -> Bool {
            (c >= 48 && c <= 57) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: ".")
        }

        mutating func perform(_ command: UInt8) throws(SVGPathError) {
            let relative = command >= UInt8(ascii: "a")
            let base = relative ? current : .zero
            let upper = relative ? command - 32 : command
            switch upper {
            case UInt8(ascii: "Z"):
                path.close()
                current = subpathStart
                needsMove = true
                lastCubicControl = nil
                lastQuadControl = nil
                return
            case UInt8(ascii: "M"):
                let p = try point() + base
                path.move(to: p)
                current = p
                subpathStart = p
                needsMove = false
                lastCubicControl = nil
                lastQuadControl = nil
                return
            default:
                break
            }
            if needsMove {
                path.move(to: current)
                needsMove = false
            }
            var cubicControl: Point?
            var quadControl: Point?
            switch upper {
            case UInt8(ascii: "L"):
                current = try point() + base
                path.line(to: current)
            case UInt8(ascii: "H"):
                current = Point(try number() + (relative ? current.x : 0), current.y)
                path.line(to: current)
            case UInt8(ascii: "V"):
                current = Point(current.x, try number() + (relative ? current.y : 0))
                path.line(to: current)
            case UInt8(ascii: "C"), UInt8(ascii: "S"):
                let c1 = try control(
                    explicit: upper == UInt8(ascii: "C"), reflecting: lastCubicControl, base: base)
                let c2 = try point() + base
                let end = try point() + base
                path.cubic(to: end, control1: c1, control2: c2)
                cubicControl = c2
                current = end
            case UInt8(ascii: "Q"), UInt8(ascii: "T"):
                let c = try control(
                    explicit: upper == UInt8(ascii: "Q"), reflecting: lastQuadControl, base: base)
                let end = try point() + base
                path.quad(to: end, control: c)
                quadControl = c
                current = end
            default:  // A
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                let end = try point() + base
                appendArc(
                    to: end, rx: rx, ry: ry, rotation: rotation, largeArc: large, sweep: sweep)
                current = end
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
        }

        /// C and Q read their first control point; S and T reflect the previous
        /// segment's last control about the current point (or use the current point
        /// when the previous segment was of another kind).
        mutating func control(explicit: Bool, reflecting last: Point?, base: Point)
            throws(SVGPathError) -> Point
        {
            if explicit { return try point() + base }
            return last.map { current * 2 - $0 } ?? current
        }

        // MARK: Tokens

        mutating func skipSpace() {
            while i < bytes.count, [9, 10, 12, 13, 32].contains(bytes[i]) { i += 1 }
        }

        /// Whitespace, then at most one comma and more whitespace.
        mutating func skipSeparator() {
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
            }
        }

        mutating func point() throws(SVGPathError) -> Point {
            let x = try number()
            return Point(x, try number())
        }

        mutating func number() throws(SVGPathError) -> Double {
            skipSeparator()
            let start = i
            func digits() -> Int {
                let from = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                return i - from
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                i += 1
            }
            var count = digits()
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                count += digits()
            }
            guard count > 0 else {
                i = start
                throw SVGPathError.expectedNumber(offset: start)
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                let mark = i
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                    i += 1
                }
                if digits() == 0 { i = mark }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                throw SVGPathError.numberOutOfRange(offset: start)
            }
            return value
        }

        /// An arc flag: one digit, 0 or 1, which needs no separator after it.
        mutating func flag() throws(SVGPathError) -> Bool {
            skipSeparator()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1")
            else {
                throw SVGPathError.expectedArcFlag(offset: i)
            }
            i += 1
            return bytes[i - 1] == UInt8(ascii: "1")
        }

        // MARK: Arcs

        /// SVG 1.1 F.6.5–F.6.6: from endpoint to center parameterization, then cubic
        /// segments of at most 90° each.
        mutating func appendArc(
            to end: Point, rx rxIn: Double, ry ryIn: Double, rotation: Double,
            largeArc: Bool, sweep: Bool
        ) {
            let start = current
            if start == end { return }  // F.6.2: an arc to the current point is omitted.
            var rx = abs(rxIn), ry = abs(ryIn)
            if rx == 0 || ry == 0 {
                path.line(to: end)
                return
            }
            let phi = rotation * .pi / 180
            let (cosPhi, sinPhi) = (cos(phi), sin(phi))
            let dx2 = (start.x - end.x) / 2, dy2 = (start.y - end.y) / 2
            let x1 = cosPhi * dx2 + sinPhi * dy2
            let y1 = -sinPhi * dx2 + cosPhi * dy2
            let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
            if lambda > 1 {
                rx *= lambda.squareRoot()
                ry *= lambda.squareRoot()
            }
            let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
            let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
            let coefficient =
                (max(0, numerator / denominator)).squareRoot() * (largeArc == sweep ? -1 : 1)
            let cx1 = coefficient * rx * y1 / ry
            let cy1 = -coefficient * ry * x1 / rx
            let center = Point(
                cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2,
                sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2)
            func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
                atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            }
            let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
            var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
            if !sweep, delta > 0 { delta -= 2 * .pi }
            if sweep, delta < 0 { delta += 2 * .pi }

            func map(_ ux: Double, _ uy: Double) -> Point {
                Point(
                    center.x + rx * cosPhi * ux - ry * sinPhi * uy,
                    center.y + rx * sinPhi * ux + ry * cosPhi * uy)
            }
            // Coordinates near the Double limit overflow the center to NaN: a line then.
            guard delta.isFinite, theta1.isFinite else {
                path.line(to: end)
                return
            }
            let segments = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
            let step = delta / Double(segments)
            let k = 4.0 / 3.0 * tan(step / 4)
            for s in 0..<segments {
                let a1 = theta1 + Double(s) * step
                let a2 = a1 + step
                let c1 = map(cos(a1) - k * sin(a1), sin(a1) + k * cos(a1))
                let c2 = map(cos(a2) + k * sin(a2), sin(a2) - k * cos(a2))
                // The last segment ends exactly on the given end point.
                let p = s == segments - 1 ? end : map(cos(a2), sin(a2))
                path.cubic(to: p, control1: c1, control2: c2)
            }
        }
    }
}
