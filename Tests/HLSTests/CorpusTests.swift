import Foundation
import Testing

@testable import HLS

@Suite("Corpus: every real-world playlist parses leniently and round-trips")
struct CorpusTests {
    static let names = Corpus.files(in: Corpus.valid)

    @Test("the corpus is there")
    func corpusIsPresent() {
        #expect(Self.names.count >= 60, "expected the shared corpus at \(Corpus.valid.path)")
    }

    @Test("lenient parse has no errors", arguments: names)
    func lenientParse(name: String) throws {
        let result = try Corpus.parse(name)
        #expect(result.errors.isEmpty, "\(name): \(result.errors.map(\.description))")
        #expect(result.playlist != nil)
    }

    @Test("parse(write(parse(x))) == parse(x)", arguments: names)
    func roundTrip(name: String) throws {
        let first = try #require(try Corpus.parse(name).playlist)
        let text = PlaylistWriter.write(first)
        let second = PlaylistParser.parse(text, options: Corpus.options(for: name))
        #expect(second.errors.isEmpty, "\(name) written back: \(second.errors.map(\.description))\n\(text)")
        #expect(second.playlist == first, "\(name) changed in a round trip:\n\(text)")
    }

    @Test("written playlists are strict-clean when the source was", arguments: names)
    func writerOutputIsConformant(name: String) throws {
        let strict = try Corpus.parse(name, mode: .strict)
        guard strict.errors.isEmpty, let playlist = strict.playlist else { return }
        let again = PlaylistParser.parse(PlaylistWriter.write(playlist), options: Corpus.options(for: name, mode: .strict))
        #expect(again.errors.isEmpty, "\(name): \(again.errors.map(\.description))")
    }
}
