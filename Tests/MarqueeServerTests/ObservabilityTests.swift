import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Library
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization
import Testing

@testable import MarqueeServer
@testable import ServerLogging

/// What an operator watches a node with: `/livez` and `/readyz`, Prometheus metrics that count
/// requests by route template (not by raw path) and move with traffic, a request id in every
/// answer and in the log lines of its request, and who may read `/metrics`.
@Suite("Health, metrics and request ids")
struct ObservabilityTests {
    /// Log lines collected from a `LogLineHandler` writing JSON.
    final class CollectedLines: Sendable {
        final class Lines: Sendable {
            let value = Mutex<[String]>([])
        }
        let lines = Lines()
        let output: LogOutput
        init() {
            let lines = lines
            output = LogOutput(sink: { line in lines.value.withLock { $0.append(line) } })
        }
        var objects: [[String: Any]] {
            output.flush()
            return lines.value.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func logger(_ label: String) -> Logger {
            let output = output
            return Logger(label: label) { LogLineHandler(label: $0, format: .json, level: .trace, output: output) }
        }
    }

    /// The value of `metric` with exactly these labels in a Prometheus exposition (0 when absent).
    static func value(_ exposition: String, _ metric: String, _ labels: [String: String]) -> Double {
        for line in exposition.split(separator: "\n") where line.hasPrefix(metric + "{") || line.hasPrefix(metric + " ") {
            let text = String(line)
            guard let close = text.lastIndex(of: " ") else { continue }
            let name = text[..<close]
            let found = labels.allSatisfy { name.contains("\($0.key)=\"\($0.value)\"") }
            let count = name.filter { $0 == "=" }.count
            if found, count == labels.count { return Double(text[text.index(after: close)...]) ?? 0 }
        }
        return 0
    }

    @Test func livezAndReadyzAnswerWithEveryCheck() async throws {
        let fixture = try await ServerFixture.shared.value
        var server = MarqueeServer(library: fixture.library)
        server.readinessLimit = .seconds(120)  // a busy machine's slow answer is not the point here
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            try await client.execute(uri: "/livez", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.text == #"{"status":"live"}"#)
            }
            try await client.execute(uri: "/readyz", method: .get) { response throws in
                #expect(response.status == .ok)
                let body = try JSONDecoder().decode(HealthRoutes.Readiness.self, from: Data(buffer: response.body))
                #expect(body.status == "ready" && body.message == nil)
                #expect(body.checks.map(\.name) == ["database", "queue"])  // media in a folder: no bucket to ask
                #expect(body.checks.allSatisfy { $0.ok })
            }
        }
    }

