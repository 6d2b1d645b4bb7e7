import AsyncHTTPClient
public import Clocks
public import Foundation
public import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Fetches whole resources and byte ranges over keep-alive connections with AsyncHTTPClient,
/// retrying as `RetryPolicy` says. A body shorter than its Content-Length (or than the range
/// asked for) is never returned as complete.
public final class HTTPFetcher: Sendable {
    /// One retry, reported so a progress display can say what happened.
    public struct RetryEvent: Sendable {
        /// The resource being fetched.
        public var url: URL
        /// The attempt that failed, counting from 1.
        public var attempt: Int
        /// How long the fetcher waits before the next attempt, in seconds.
        public var delay: Double
        /// What went wrong (an HTTP status, a transport error, a truncated body).
        public var reason: String
    }

    let client: HTTPClient
    let ownsClient: Bool
    let policy: RetryPolicy
    let timeout: TimeAmount
    let stall: StallRule
    let onRetry: @Sendable (RetryEvent) -> Void
    /// The time retry backoff waits on (a manual clock in tests).
    let clock: any WallClock

    /// A body that brings fewer than `minimumBytes` in any `window` has stalled: a server that
    /// trickles a byte every few seconds never trips a read timeout, so it is caught by rate.
    public struct StallRule: Sendable {
        /// The span over which the rate is measured.
        public var window: Duration
        /// The fewest bytes a body must bring in each `window`.
        public var minimumBytes: Int
        /// A rule of at least `minimumBytes` per `window` (16 KiB per 30 s by default).
        public init(window: Duration = .seconds(30), minimumBytes: Int = 16 << 10) {
            self.window = window
            self.minimumBytes = minimumBytes
        }
    }

