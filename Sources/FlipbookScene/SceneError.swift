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
    public var message: String

    public init(file: String?, line: Int?, column: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    /// `file:line:column: keyPath: message`, leaving out the parts that are unknown,
    /// in the form editors and terminals turn into links.
    public var description: String {
        var location = [file ?? (line == nil ? nil : "<scene>")].compactMap { $0 }
        if let line { location.append(String(line)) }
        if let column, line != nil { location.append(String(column)) }
        var text = location.isEmpty ? "" : location.joined(separator: ":") + ": "
        if !keyPath.isEmpty { text += keyPath + ": " }
        return text + message
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
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