    @Test func metricsCountRequestsByRouteTemplateAndMoveWithTraffic() async throws {
        let fixture = try await ServerFixture.shared.value
        var server = MarqueeServer(library: fixture.library)
        server.readinessLimit = .seconds(120)
        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let before = try await client.execute(uri: "/metrics", method: .get) { $0 }
            #expect(before.status == .ok)
            #expect(before.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let labels = ["route": "/api/assets/{id}", "method": "GET", "status": "200"]
            #expect(Self.value(before.text, "marquee_http_requests_total", labels) == 0)
            // Two assets, one route: one series, and neither id appears.
            for id in [fixture.clipID, fixture.adID] {
                let answer = try await client.execute(uri: "/api/assets/\(id)", method: .get) { $0 }
                #expect(answer.status == .ok)
            }
            _ = try await client.execute(uri: "/api/assets/no-such-asset", method: .get) { $0 }
            let after = try await client.execute(uri: "/metrics", method: .get) { $0 }.text
            #expect(Self.value(after, "marquee_http_requests_total", labels) == 2)
            #expect(Self.value(after, "marquee_http_requests_total", ["route": "/api/assets/{id}", "method": "GET", "status": "404"]) == 1)
            #expect(Self.value(after, "marquee_http_request_duration_seconds_count", labels) == 2)
            #expect(Self.value(after, "marquee_http_response_bytes_total", labels) > 100)
            #expect(!after.contains(fixture.clipID) && !after.contains("no-such-asset"))
            // The queue by state and the open sessions, read when scraped.
            #expect(Self.value(after, "marquee_jobs", ["state": "succeeded"]) >= 2)
            #expect(after.contains("marquee_playback_sessions "))
            #expect(Self.value(after, "marquee_ready", ["check": "database"]) == 1)
        }
    }

    @Test func mediaAnsweredOnTheEventLoopIsCountedUnderTheMediaRoute() async throws {
        let fixture = try await ServerFixture.shared.value
        let (uri, file, bytes) = try CachedMediaTests.segment(fixture)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = MarqueeServer(library: fixture.library)
        server.mediaFiles.cache.trust = .seconds(600)
        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let routed = try await client.execute(uri: uri, method: .get) { $0 }
            let cached = try await client.execute(uri: uri, method: .get, headers: [RequestID.headerName: "balancer-42"]) { $0 }
            #expect(routed.status == .ok && cached.status == .ok)
            #expect(server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) == 1)
            #expect(cached.headers[RequestID.headerName] == "balancer-42")
            #expect(routed.headers[RequestID.headerName] != nil)
            let metrics = try await client.execute(uri: "/metrics", method: .get) { $0 }.text
            let labels = ["route": ServerMetrics.mediaRoute, "method": "GET", "status": "200"]
            #expect(Self.value(metrics, "marquee_http_requests_total", labels) == 2)
            #expect(Self.value(metrics, "marquee_http_response_bytes_total", labels) == Double(2 * bytes.count))
        }
    }

    @Test func everyAnswerCarriesARequestIDThatItsLogLinesShare() async throws {
        let fixture = try await ServerFixture.shared.value
        let collected = CollectedLines()
        var server = MarqueeServer(library: fixture.library)
        server.accessLog = collected.logger("marquee.access")
        try await server.application(host: "127.0.0.1", port: 0, logger: collected.logger("marquee")).test(.router) { client in
            let made = try await client.execute(uri: "/api/assets", method: .get) { $0 }
            let madeID = try #require(made.headers[RequestID.headerName])
            #expect(RequestID.isSane(madeID))
            let kept = try await client.execute(uri: "/api/assets", method: .get, headers: [RequestID.headerName: "nginx-7f3a.1"]) { $0 }
            #expect(kept.headers[RequestID.headerName] == "nginx-7f3a.1")
            // An id a log line or a header could be forged with is replaced.
            let replaced = try await client.execute(uri: "/nowhere", method: .get, headers: [RequestID.headerName: "a b\"c"]) { $0 }
            #expect(replaced.status == .notFound)
            let replacedID = try #require(replaced.headers[RequestID.headerName])
            #expect(replacedID != "a b\"c" && RequestID.isSane(replacedID))
            let long = String(repeating: "x", count: 200)
            let tooLong = try await client.execute(uri: "/api/assets", method: .get, headers: [RequestID.headerName: long]) { $0 }
            #expect(tooLong.headers[RequestID.headerName] != long)

            let access = collected.objects.filter { $0["label"] as? String == "marquee.access" }
            #expect(access.count == 4)
            let first = try #require(access.first)
            #expect(first["request.id"] as? String == madeID)
            #expect(first["method"] as? String == "GET" && first["path"] as? String == "/api/assets")
            #expect(first["route"] as? String == "/api/assets" && first["status"] as? String == "200")
            #expect(Int(first["bytes"] as? String ?? "") ?? 0 > 0)
            #expect((first["time"] as? String)?.hasSuffix("Z") == true)
            #expect(access[1]["request.id"] as? String == "nginx-7f3a.1")
            #expect(access[2]["route"] as? String == "unmatched" && access[2]["status"] as? String == "404")
        }
    }

    @Test func onASignInServerMetricsAreTheOwnersOrTheMetricsTokens() async throws {
        let fixture = try await ServerFixture.shared.value
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let viewer = try await accounts.createAccount(name: "vic", password: "viewer password", role: .viewer)
        let (_, ownerToken) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, viewerToken) = try await accounts.createToken(accountID: viewer.id!, label: "t")
        let access = ServerAccess(mode: .signInRequired, accounts: accounts, metricsToken: "scrape-secret-1")
        try await MarqueeServer(library: fixture.library, access: access).application(host: "127.0.0.1", port: 0).test(.router) { client in
            #expect(try await client.execute(uri: "/metrics", method: .get) { $0 }.status == .unauthorized)
            let viewers = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(viewerToken.value)"]) { $0 }
            #expect(viewers.status == .forbidden)
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer scrape-secret-2"]) { $0 }
            #expect(wrong.status == .unauthorized)
            let owners = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(ownerToken.value)"]) { $0 }
            #expect(owners.status == .ok)
            let scraper = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer scrape-secret-1"]) { $0 }
            #expect(scraper.status == .ok && scraper.text.contains("marquee_http_requests_total"))
            // The metrics token opens nothing else.
            let elsewhere = try await client.execute(uri: "/api/assets", method: .get, headers: [.authorization: "Bearer scrape-secret-1"]) { $0 }
            #expect(elsewhere.status == .unauthorized)
            // Health checks stay public (whatever the checks find on a busy machine).
            #expect(try await client.execute(uri: "/livez", method: .get) { $0 }.status == .ok)
            #expect([.ok, .serviceUnavailable].contains(try await client.execute(uri: "/readyz", method: .get) { $0 }.status))
        }
    }

    @Test func logLinesCarryAUTCTimestampAndAreValidJSONOrText() throws {
        let json = LogLineHandler(label: "marquee.test", format: .json)
        let line = json.line(
            level: .warning, message: "said \"hi\"\nthen left", metadata: ["request.id": "r-1", "message": "ignored", "n": .array(["1", "2"])],
            time: LogTimestamp.format(seconds: 1_796_256_000, milliseconds: 7))
        #expect(line.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-12-03T00:00:00.007Z")
        #expect(object["level"] as? String == "warning" && object["label"] as? String == "marquee.test")
        #expect(object["message"] as? String == "said \"hi\"\nthen left")
        #expect(object["request.id"] as? String == "r-1" && object["n"] as? [String] == ["1", "2"])
        let text = LogLineHandler(label: "marquee.test", format: .text).line(
            level: .info, message: "GET / 200", metadata: ["path": "/a b", "status": "200"], time: "2026-12-03T00:00:00.007Z")
        #expect(text == "2026-12-03T00:00:00.007Z info marquee.test: GET / 200 path=\"/a b\" status=200\n")
    }

    @Test("A text line's value is quoted when it has a space, tab, quote, = or line break, in any script")
    func textValuesAreQuotedWhenTheyMustBe() {
        let plain = ["/media/a/segment-00001.m4s", "200", "新宿駅", "é", "-"]
        let quoted = ["", "a b", "a\"b", "a=b", "a\nb", "a\rb", "新宿 駅", "a\u{2028}b", "a\u{85}b", "\t"]
        for value in plain { #expect(LogLineHandler.text(.string(value)) == value, "\(value)") }
        for value in quoted { #expect(LogLineHandler.text(.string(value)) == JSONText.quoted(value), "\(value.debugDescription)") }
    }
}

/// Log lines written from many tasks at once reach the file descriptor whole, each task's in
/// its order, none lost, and all of them by `flush` (they are written in batches).
@Suite("Log output")
struct LogOutputTests {
    @Test func linesFromManyWritersArriveWholeInOrderAndByFlush() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let output = LogOutput(fileDescriptor: writeEnd)
        // The pipe is read on a thread of its own (a blocking read has no place on Swift's pool).
        let collected = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &chunk, chunk.count)
                if count <= 0 { break }
                collected.withLock { $0 += chunk[0..<count] }
            }
            done.signal()
        }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask { for line in 0..<500 { output.write("writer \(writer) line \(line) \(String(repeating: "x", count: 40))\n") } }
            }
        }
        output.flush()
        close(writeEnd)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        let lines = String(decoding: collected.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2000)
        for writer in 0..<4 {
            let mine = lines.filter { $0.hasPrefix("writer \(writer) ") }.map { Int($0.split(separator: " ")[3])! }
            #expect(mine == Array(0..<500), "writer \(writer)")
        }
    }
}

