import Foundation
import Testing

@testable import Library

/// Chunks of bytes as an async sequence, optionally failing (a dropped connection) after some.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]
    var failAfter: Int? = nil

    struct Dropped: Error {}

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: [[UInt8]]
        var failAfter: Int?
        var sent = 0
        mutating func next() async throws -> [UInt8]? {
            if let failAfter, sent == failAfter { throw Dropped() }
            guard !remaining.isEmpty else { return nil }
            sent += 1
            return remaining.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks, failAfter: failAfter) }
}

@Suite("Uploads: chunk ranges, offsets and resuming")
struct UploadTests {
    @Test func contentRangeParsing() throws {
        #expect(try ChunkRange.parse(contentRange: "bytes 0-99/1000") == ChunkRange(start: 0, end: 99, total: 1000))
        #expect(try ChunkRange.parse(contentRange: "bytes 100-199/*") == ChunkRange(start: 100, end: 199, total: nil))
        for bad in ["0-99/1000", "bytes 99-0/1000", "bytes 0-1000/1000", "bytes a-b/c", "bytes 0-99", "bytes -1-5/10"] {
            #expect(throws: UploadError.self, "\(bad)") { try ChunkRange.parse(contentRange: bad) }
        }
    }

    @Test("A range at the edge of Int64 is refused, never counted into an overflow")
    func rangesPastTheLargestPositionAreRefused() throws {
        for bad in [
            "bytes 0-9223372036854775807/*", "bytes 9223372036854775807-9223372036854775807/*",
            "bytes 0-99/9223372036854775807", "bytes 0-99999999999999999999/*", "bytes +0-5/10", "bytes 0-+5/10",
        ] {
            #expect(throws: UploadError.self, "\(bad)") { try ChunkRange.parse(contentRange: bad) }
        }
        let largest = try ChunkRange.parse(contentRange: "bytes 0-9223372036854775806/*")
        #expect(largest.count == .max)
        // A range built by hand past the largest position counts as "too many", never traps.
        #expect(ChunkRange(start: 0, end: .max).count == .max)
        #expect(try ChunkRange(start: 0, end: .max).check(received: 0, declaredLength: nil) == .max)
    }

    @Test func aChunkMustStartWhereTheServerIs() throws {
        let range = ChunkRange(start: 100, end: 199, total: 1000)
        #expect(try range.check(received: 100, declaredLength: 1000) == 100)
        #expect(throws: UploadError.offsetMismatch(expected: 50, got: 100)) { try range.check(received: 50, declaredLength: 1000) }
        #expect(throws: UploadError.self) { try range.check(received: 100, declaredLength: 500) }
        // Without an end, the rest of a known length may come; with neither, anything.
        #expect(try ChunkRange(start: 10).check(received: 10, declaredLength: 30) == 20)
        #expect(try ChunkRange(start: 10).check(received: 10, declaredLength: nil) == nil)
    }

    @Test func anInterruptedChunkKeepsWhatArrivedAndTheUploadResumesFromThere() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let uploads = temp.library.uploads
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let upload = try await uploads.create(fileName: "Show - S01E03.mp4", length: Int64(bytes.count))
        #expect(upload.fileName == "Show - S01E03.mp4")
        #expect(upload.offset == 0)

        // The first chunk claims 2 MB but the connection drops after 1.5 MB.
        let pieces = stride(from: 0, to: 1_500_000, by: 500_000).map { Array(bytes[$0..<$0 + 500_000]) }
        await #expect(throws: Chunks.Dropped.self) {
            _ = try await uploads.append(
                id: upload.id, range: ChunkRange(start: 0, end: 1_999_999, total: Int64(bytes.count)),
                body: Chunks(chunks: pieces + [Array(bytes[1_500_000..<2_000_000])], failAfter: 3))
        }
        let resumed = try await uploads.upload(id: upload.id)
        #expect(resumed.offset == 1_500_000)

        // Resending from 0 is refused with the right offset; sending from it succeeds.
        await #expect(throws: UploadError.offsetMismatch(expected: 1_500_000, got: 0)) {
            _ = try await uploads.append(id: upload.id, range: ChunkRange(start: 0, end: 99, total: Int64(bytes.count)), body: Chunks(chunks: []))
        }
        let rest = Array(bytes[1_500_000...])
        let done = try await uploads.append(
            id: upload.id, range: ChunkRange(start: 1_500_000, end: Int64(bytes.count - 1), total: Int64(bytes.count)),
            body: Chunks(chunks: stride(from: 0, to: rest.count, by: 65_536).map { Array(rest[$0..<min($0 + 65_536, rest.count)]) }))
        #expect(done.offset == Int64(bytes.count))
        #expect(done.isComplete)

        let asset = try await temp.library.addUpload(id: upload.id)
        let stored = try #require(asset.sourcePath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: stored)) == Data(bytes))
        #expect(stored.hasPrefix(temp.library.location.uploadedSourcesDirectory.path))
        #expect(asset.episode == Episode(seriesTitle: "Show", season: 1, number: 3))
        #expect(try await temp.library.store.jobs(assetID: asset.id).first?.state == .queued)
        await #expect(throws: UploadError.notFound(upload.id)) { _ = try await uploads.upload(id: upload.id) }

        // Deleting the asset for good removes the uploaded source too.
        try await temp.library.delete(assetID: asset.id)
        #expect(!FileManager.default.fileExists(atPath: stored))
    }

    @Test func aBodyLongerThanItsRangeIsCutAndRefused() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let upload = try await temp.library.uploads.create(fileName: "a.mp4", length: 10)
        await #expect(throws: UploadError.chunkTooLong(limit: 4)) {
            _ = try await temp.library.uploads.append(
                id: upload.id, range: ChunkRange(start: 0, end: 3, total: 10),
                body: Chunks(chunks: [[1, 2, 3], [4, 5, 6]]))
        }
        #expect(try await temp.library.uploads.upload(id: upload.id).offset == 4)
        await #expect(throws: UploadError.incomplete(received: 4, length: 10)) { _ = try await temp.library.uploads.finish(id: upload.id) }
    }

    @Test func badNamesAndAbandonedUploads() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let uploads = temp.library.uploads
        // A path is refused (issue 24: the name is exactly openapi.json's pattern; it was cut to its last part).
        for name in ["", "..", ".hidden", "/", "a\u{0}b", "../../etc/Show - S01E03.mp4", "a/b.mp4"] {
            await #expect(throws: UploadError.self, "\(name)") { _ = try await uploads.create(fileName: name, length: 1) }
        }
        await #expect(throws: UploadError.self) { _ = try await uploads.create(fileName: "huge.mp4", length: Int64.max / 2) }
        let old = try await uploads.create(fileName: "old.mp4", length: 5)
        let fresh = try await uploads.create(fileName: "fresh.mp4", length: 5)
        let past = Date().addingTimeInterval(-48 * 3600)
        for suffix in ["part", "json"] {
            try FileManager.default.setAttributes(
                [.modificationDate: past],
                ofItemAtPath: uploads.directory.appendingPathComponent("\(old.id).\(suffix)").path)
        }
        let removed = try await uploads.removeAbandoned(untouchedSince: Date().addingTimeInterval(-24 * 3600))
        #expect(removed == [old.id])
        await #expect(throws: UploadError.notFound(old.id)) { _ = try await uploads.upload(id: old.id) }
        #expect(try await uploads.upload(id: fresh.id).offset == 0)
        try await uploads.cancel(id: fresh.id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.directory.path).isEmpty)
    }
}