    /// A fetcher with its own HTTP client: up to `concurrency` connections per host, redirects
    /// followed (at most 10), a 10 s connect timeout and `timeout` between reads. `onRetry` is
    /// called before each retry; backoff waits on `clock`. Call `shutdown()` when done.
    public init(
        concurrency: Int = 8, policy: RetryPolicy = RetryPolicy(), timeout: TimeAmount = .seconds(30),
        stall: StallRule = StallRule(), onRetry: @escaping @Sendable (RetryEvent) -> Void = { _ in },
        clock: any WallClock = SystemClock()
    ) {
        self.clock = clock
        var configuration = HTTPClient.Configuration(redirectConfiguration: .follow(max: 10, allowCycles: false))
        configuration.timeout = .init(connect: .seconds(10), read: timeout)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(concurrency, 1))
        // A refused connection or an unknown host fails the attempt at once (curl says so in
        // milliseconds); `policy` decides whether to ask again. Left on, the client's pool
        // would retry connecting by itself until the read timeout, and an inspection of an
        // unreachable address said nothing for 15–20 s.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        ownsClient = true
        self.policy = policy
        self.timeout = timeout
        self.stall = stall
        self.onRetry = onRetry
    }

    /// Shuts down the HTTP client the fetcher made for itself, closing its connections.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    /// Largest bodies a download accepts, so a hostile or broken server cannot exhaust
    /// memory: playlists, interstitial asset lists, keys, artwork and media files.
    public enum Limit {
        /// A playlist: 64 MiB.
        public static let playlist = 64 << 20
        /// An interstitial asset list (JSON): 16 MiB.
        public static let assetList = 16 << 20
        /// An AES-128 key file: 64 KiB.
        public static let key = 64 << 10
        /// An artwork image: 32 MiB.
        public static let artwork = 32 << 20
        /// A segment or other media file: 1 GiB.
        public static let mediaFile = 1 << 30
    }

    /// The bytes of `url` (all of it, or `length` bytes from `offset`) and the final URL
    /// after redirects. A body larger than `maximumBytes` is an error, not retried.
    public func fetch(
        _ url: URL, offset: UInt64? = nil, length: UInt64? = nil,
        maximumBytes: Int = .max
    ) async throws -> (data: Data, url: URL) {
        let sink = MemoryBodySink()
        let finalURL = try await transfer(url, offset: offset, length: length, maximumBytes: maximumBytes, into: sink)
        return (sink.data, finalURL)
    }

    /// Like `fetch`, but streams the body to `file` (through `file.part`, renamed when
    /// complete) instead of holding it in memory; returns the number of bytes written.
    public func download(
        _ url: URL, offset: UInt64? = nil, length: UInt64? = nil,
        maximumBytes: Int = .max, to file: URL
    ) async throws -> Int64 {
        let sink = FileBodySink(file: file)
        do {
            _ = try await transfer(url, offset: offset, length: length, maximumBytes: maximumBytes, into: sink)
            return try await sink.commit()
        } catch {
            await sink.discard()
            throw error
        }
    }

    /// One transfer with retries: each attempt hands the body to `sink`, which keeps the
    /// bytes of the asked-for window; a short, over-long or stalled body never completes.
    func transfer(_ url: URL, offset: UInt64?, length: UInt64?, maximumBytes: Int, into sink: some BodySink) async throws -> URL {
        // Asking again cannot make a `file:`, `ftp:` or scheme-less address fetchable.
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw DownloadError.gaveUp(
                url: url, attempts: 1, reason: "only http and https addresses with a host can be downloaded, not \"\(url.scheme ?? "")\" ones")
        }
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            var failure: RetryPolicy.Failure = .transport
            var reason = ""
            do {
                var request = HTTPClientRequest(url: url.absoluteString)
                if let offset, let length, length > 0 {
                    request.headers.add(name: "Range", value: "bytes=\(offset)-\(offset + length - 1)")
                }
                let response = try await client.execute(request, timeout: timeout)
                let status = Int(response.status.code)
                if !(200..<300).contains(status) {
                    let retryAfter = RetryPolicy.retryAfter(response.headers.first(name: "Retry-After"))
                    // Drain the (small) error body so the connection can be reused.
                    _ = try? await response.body.collect(upTo: 1 << 16)
                    failure = .status(status, retryAfter: retryAfter)
                    reason = "HTTP \(status)"
                    if policy.delay(after: failure, attempt: 1, random: 1) == nil {
                        throw DownloadError.http(url: url, status: status)
                    }
                } else {
                    let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
                    if let declared, declared > maximumBytes {
                        throw DownloadError.gaveUp(url: url, attempts: attempt, reason: "response is \(declared) bytes, over the limit of \(maximumBytes)")
                    }
                    // A 200 to a range request: the server ignored Range and sends everything,
                    // so keep only our window of it.
                    let window: BodyWindow =
                        if let offset, let length, status != 206 {
                            BodyWindow(skip: offset, take: length)
                        } else {
                            BodyWindow(skip: 0, take: nil)
                        }
                    try await sink.begin()
                    let received = try await Self.readBody(
                        response.body, maximumBytes: maximumBytes, stall: stall,
                        url: url, attempt: attempt, window: window, into: sink)
                    let kept = sink.count
                    if let declared, received != declared {
                        failure = .truncated
                        reason = "received \(received) of \(declared) bytes"
                    } else if let offset, let length {
                        if UInt64(kept) == length { return response.url ?? url }
                        failure = .truncated
                        reason =
                            status == 206
                            ? "received \(kept) of \(length) range bytes"
                            : "resource has \(received) bytes, range ends at \(offset + length)"
                    } else {
                        return response.url ?? url
                    }
                }
            } catch let error as DownloadError {
                throw error
            } catch let stalled as Stalled {
                // A trickling server is not helped by asking again; a resumed download picks up
                // from the files already stored.
                throw DownloadError.gaveUp(url: url, attempts: attempt, reason: stalled.description)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                reason = Self.describe(error, host: url.host ?? "")
                // A redirect loop or an oversized body does not get better by asking again.
                if let e = error as? HTTPClientError, [.redirectCycleDetected, .redirectLimitReached].contains(e) {
                    throw DownloadError.gaveUp(url: url, attempts: attempt, reason: reason)
                }
                if error is NIOTooManyBytesError || String(describing: error).contains("ResponseTooBig") {
                    throw DownloadError.gaveUp(url: url, attempts: attempt, reason: "response is over the limit of \(maximumBytes) bytes")
                }
                failure = .transport
            }
            guard let delay = policy.delay(after: failure, attempt: attempt, random: Double.random(in: 0.5..<1)) else {
                if case .status(let code, _) = failure, attempt >= policy.maximumAttempts, code < 500, code != 429 {
                    throw DownloadError.http(url: url, status: code)
                }
                throw DownloadError.gaveUp(url: url, attempts: attempt, reason: reason)
            }
            onRetry(RetryEvent(url: url, attempt: attempt, delay: delay, reason: reason))
            try await clock.sleep(for: .nanoseconds(Int64(delay * 1e9)))
        }
    }

    /// A stalled body, told apart from other transport failures so it can be named.
    struct Stalled: Error, CustomStringConvertible {
        var received: Int
        var window: Duration
        var description: String {
            "stalled: the server sent \(received) bytes in \(window.components.seconds) s"
        }
    }

    /// Reads a response body chunk by chunk into `sink`, keeping only `window`'s bytes: over
    /// `maximumBytes` is an error (not retried), and fewer than the stall rule's bytes in any
    /// of its windows is a `Stalled` failure. Returns the bytes received (kept or not).
    static func readBody(
        _ body: HTTPClientResponse.Body, maximumBytes: Int, stall: StallRule,
        url: URL, attempt: Int, window: BodyWindow, into sink: some BodySink
    ) async throws -> Int {
        var received = 0
        let clock = ContinuousClock()
        var windowStart = clock.now
        var windowBytes = 0
        for try await var chunk in body {
            guard chunk.readableBytes <= maximumBytes - received else {
                throw DownloadError.gaveUp(url: url, attempts: attempt, reason: "response is over the limit of \(maximumBytes) bytes")
            }
            let chunkStart = UInt64(received)
            received += chunk.readableBytes
            windowBytes += chunk.readableBytes
            if let kept = window.slice(of: &chunk, startingAt: chunkStart) { try await sink.append(kept) }
            let now = clock.now
            if now - windowStart >= stall.window {
                if windowBytes < stall.minimumBytes { throw Stalled(received: windowBytes, window: stall.window) }
                windowStart = now
                windowBytes = 0
            }
        }
        return received
    }

    /// Plain words for the usual transport failures (timeouts, DNS, refused or reset
    /// connections, TLS, redirects).
    static func describe(_ error: any Error, host: String) -> String {
        if let stalled = error as? Stalled { return stalled.description }
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout: return "timed out connecting to \(host)"
            case .readTimeout, .deadlineExceeded: return "timed out waiting for the server"
            case .remoteConnectionClosed: return "connection closed mid-response"
            case .redirectLimitReached: return "too many redirects"
            case .redirectCycleDetected: return "redirect loop"
            case .tlsHandshakeTimeout: return "TLS handshake timed out"
            default: return "\(e)"
            }
        }
        let text = String(reflecting: error)
        if text.contains("dnsAError") || text.contains("dnsAAAAError") || text.contains("SocketAddressError") || text.contains("unknown host") {
            return "could not resolve host '\(host)' (DNS lookup failed)"
        }
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused by \(host)" }
        if text.contains("connectionReset") || text.contains("reset by peer") { return "connection reset" }
        if text.contains("NIOSSL") || text.contains("BoringSSL") || text.contains("handshake") || text.contains("certificate") {
            return "TLS error talking to \(host): \(text)"
        }
        return text
    }
}
