import Foundation
import JSONDocument
import Testing

@testable import HLS

@Suite("Bundle contract")
struct BundleContractTests {
    @Test("metadata.json written by downloads before versioning still reads, as the current version")
    func legacyMetadataMigrates() throws {
        let legacy = """
            {
              "title": "Flight",
              "sourceURL": "https://cdn.example.com/show/master.m3u8",
              "playlist": "index.m3u8",
              "artwork": "artwork.jpg",
              "configuration": {"primary": {"predicate": "peakBitRate < 5000000"}},
              "items": [{"role": "video", "folder": "video-1920x1080-4500000", "sourceURL": "https://cdn.example.com/show/v1080/index.m3u8",
                         "bytes": 1200, "bandwidth": 4500000, "resolution": "1920x1080", "codecs": ["avc1.640028"],
                         "language": null, "name": null, "groupID": null}],
              "interstitials": [],
              "totalBytes": 1200,
              "warnings": ["a warning"],
              "startedAt": "2026-11-01T10:00:00Z",
              "completedAt": "2026-11-01T10:01:00Z"
            }
            """
        let metadata = try BundleMetadata.decode(from: Data(legacy.utf8))
        #expect(metadata.version == BundleMetadata.currentVersion)
        #expect(metadata.title == "Flight" && metadata.artwork == "artwork.jpg" && metadata.playlist == "index.m3u8")
        #expect(metadata.items.first?.resolution == "1920x1080" && metadata.items.first?.bytes == 1200)
        #expect(metadata.configuration == .object([("primary", .object([("predicate", .string("peakBitRate < 5000000"))]))]))
        // Written again, it round-trips and says its version.
        let again = try BundleMetadata.decode(from: try metadata.encoded())
        #expect(again == metadata)
        #expect(String(decoding: try metadata.encoded(), as: UTF8.self).contains("\"version\" : 2"))
    }

    @Test("A metadata file without a version or playlist is version 1 with the legacy playlist; unsafe artwork is dropped")
    func minimalAndHostileMetadata() throws {
        let minimal = try BundleMetadata.decode(from: Data(#"{"title": ""}"#.utf8))
        #expect(minimal.title == nil && minimal.playlist == "index.m3u8" && minimal.items.isEmpty)
        let hostile = try BundleMetadata.decode(from: Data(#"{"version": 2, "artwork": "../../etc/passwd", "playlist": "../x.m3u8"}"#.utf8))
        #expect(hostile.artwork == nil && hostile.playlist == BundleLayout.multivariantPlaylist)
        #expect(throws: (any Error).self) { try BundleMetadata.decode(from: Data("not json".utf8)) }
    }

    @Test("No bundle file name is spelled outside BundleLayout")
    func namesLiveInOnePlace() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let names = ["master.m3u8", "index.m3u8", "stream.m3u8", "metadata.json", "trickplay.json", "trickplay.jpg", "poster.jpg"]
        var offenders: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" && file.lastPathComponent != "BundleLayout.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for name in names where code.contains("\"\(name)\"") || code.contains("/\(name)\"") {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(name)")
                }
            }
        }
        #expect(offenders.isEmpty, "bundle file names outside BundleLayout: \(offenders)")
    }
}
