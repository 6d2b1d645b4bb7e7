import Foundation
import MediaTesting
import Testing

@testable import Library

/// Importing an HLS bundle copies only the files its playlists name, each as a regular file;
/// links and references outside the bundle are refused with the reason.
@Suite struct BundleImportSafetyTests {
    let scratch: URL

    init() throws {
        scratch = try ScratchFolder.make("marquee-bundle-safety")
    }

    /// A two-segment fMP4 bundle: index.m3u8 → video/index.m3u8 → init.mp4, seg-1.m4s, seg-2.m4s.
    func makeBundle(_ name: String, segment2: String = "seg-2.m4s") throws -> URL {
        let bundle = scratch.appendingPathComponent(name)
        let video = bundle.appendingPathComponent("video")
        try FileManager.default.createDirectory(at: video, withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nvideo/index.m3u8\n"
            .write(to: bundle.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:4
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:4,
        seg-1.m4s
        #EXTINF:4,
        \(segment2)
        #EXT-X-ENDLIST

        """.write(to: video.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        for file in ["init.mp4", "seg-1.m4s", "seg-2.m4s"] {
            try Data(file.utf8).write(to: video.appendingPathComponent(file))
        }
        try #"{"title": "Imported"}"#.write(to: bundle.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
        return bundle
    }

    func files(under folder: URL) -> Set<String> {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        var found: Set<String> = []
        for case let url as URL in walker {
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            if attributes?[.type] as? FileAttributeType != .typeDirectory {
                found.insert(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)))
            }
        }
        return found
    }

    @Test func onlyTheBundlesOwnFilesAreCopiedAndNoLinks() throws {
        let source = try makeBundle("show")
        try "private".write(to: source.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let secret = scratch.appendingPathComponent("secret.txt")
        try "secret".write(to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: source.appendingPathComponent("video/extra.m4s"), withDestinationURL: secret)
        let target = scratch.appendingPathComponent("library/abc")
        let imported = try BundleImporter().importBundle(at: source, into: target)
        #expect(imported.title == "Imported")
        #expect(
            files(under: target) == [
                "index.m3u8", "master.m3u8", "metadata.json", "video/index.m3u8",
                "video/init.mp4", "video/seg-1.m4s", "video/seg-2.m4s",
            ])
        // A file added to the source later is not published through the library.
        try "later".write(to: source.appendingPathComponent("video/later.m4s"), atomically: true, encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("video/later.m4s").path))
    }

    @Test func aSymlinkedBundleFolderIsCopiedNotLinked() throws {
        let real = try makeBundle("real")
        let link = scratch.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let target = scratch.appendingPathComponent("library/l1")
        _ = try BundleImporter().importBundle(at: link, into: target)
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        #expect(files(under: target).contains("video/seg-2.m4s"))
        try "later".write(to: real.appendingPathComponent("video/later.m4s"), atomically: true, encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("video/later.m4s").path))
    }

    @Test(arguments: ["../../outside.m4s", "/etc/hostname", "file:///etc/hostname", "linked.m4s"])
    func referencesOutsideTheBundleOrThroughLinksAreRefused(segment: String) throws {
        try "outside".write(to: scratch.appendingPathComponent("outside.m4s"), atomically: true, encoding: .utf8)
        let source = try makeBundle("bad-\(UUID().uuidString)", segment2: segment)
        try FileManager.default.createSymbolicLink(
            at: source.appendingPathComponent("video/linked.m4s"),
            withDestinationURL: source.appendingPathComponent("video/seg-2.m4s"))
        let target = scratch.appendingPathComponent("library/\(UUID().uuidString)")
        #expect {
            try BundleImporter().importBundle(at: source, into: target)
        } throws: { error in
            guard case .unsafeBundle(_, let reason)? = error as? LibraryError else { return false }
            return reason.contains(segment == "linked.m4s" ? "symbolic link" : "outside the bundle")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
