import Foundation
import Glibc
import MediaTesting
import NIOCore
import Synchronization
import Testing

@testable import Downloads

/// The fetcher against scripted faults on the shared loopback server, with its backoff on a
/// manual clock: the retries happen in order, each after the policy's delay, and take no
/// real time.
@Suite("Fetching with retries")
struct FetchRetryTests {
    /// A refused connection fails the attempt and says so. (Before `retryConnectionEstablishment`
    /// was turned off the answer was the same but came only after the 10 s connect timeout, the
    /// client's pool trying again by itself: `marquee inspect` of a closed port now answers in
    /// about 0.2 s. That speed is not asserted here: tests assert behaviour, not time.)
    @Test func aRefusedConnectionFailsTheAttemptAndSaysSo() async throws {
        let fetcher = HTTPFetcher(concurrency: 1, policy: RetryPolicy(maximumAttempts: 1), timeout: .seconds(120))
        defer { Task { try? await fetcher.shutdown() } }
        // A port held by a socket that is bound but never listens: a connection to it is
        // refused, and no other test running alongside can take the port meanwhile.
        let holder = try BoundNotListening()
        defer { holder.close() }
        do {
            _ = try await fetcher.fetch(URL(string: "http://127.0.0.1:\(holder.port)/master.m3u8")!)
            Issue.record("a closed port answered")
        } catch let error as DownloadError {
            #expect(String(describing: error).contains("refused"), "\(error)")
        }
    }

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

    @Test("A file: (or other non-HTTP) address fails at once: asking again cannot help")
    func nonHTTPAddressesAreNotRetried() async throws {
        let retries = Mutex(0)
        let fetcher = HTTPFetcher(
            concurrency: 1, policy: RetryPolicy(maximumAttempts: 6, initialDelay: 0, maximumDelay: 0),
            onRetry: { _ in retries.withLock { $0 += 1 } })
        for address in ["file:///etc/hosts", "ftp://127.0.0.1/x.ts", "http:///x.ts"] {
            let url = try #require(URL(string: address))
            await #expect(throws: DownloadError.self, "\(address)") { try await fetcher.fetch(url) }
            do {
                _ = try await fetcher.fetch(url)
            } catch let DownloadError.gaveUp(_, attempts, reason) {
                #expect(attempts == 1 && reason.contains("http and https"), "\(address): \(reason)")
            }
        }
        #expect(retries.withLock { $0 } == 0)
        try await fetcher.shutdown()
    }

    @Test("A fetch cancelled mid-body (because another failed) leaves no .part file")
    func aCancelledFetchLeavesNoPartialFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-sink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("seg.m4s")
        let sink = FileBodySink(file: file)
        try await sink.begin()
        try await sink.append(ByteBuffer(bytes: [1, 2, 3]))
        #expect(FileManager.default.fileExists(atPath: file.path + ".part"))
        let cancelled = Task {
            while !Task.isCancelled { await Task.yield() }
            await sink.discard()
        }
        cancelled.cancel()
        await cancelled.value
        #expect(!FileManager.default.fileExists(atPath: file.path + ".part"))
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

/// A TCP socket bound to a free loopback port that never listens: connecting to it is refused.
struct BoundNotListening {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
