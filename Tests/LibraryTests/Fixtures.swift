import Foundation
import MediaTesting

@testable import Library

/// A fresh data directory under the temporary folder, removed by `cleanUp()`.
struct TemporaryLibrary {
    let root: URL
    let library: MediaLibrary
    /// Where the library's rows are (SQLite in the data directory unless made with a `StoreKind`).
    var database: DatabaseLocation?

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
    }

    init(root: URL, library: MediaLibrary, database: DatabaseLocation) {
        self.root = root
        self.library = library
        self.database = database
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Adds an asset whose source is a placeholder file `root/name` (one byte, not media), for
    /// tests whose packager is scripted and never reads it; the asset's ingest job is queued.
    @discardableResult
    func addPlaceholder(named name: String) async throws -> Asset {
        let source = root.appendingPathComponent(name)
        try Data("x".utf8).write(to: source)
        return try await library.add(paths: [source.path])[0]
    }

    /// A 3-second clip with English and French audio, an English subtitle track, and a title,
    /// artist and comment; `size` and `videoArguments` (such as `-vf setsar=2`) shape the picture.
    func makeClip(
        named name: String = "clip.mp4", seconds: Int = 3, size: String = "320x180",
        videoArguments: [String] = []
    ) async throws -> URL {
        var clip = TestClip.bilingual(seconds: Double(seconds))
        clip.size = size
        clip.videoArguments = videoArguments
        clip.metadata["artist"] = "Marquee Tests"
        clip.metadata["comment"] = "An embedded description"
        return try await clip.write(to: root.appendingPathComponent(name))
    }
}
