import Foundation
import MediaTesting
import Testing

@testable import Library

/// Only regular files are ingested: a FIFO (or device) named like a video is refused when
/// added, skipped when walking a folder, and fails its own job (without blocking the queue)
/// when it replaced a file after it was added.
@Suite("Only regular files are ingested")
struct SourceFileKindTests {
    let folder: URL

    init() throws {
        folder = try ScratchFolder.make("marquee-fifo")
    }

    func fifo(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        #expect(mkfifo(url.path, 0o600) == 0)
        return url
    }

    @Test func aFIFOIsRefusedWhenAddedAndSkippedInAFolder() throws {
        let pipe = try fifo("stuck.mp4")
        #expect(SourceFileKind.of(pipe) == .other("a FIFO (named pipe)"))
        #expect(throws: LibraryError.invalidRequest("\(pipe.path) is a FIFO (named pipe); only regular files are added")) {
            try MediaLibrary.sources(for: [pipe.path])
        }
        let clip = folder.appendingPathComponent("real.mp4")
        try Data("not really a video, but a regular file".utf8).write(to: clip)
        let found = try MediaLibrary.sources(for: [folder.path]).map(\.0.lastPathComponent)
        #expect(found == ["real.mp4"])
        let device = URL(fileURLWithPath: "/dev/zero")
        #expect(throws: LibraryError.self) { try MediaLibrary.sources(for: [device.path]) }
    }

    @Test func aFileReplacedByAFIFOFailsItsJobAndTheQueueGoesOn() async throws {
        let data = folder.appendingPathComponent("data")
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data))
        let first = folder.appendingPathComponent("first.mp4")
        let second = folder.appendingPathComponent("second.mp4")
        try Data("x".utf8).write(to: first)
        try Data("y".utf8).write(to: second)
        let added = try await library.add(paths: [first.path, second.path])
        try FileManager.default.removeItem(at: first)
        _ = try fifo("first.mp4")
        // Runs both jobs; returning at all is the point (a FIFO would block open() forever).
        await library.worker.drain()
        let jobs = try await library.store.jobs(assetID: added[0].id)
        #expect(jobs.first?.state == .failed)
        let next = try await library.store.jobs(assetID: added[1].id)
        #expect(next.first?.state == .failed)  // not media, but it ran: the queue went on
    }
}
