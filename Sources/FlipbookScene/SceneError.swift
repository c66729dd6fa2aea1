/// One problem found in a scene file, placed as precisely as the file allows.
public struct Diagnostic: Sendable, CustomStringConvertible, Equatable {
    /// The scene file as given to the loader; nil for text parsed without a path.
    public var file: String?
    /// 1-based line of the offending key or value.
    public var line: Int?
    /// 1-based column (in Unicode scalars, as libyaml counts).
    public var column: Int?
    /// Where in the scene the problem is, e.g. `layers[2] (card).opacity`.
    public var keyPath: String
    /// What is wrong; for a broken limit, worded with ``LimitNaming/properties``.
    public var message: String
    /// The limit the file broke while it was read (its size, a count, its memory), as
    /// data, so that the caller words it with its own names for the settings.
    public var violation: LimitViolation?

    public init(file: String?, line: Int?, column: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    /// A broken limit at a place in the file.
    public init(file: String?, line: Int?, column: Int?, keyPath: String, violation: LimitViolation)
    {
        self.init(
            file: file, line: line, column: column, keyPath: keyPath,
            message: violation.message(naming: .properties))
        self.violation = violation
    }

    /// `file:line:column: keyPath: message`, leaving out the parts that are unknown,
    /// in the form editors and terminals turn into links.
    public var description: String { description(naming: .properties) }

    /// ``description``, a broken limit naming its setting with `naming`.
    public func description(naming: LimitNaming) -> String {
        var location = [file ?? (line == nil ? nil : "<scene>")].compactMap { $0 }
        if let line { location.append(String(line)) }
        if let column, line != nil { location.append(String(column)) }
        var text = location.isEmpty ? "" : location.joined(separator: ":") + ": "
        if !keyPath.isEmpty { text += keyPath + ": " }
        return text + (violation?.message(naming: naming) ?? message)
    }
}

/// Everything wrong with a scene file: the loader keeps going after a problem so that
/// one run reports all of them, in file order.
public struct SceneError: Error, CustomStringConvertible, Sendable {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String { description(naming: .properties) }

    /// One diagnostic per line, broken limits naming their settings with `naming`.
    public func description(naming: LimitNaming) -> String {
        diagnostics.map { $0.description(naming: naming) }.joined(separator: "\n")
    }
}
