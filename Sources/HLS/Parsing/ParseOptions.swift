public import Foundation

/// How to parse: lenient (real-world quirks become warnings and are repaired) or strict
/// (the specification's MUST rules are errors), plus the context a playlist needs — its final
/// URL (for `QUERYPARAM` variables) and the variables its multivariant playlist defines (for
/// `IMPORT`) — and limits that keep hostile input from exhausting memory.
public struct ParseOptions: Sendable {
    public enum Mode: Sendable { case lenient, strict }

    public var mode: Mode
    public var url: URL?
    public var importedVariables: [String: String]
    /// Longest line accepted, in bytes; nil for no limit.
    public var maximumLineLength: Int?
    /// Most bytes that variable substitution may add to one line.
    public var maximumExpansion: Int

    public init(
        mode: Mode = .lenient, url: URL? = nil, importedVariables: [String: String] = [:],
        maximumLineLength: Int? = 4 << 20, maximumExpansion: Int = 1 << 20
    ) {
        self.mode = mode
        self.url = url
        self.importedVariables = importedVariables
        self.maximumLineLength = maximumLineLength
        self.maximumExpansion = maximumExpansion
    }

    public static let lenient = ParseOptions()
    public static let strict = ParseOptions(mode: .strict)
}
