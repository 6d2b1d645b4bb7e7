import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTesting
import NIOFoundationCompat
import Playback
import ServiceTesting
import Testing

@testable import Library
@testable import MarqueeServer

/// Will-present and did-finish notifications POSTed to the server's interstitial webhooks: set
/// over the API (with clear refusals), saved, delivered as JSON to a loopback receiver, retried
/// with backoff, logged when they fail for good, and never holding up playback.
@Suite("Interstitial webhooks", .serialized)
struct InterstitialWebhookTests {
    /// What the loopback receiver got, and how it answers.
    actor Receiver {
        var bodies: [String: [Data]] = [:]
        var attempts: [String: Int] = [:]
        var arrivals: [String: Int] = [:]
        /// `/hang` answers only once this is opened.
        var gate: CheckedContinuation<Void, Never>?
        var gateOpen = false

        func received(_ path: String, _ body: Data) -> HTTPResponse.Status {
            attempts[path, default: 0] += 1
            // `/flaky` fails twice (503), then takes the notification.
            if path == "/flaky", attempts[path, default: 0] <= 2 { return .serviceUnavailable }
            bodies[path, default: []].append(body)
            return .noContent
        }

        func waitForGate() async {
            arrivals["/hang", default: 0] += 1
            if gateOpen { return }
            await withCheckedContinuation { gate = $0 }
        }

        func openGate() {
            gateOpen = true
            gate?.resume()
            gate = nil
        }

        func bodies(_ path: String) -> [Data] { bodies[path] ?? [] }
        func arrivals(_ path: String) -> Int { arrivals[path] ?? 0 }
        func attempts(_ path: String) -> Int { attempts[path] ?? 0 }
    }