extension LogOutputTests {
    @Test("A line gathered for a write reaches the descriptor by itself, without a flush")
    func gatheredLinesAreWrittenWithoutAFlush() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer {
            close(readEnd)
            close(writeEnd)
        }
        #expect(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) == 0)
        let output = LogOutput(fileDescriptor: writeEnd, gathering: .milliseconds(20))
        output.write("first\n")
        output.write("second\n")
        var chunk = [UInt8](repeating: 0, count: 256)
        var text = ""
        let deadline = ContinuousClock.now + .seconds(5)
        while text != "first\nsecond\n", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            let count = read(readEnd, &chunk, chunk.count)
            if count > 0 { text += String(decoding: chunk[0..<count], as: UTF8.self) }
        }
        #expect(text == "first\nsecond\n")
    }

    @Test("Timestamps: UTC to the millisecond, the same as formatting each one afresh")
    func timestamps() throws {
        let shape = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        for _ in 0..<2000 {
            let stamp = LogTimestamp.now()
            #expect(stamp.wholeMatch(of: shape) != nil, "\(stamp)")
        }
        #expect(LogTimestamp.format(seconds: 1_796_226_000, milliseconds: 7) == "2026-12-02T15:40:00.007Z")
        let before = Date().timeIntervalSince1970
        let stamp = LogTimestamp.now()
        let seconds = Int(before)
        // Within a second or two of the clock, formatted as format() formats it.
        let candidates = (seconds...(seconds + 2)).map { LogTimestamp.format(seconds: $0, milliseconds: 0).dropLast(4) }
        #expect(candidates.contains { stamp.hasPrefix($0) }, "\(stamp)")
    }
}
