import Foundation

@testable import HLS

/// The shared playlist corpus (`../shared/corpus` beside the checkout, or `MARQUEE_SHARED`).
enum Corpus {
    static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["MARQUEE_SHARED"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let valid = shared.appendingPathComponent("corpus/hls")
    static let malformed = shared.appendingPathComponent("corpus/hls-malformed")

    static func files(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".m3u8") }.sorted()
    }

    static func data(_ name: String, in dir: URL = valid) throws -> Data {
        try Data(contentsOf: dir.appendingPathComponent(name))
    }

    /// The context some corpus playlists need: the URL whose query their QUERYPARAM
    /// variables come from, and the variables their IMPORTs take from a parent.
    static func options(for name: String, mode: ParseOptions.Mode = .lenient) -> ParseOptions {
        var o = ParseOptions(mode: mode, url: URL(string: "https://example.com/path/\(name)")!)
        switch name {
        case "hlsjs-define-queryparam-multivariant.m3u8":
            o.url = URL(string: "https://example.com/path/\(name)?token=1234&foo=bar")
        case "hlsjs-define-import-queryparam-media.m3u8":
            o.url = URL(string: "https://example.com/path/\(name)?parent-token=abc")
            o.importedVariables = ["token": "1234"]
        case "hlsjs-define-import-llhls-media.m3u8":
            o.importedVariables = ["mvpVariable": "imported", "token": "1234", "foo": "bar"]
        default: break
        }
        return o
    }

    static func parse(_ name: String, mode: ParseOptions.Mode = .lenient) throws -> ParseResult {
        PlaylistParser.parse(try data(name), options: options(for: name, mode: mode))
    }
}