    static func receiverApplication(_ receiver: Receiver) -> some ApplicationProtocol {
        let router = Router()
        for path in ["hook", "flaky", "hang"] {
            router.post(RouterPath(path)) { request, _ -> Response in
                let buffer = try await request.body.collect(upTo: 1 << 20)
                if path == "hang" { await receiver.waitForGate() }
                let status = await receiver.received("/\(path)", Data(buffer: buffer))
                return Response(status: status)
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    func put(_ client: some TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/settings/interstitial-webhooks", method: .put, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body))
    }

    static func session(id: String, ad: InterstitialEvent) -> PlaybackSession {
        PlaybackSession(id: id, assetID: "feature", metadata: DisplayMetadata(title: "Feature"), interstitials: [ad])
    }

    @Test("Settings are validated, saved, and read back after a restart")
    func settings() async throws {
        let root = ScratchFolder.reserve("marquee-webhooks")
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root))
        try await MarqueeServer(library: library).application(host: "127.0.0.1", port: 0).test(.router) { client in
            try await client.execute(uri: "/api/settings/interstitial-webhooks", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""urls":[]"#))
            }
            let refusals: [(String, String)] = [
                (#"{"urls": ["ftp://example.com/x"]}"#, "is not an absolute http or https URL"),
                (#"{"urls": ["/relative"]}"#, "is not an absolute http or https URL"),
                (#"{"urls": ["http://a.example/x", "http://a.example/x"]}"#, "more than once"),
                (#"{"urls": [], "timeoutSeconds": 0}"#, "timeoutSeconds must be between"),
                (#"{"urls": [], "retries": 99}"#, "retries must be between"),
            ]
            for (body, reason) in refusals {
                let response = try await put(client, body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(String(buffer: response.body).contains(reason), "\(body): \(String(buffer: response.body))")
            }
            let saved = try await put(client, #"{"urls": ["http://127.0.0.1:9/hook"], "retries": 1}"#)
            #expect(saved.status == .ok, "\(String(buffer: saved.body))")
            #expect(String(buffer: saved.body).contains(#""timeoutSeconds":5"#))
        }
        let reread = InterstitialWebhooks(file: root.appendingPathComponent("interstitial-webhooks.json"))
        #expect(await reread.current() == InterstitialWebhookSettings(urls: ["http://127.0.0.1:9/hook"], timeoutSeconds: 5, retries: 1))
    }

    @Test("A break's will-present and did-finish reach every webhook as JSON; a failing one is retried with backoff, one that never answers is logged")
    func delivery() async throws {
        let receiver = Receiver()
        try await Self.receiverApplication(receiver).test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let root = ScratchFolder.reserve("marquee-webhooks")
            let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root))
            let server = MarqueeServer(library: library)
            // A port nothing listens on: connection refused, every attempt.
            let closed = try Self.closedPort()
            try await server.interstitialWebhooks.set(
                InterstitialWebhookSettings(
                    urls: ["http://127.0.0.1:\(port)/hook", "http://127.0.0.1:\(port)/flaky", "http://127.0.0.1:\(closed)/gone"],
                    // Delivery is at least once: a receiver slower than the timeout gets the POST again, so the
                    // timeout is long enough that a loaded machine's slow answer is not taken for a failure
                    // (2 s was not). The client keeps retrying a refused connection until the timeout.
                    timeoutSeconds: 5, retries: 2))
            let ad = InterstitialEvent(id: "ad-1", time: 10, url: "/api/assets/ad/manifest.json", duration: 5)
            await server.sessions.insert(Self.session(id: "s1", ad: ad))
            await server.sessions.report(.ready(duration: 60), to: "s1")
            _ = await server.sessions.apply(.play, to: "s1")
            await server.sessions.report(.time(9.8), to: "s1")
            await server.sessions.report(.time(10), to: "s1")
            #expect(await server.sessions.session(id: "s1")?.activeInterstitial?.id == "ad-1")
            await server.sessions.report(.ended, to: "s1")

            try await eventually("both notifications at /hook", pollingEvery: .milliseconds(100)) { await receiver.bodies("/hook").count == 2 }
            let bodies = await receiver.bodies("/hook").compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            #expect(bodies.map { $0["notification"] as? String } == ["will-present", "did-finish"])
            let finished = bodies[1]
            #expect(finished["eventID"] as? String == "ad-1")
            #expect(finished["assetID"] as? String == "feature")
            #expect(finished["sessionID"] as? String == "s1")
            #expect(finished["reason"] as? String == "completed")
            #expect(finished["primaryTime"] as? Double == 10)
            #expect((finished["time"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
            #expect(bodies[0]["reason"] == nil)

            // The flaky receiver refused the first two attempts and took the third of each.
            try await eventually("both notifications at /flaky, after its refusals", pollingEvery: .milliseconds(100)) {
                await receiver.bodies("/flaky").count == 2
            }
            #expect(await receiver.attempts("/flaky") == 4, "503, 503, then the will-present taken on its third attempt, then the did-finish")
            let flaky = await receiver.bodies("/flaky").compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            #expect(flaky.map { $0["notification"] as? String } == ["will-present", "did-finish"], "in order, whatever the retries")

            // The closed port: 1 + 2 retries each (each up to the 5 s timeout), then logged among the recent failures.
            try await eventually("both notifications to /gone to be logged as failed", within: .seconds(60), pollingEvery: .milliseconds(100)) {
                await server.interstitialWebhooks.recentFailures.count == 2
            }
            let failures = await server.interstitialWebhooks.recentFailures
            #expect(failures.allSatisfy { $0.url.hasSuffix("/gone") && $0.attempts == 3 })
            #expect(Set(failures.map(\.notification)) == ["will-present", "did-finish"])
        }
    }

    @Test("A webhook that does not answer never holds up playback")
    func neverBlocksPlayback() async throws {
        let receiver = Receiver()
        try await Self.receiverApplication(receiver).test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let root = ScratchFolder.reserve("marquee-webhooks")
            let server = MarqueeServer(library: try MediaLibrary(location: LibraryLocation(dataDirectory: root)))
            try await server.interstitialWebhooks.set(
                InterstitialWebhookSettings(urls: ["http://127.0.0.1:\(port)/hang"], timeoutSeconds: 30, retries: 0))
            let ad = InterstitialEvent(id: "ad-1", time: 10, url: "/api/assets/ad/manifest.json", duration: 5)
            await server.sessions.insert(Self.session(id: "s2", ad: ad))
            await server.sessions.report(.ready(duration: 60), to: "s2")
            _ = await server.sessions.apply(.play, to: "s2")
            await server.sessions.report(.time(9.8), to: "s2")
            await server.sessions.report(.time(10), to: "s2")
            // The will-present POST reached the webhook, which holds it unanswered…
            try await eventually("the will-present POST to reach /hang", pollingEvery: .milliseconds(100)) { await receiver.arrivals("/hang") == 1 }
            // …while the break plays on and ends, and the primary resumes.
            await server.sessions.report(.ended, to: "s2")
            #expect(await server.sessions.session(id: "s2")?.activeInterstitial == nil)
            #expect(await server.sessions.session(id: "s2")?.status == .playing)
            #expect(await receiver.bodies("/hang").isEmpty, "neither POST has been answered")
            await receiver.openGate()
            try await eventually("both notifications at /hang once it answers", pollingEvery: .milliseconds(100)) { await receiver.bodies("/hang").count == 2 }
        }
    }

    /// A loopback port with nothing listening (the kernel's pick, bound, then closed).
    static func closedPort() throws -> Int { try FreePort.pick() }
}
