/// A problem found while parsing a playlist: where it is (1-based line and column), which
/// tag and attribute it concerns, and what was expected.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

    public var severity: Severity
    public var line: Int
    public var column: Int
    public var tag: String?
    public var attribute: String?
    public var message: String

    public init(_ severity: Severity, line: Int, column: Int, tag: String? = nil, attribute: String? = nil, message: String) {
        self.severity = severity
        self.line = line
        self.column = column
        self.tag = tag
        self.attribute = attribute
        self.message = message
    }

    /// `line:column: message`, the message naming the tag and attribute.
    public var description: String { "\(line):\(column): \(severity.rawValue): \(fullMessage)" }

    /// The message prefixed with the tag and attribute it concerns.
    public var fullMessage: String {
        var prefix = ""
        if let tag { prefix = attribute.map { "\(tag) \($0): " } ?? "\(tag): " }
        return prefix + message
    }
}

/// Thrown by the throwing parse entry points when a playlist has errors; carries every
/// diagnostic (errors and warnings) in line order.
public struct PlaylistParseError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// What the parser produced: the playlist (nil when the input is not a usable playlist at
/// all) and every diagnostic in line order.
public struct ParseResult: Sendable {
    public var playlist: Playlist?
    public var diagnostics: [Diagnostic]
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The playlist when there are no errors; otherwise throws them.
    public func get() throws -> Playlist {
        guard let playlist, errors.isEmpty else { throw PlaylistParseError(diagnostics: diagnostics) }
        return playlist
    }
}
