import Hummingbird
import Library
import Testing

@testable import MarqueeServer

/// A bucket file re-published between the validator a ranged or conditional answer is worked
/// out from and the read of its bytes: the answer is worked out again from the new version,
/// and a file that keeps changing gets a 503 the client may retry, never a 500.
@Suite("Object media: a file replaced while it is read")
struct ObjectMediaResponderTests {
    actor Attempts {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test func aFileReplacedOnceIsReadAgainFromItsNewVersion() async throws {
        let attempts = Attempts()
        let response = try await ObjectMediaResponder.sameFile {
            if await attempts.next() == 1 { throw MediaFileChanged(path: "video/seg-1.m4s", assetID: "a1") }
            return Response(status: .partialContent)
        }
        #expect(response.status == .partialContent)
        #expect(await attempts.count == 2)
    }

    @Test func aFileThatKeepsChangingIsA503ToRetry() async throws {
        let attempts = Attempts()
        do {
            _ = try await ObjectMediaResponder.sameFile {
                _ = await attempts.next()
                throw MediaFileChanged(path: "video/seg-1.m4s", assetID: "a1")
            }
            Issue.record("no error")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.headers[.retryAfter] == "1")
            #expect(error.message.contains("changed while it was being read"))
        }
        #expect(await attempts.count == 2)
    }

    @Test func otherFailuresAreNotRetried() async throws {
        let attempts = Attempts()
        await #expect(throws: APIError.self) {
            _ = try await ObjectMediaResponder.sameFile {
                _ = await attempts.next()
                throw APIError(.notFound, "No such file")
            }
        }
        #expect(await attempts.count == 1)
    }
}
