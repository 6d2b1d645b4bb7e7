import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Library
@testable import MarqueeServer

/// One mapping from errors to answers: a full disk is a 507 with a sentence whichever layer
/// noticed, an error nobody mapped is a 500 that says nothing of the server's internals, and
/// two racing `complete` calls are a 409 for the loser.
@Suite("Error answers")
struct ErrorMappingTests {
    struct Unmapped: Error, CustomStringConvertible {
        var description: String { "SQLite error 1: no such table: assets in /srv/marquee/library.sqlite" }
    }

    @Test("An error nobody mapped is a 500 with a fixed sentence and code, never its own text")
    func unmappedErrorsRevealNothing() {
        let answer = APIError.from(Unmapped())
        #expect(answer.status == .internalServerError)
        #expect(answer.code == "internal")
        #expect(!answer.message.contains("SQLite") && !answer.message.contains("/srv"))
        #expect(
            APIError.from(NSError(domain: "Some.Library", code: 7, userInfo: [NSLocalizedDescriptionKey: "/home/ann/x"])).message
                == answer.message)
    }

    @Test("A full disk is a 507 with a sentence: a file write, a system call, and SQLite itself")
    func aFullDiskIsA507() throws {
        // SQLite told the database may not grow: the real SQLITE_FULL, as GRDB reports it.
        let queue = try DatabaseQueue()
        let full = #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE t (x BLOB); PRAGMA max_page_count = 8")
                for _ in 0..<64 { try db.execute(sql: "INSERT INTO t VALUES (zeroblob(4096))") }
            }
        }
        #expect(full?.resultCode == .SQLITE_FULL)
        let errors: [any Error] = [
            try #require(full), CocoaError(.fileWriteOutOfSpace), POSIXError(.ENOSPC),
            NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)),
        ]
        for error in errors {
            let answer = APIError.from(error)
            #expect(answer.status.code == 507, "\(error)")
            #expect(answer.code == "disk-full")
            #expect(answer.message.contains("disk is full"))
        }
    }

    @Test("The JSON body carries the status, a stable code and the sentence")
    func theBodyHasACode() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets/nothing-here", method: .get) { response throws in
                #expect(response.status == .notFound)
                let body = try response.json(APIErrorBody.self)
                #expect(body.error.code == "not-found" && body.error.status == 404)
            }
            try await client.execute(uri: "/api/no-such-route", method: .get) { response throws in
                #expect(try response.json(APIErrorBody.self).error.code == "no-route")
            }
        }
    }

    @Test("Two racing completes of one upload: one asset, the other call a 409 or 404, never a 500")
    func racingCompletesConflict() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        try await temp.application().test(.router) { client in
            for round in 0..<6 {
                var id = ""
                try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "race\#(round).mp4", "length": 4}"#)) {
                    response throws in
                    id = try response.json(UploadBody.self).id
                }
                try await client.execute(
                    uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-3/4"], body: ByteBuffer(string: "abcd")
                ) { response throws in #expect(response.status == .ok) }
                let uploadID = id
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            try await client.execute(uri: "/api/uploads/\(uploadID)/complete", method: .post) { ($0.status, $0.text) }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let statuses = answers.map(\.0.code).sorted()
                #expect(statuses.first == 202 && [404, 409].contains(statuses.last!), "\(answers)")
                #expect(!answers.contains { $0.1.contains(temp.root.path) }, "\(answers)")
            }
        }
    }

    @Test("While one finish runs, a second finish of the same upload is told it is busy")
    func finishIsExclusive() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        let uploads = temp.library.uploads
        for round in 0..<10 {
            let upload = try await uploads.create(fileName: "f\(round).mp4", length: 2)
            _ = try await uploads.append(id: upload.id, range: ChunkRange(start: 0, end: 1, total: 2), body: OneChunk(bytes: [1, 2]))
            async let first = outcome { try await uploads.finish(id: upload.id) }
            async let second = outcome { try await uploads.finish(id: upload.id) }
            let results = await [first, second]
            #expect(results.filter { (try? $0.get()) != nil }.count == 1)
            for case .failure(let error) in results {
                #expect(error as? UploadError == .busy(upload.id) || error as? UploadError == .notFound(upload.id), "\(error)")
            }
        }
    }
}

/// One chunk of bytes as an upload body.
struct OneChunk: AsyncSequence, Sendable {
    let bytes: [UInt8]
    struct AsyncIterator: AsyncIteratorProtocol {
        var bytes: [UInt8]?
        mutating func next() async -> [UInt8]? {
            defer { bytes = nil }
            return bytes
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

/// What `body` returned or threw.
func outcome<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
