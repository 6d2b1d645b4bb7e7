import Foundation

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

    /// A 3-second clip with English and French audio, an English subtitle track, and a title,
    /// artist and comment; `size` and `videoArguments` (such as `-vf setsar=2`) shape the picture.
    func makeClip(
        named name: String = "clip.mp4", seconds: Int = 3, size: String = "320x180",
        videoArguments: [String] = []
    ) async throws -> URL {
        let subtitles = root.appendingPathComponent("\(name).srt")
        try "1\n00:00:00,000 --> 00:00:02,000\nHello\n\n".write(to: subtitles, atomically: true, encoding: .utf8)
        let url = root.appendingPathComponent(name)
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run(
            [
                "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=24:duration=\(seconds)",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                "-f", "lavfi", "-i", "sine=frequency=660:duration=\(seconds)",
                "-i", subtitles.path,
                "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
            ] + videoArguments + [
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-c:s", "mov_text",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra", "-metadata:s:s:0", "language=eng",
                "-metadata", "title=Embedded Title", "-metadata", "artist=Marquee Tests",
                "-metadata", "comment=An embedded description", url.path,
            ])
        return url
    }
}
