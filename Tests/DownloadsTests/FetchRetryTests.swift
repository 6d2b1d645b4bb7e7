import Foundation
import MediaTesting
import Synchronization
import Testing

@testable import Downloads

/// The fetcher against scripted faults on the shared loopback server, with its backoff on a
/// manual clock: the retries happen in order, each after the policy's delay, and take no
/// real time.
@Suite("Fetching with retries")
struct FetchRetryTests {
    @Test func aSegmentThatFailsThreeWaysIsFetchedOnTheFourthAttempt() async throws {
        let segment = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let server = try await LoopbackHLSServer.start(files: ["s0.ts": segment])
        defer { Task { try? await server.stop() } }
        server.script("s0.ts", [.status(500), .dropConnection, .status(503)])
        let clock = ManualClock()
        let retries = Mutex<[String]>([])
        let fetcher = HTTPFetcher(
            concurrency: 1, policy: RetryPolicy(maximumAttempts: 6, initialDelay: 30, maximumDelay: 60),
            onRetry: { event in retries.withLock { $0.append(event.reason) } }, clock: clock)
        let fetch = Task { try await fetcher.fetch(server.url("s0.ts")) }
        // Each failure waits out a backoff of at least 15 s (30 s × a random factor ≥ 0.5) on
        // the manual clock; a second less does not start the next attempt.
        for attempt in 1...3 {
            try await clock.waitForSleepers()
            clock.advance(by: .seconds(14))
            #expect(clock.sleeperCount == 1)
            #expect(server.requestCount("s0.ts") == attempt)
            clock.advance(by: .seconds(60))
        }
        let (data, url) = try await fetch.value
        #expect(data == segment && url == server.url("s0.ts"))
        #expect(server.requestCount("s0.ts") == 4)
        let reasons = retries.withLock { $0 }
        #expect(reasons.count == 3)
        #expect(reasons.first?.contains("500") == true && reasons.last?.contains("503") == true)
        try await fetcher.shutdown()
    }

    @Test func rangesAreAnsweredWithPartialContentAndAMissingFileIsNotFound() async throws {
        let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        let server = try await LoopbackHLSServer.start(files: ["v/seg.m4s": bytes])
        defer { Task { try? await server.stop() } }
        let fetcher = HTTPFetcher(concurrency: 1, policy: RetryPolicy(maximumAttempts: 1))
        let (part, _) = try await fetcher.fetch(server.url("v/seg.m4s"), offset: 100, length: 50)
        #expect(part == bytes[100..<150])
        await #expect(throws: DownloadError.self) { try await fetcher.fetch(server.url("v/missing.m4s")) }
        try await fetcher.shutdown()
    }
}
