import AsyncHTTPClient
import BlockingWork
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Playback

/// Tells the server's webhooks of every break's will-present and did-finish notification.
///
/// Each notification is POSTed as JSON (`InterstitialWebhookPayload`) to every configured URL,
/// from a queue per URL worked by a task of its own, so playback never waits for a webhook and
/// each webhook hears the notifications in the order they happened: a POST that fails (an
/// error, a timeout, a 5xx or 429 answer) is tried again after 0.5 s, 1 s, 2 s… up to the
/// configured retries, and a failure for good is logged and kept among the recent failures.
/// Deliveries beyond `maximumQueued` are dropped and logged rather than queued without limit.
/// The settings live in `interstitial-webhooks.json` in the data directory.
actor InterstitialWebhooks {
    private let file: URL?
    private let client: HTTPClient
    private var settings: InterstitialWebhookSettings?
    /// Notifications in the order they happened, taken one at a time by `start`.
    private nonisolated let inbox: AsyncStream<InterstitialWebhookPayload>.Continuation
    /// Deliveries waiting, by URL, and the URLs whose queue a task is working.
    private var queues: [String: [(body: Data, payload: InterstitialWebhookPayload, settings: InterstitialWebhookSettings)]] = [:]
    private var working: Set<String> = []
    private var queued = 0
    private(set) var recentFailures: [InterstitialWebhookFailure] = []
    private var logger = Logger(label: "marquee.interstitial-webhooks")
    /// The first retry waits this long; each later one twice the one before.
    let firstBackoff: Duration
    static let maximumQueued = 256
    static let failuresKept = 20

    init(file: URL?, client: HTTPClient = .shared, firstBackoff: Duration = .milliseconds(500)) {
        self.file = file
        self.client = client
        self.firstBackoff = firstBackoff
        let (stream, inbox) = AsyncStream.makeStream(of: InterstitialWebhookPayload.self, bufferingPolicy: .bufferingOldest(1024))
        self.inbox = inbox
        Task { [weak self] in
            for await payload in stream { await self?.start(payload) }
        }
    }

    /// The settings in effect (read from the file the first time).
    func current() async -> InterstitialWebhookSettings {
        if let settings { return settings }
        var loaded = InterstitialWebhookSettings.default
        if let file {
            do {
                if let data = try await BlockingWork.run({ () -> Data? in
                    FileManager.default.fileExists(atPath: file.path) ? try Data(contentsOf: file) : nil
                }) {
                    loaded = try JSONDecoder().decode(InterstitialWebhookSettings.self, from: data)
                }
            } catch {
                logger.error("interstitial webhooks: cannot read \(file.path): \(error); none are called until they are set again")
            }
        }
        if settings == nil { settings = loaded }
        return settings ?? loaded
    }

    /// Replaces the settings and saves them (already validated).
    func set(_ new: InterstitialWebhookSettings) async throws {
        if let file {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(new)
            try await BlockingWork.run { try data.write(to: file, options: .atomic) }
        }
        settings = new
    }

    /// Sends `notification` of session `sessionID` (playing `assetID`) to every webhook, without waiting.
    nonisolated func deliver(_ notification: InterstitialNotification, sessionID: String, assetID: String, at date: Date = Date()) {
        let payload = InterstitialWebhookPayload(
            notification: notification.kind.rawValue, eventID: notification.event.id, assetID: assetID, sessionID: sessionID,
            time: date.formatted(.iso8601), primaryTime: notification.primaryTime, reason: notification.reason?.rawValue,
            message: notification.message, content: notification.event.url, assetList: notification.event.assetListURL)
        inbox.yield(payload)
    }

    private func start(_ payload: InterstitialWebhookPayload) async {
        let settings = await current()
        guard !settings.urls.isEmpty, let body = try? JSONEncoder().encode(payload) else { return }
        for url in settings.urls {
            guard queued < Self.maximumQueued else {
                logger.warning("interstitial webhooks: \(queued) deliveries waiting; dropped \(payload.notification) of \(payload.eventID) for \(url)")
                record(
                    InterstitialWebhookFailure(
                        url: url, notification: payload.notification, eventID: payload.eventID, attempts: 0,
                        error: "dropped: too many deliveries waiting", time: Date().formatted(.iso8601)))
                continue
            }
            queued += 1
            queues[url, default: []].append((body, payload, settings))
            if working.insert(url).inserted { Task { await self.work(url) } }
        }
    }

    /// Delivers `url`'s queue in order until it is empty.
    private func work(_ url: String) async {
        while let next = queues[url]?.first {
            queues[url]?.removeFirst()
            await post(next.body, payload: next.payload, to: url, settings: next.settings)
            queued -= 1
        }
        queues[url] = nil
        working.remove(url)
    }

    private func post(_ body: Data, payload: InterstitialWebhookPayload, to url: String, settings: InterstitialWebhookSettings) async {
        var wait = firstBackoff
        var attempts = 0
        var lastError = ""
        while attempts <= settings.retries {
            attempts += 1
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "User-Agent", value: "Marquee interstitial webhooks")
                request.body = .bytes(ByteBuffer(bytes: body))
                let response = try await client.execute(request, timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000)))
                // The answer's body is not needed; read a little of it so the connection is reusable.
                _ = try? await response.body.collect(upTo: 64 * 1024)
                let status = Int(response.status.code)
                if (200..<300).contains(status) { return }
                lastError = "HTTP \(status)"
                // A refusal other than 429 will not change on a retry.
                if (400..<500).contains(status), status != 429 { break }
            } catch {
                lastError = String(describing: error)
            }
            if attempts <= settings.retries {
                try? await Task.sleep(for: wait)
                wait *= 2
            }
        }
        logger.error("interstitial webhook \(url): \(payload.notification) of \(payload.eventID) failed after \(attempts) attempt(s): \(lastError)")
        record(
            InterstitialWebhookFailure(
                url: url, notification: payload.notification, eventID: payload.eventID, attempts: attempts, error: lastError,
                time: Date().formatted(.iso8601)))
    }

    private func record(_ failure: InterstitialWebhookFailure) {
        recentFailures.append(failure)
        if recentFailures.count > Self.failuresKept { recentFailures.removeFirst(recentFailures.count - Self.failuresKept) }
    }
}
