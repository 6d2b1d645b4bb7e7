import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Library
import NIOCore
import NIOFoundationCompat
import Synchronization
import Testing

@testable import MarqueeServer

/// Bundle files already in the cache are answered on the event loop (`CachedMediaHandler`)
/// over real connections: the same statuses, bytes, ranges and headers as the routed path,
/// changes on disk seen after the revalidation interval, and the access rules applied to
/// every request.
@Suite("Cached media answered on the event loop")
struct CachedMediaTests {
    /// A segment-sized file of random bytes in the fixture clip's bundle.
    static func segment(_ fixture: ServerFixture, size: Int = 150_000) throws -> (uri: String, file: URL, bytes: Data) {
        let name = "fast-\(UUID().uuidString).m4s"
        let file = fixture.library.location.bundleDirectory(for: fixture.clipID).appendingPathComponent(name)
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: file)
        return ("/media/\(fixture.clipID)/\(name)", file, bytes)
    }

    @Test func cachedSegmentsWholeRangesAndValidatorsMatchTheRoutedAnswers() async throws {
        let fixture = try await ServerFixture.shared.value
        let (uri, file, bytes) = try Self.segment(fixture)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = MarqueeServer(library: fixture.library)
        let answered: @Sendable () -> Int = { server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) }
        // Every request here finds the file checked recently enough, however slow the machine.
        server.mediaFiles.cache.trust = .seconds(600)

        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            // The first request goes through the router and fills the cache.
            let routed = try await client.execute(uri: uri, method: .get) { response throws in response }
            #expect(routed.status == .ok)
            #expect(Data(buffer: routed.body) == bytes)
            #expect(answered() == 0)
            let fast = try await client.execute(uri: uri, method: .get) { response throws in response }
            #expect(answered() == 1)
            #expect(fast.status == .ok)
            #expect(Data(buffer: fast.body) == bytes)
            for name: HTTPField.Name in [
                .contentType, .contentLength, .eTag, .lastModified, .cacheControl, .acceptRanges, .xContentTypeOptions,
                .referrerPolicy, .server,
            ] {
                #expect(fast.headers[name] != nil && fast.headers[name] == routed.headers[name], "\(name)")
            }
            #expect(fast.headers[.date] != nil)
            #expect(fast.headers[FileRegionSink.headerName] == nil)
            let eTag = try #require(fast.headers[.eTag])

            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=1000-1099"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 1000-1099/\(bytes.count)")
                #expect(response.headers[.contentLength] == "100")
                #expect(Data(buffer: response.body) == bytes[1000...1099])
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-7"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(Data(buffer: response.body) == bytes.suffix(7))
            }
            // If-Range with another validator: the whole file.
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"other\""]) { response throws in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == bytes.count)
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: eTag]) { response throws in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == eTag)
            }
            try await client.execute(uri: uri, method: .head) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(bytes.count))
                #expect(response.body.readableBytes == 0)
            }
            #expect(answered() == 6)
            // An unsatisfiable range is left to the router: its JSON 416.
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=\(bytes.count)-"]) { response throws in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(bytes.count)")
                #expect(response.headers[.contentType]?.contains("json") == true)
                #expect(response.text.contains("416"))
            }
            #expect(answered() == 6)
            // And the connection still serves from the cache after the router answered.
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(Data(buffer: response.body) == bytes)
            }
            #expect(answered() == 7)
        }
    }

    @Test func onlyPlainBundlePathsAreAnsweredOnTheEventLoop() {
        #expect(CachedMediaAnswers.plainMediaPath("/media/a1/video/seg-1.m4s") == "/media/a1/video/seg-1.m4s")
        #expect(CachedMediaAnswers.plainMediaPath("/media/a1/seg.m4s?x=1") == "/media/a1/seg.m4s")
        #expect(CachedMediaAnswers.plainMediaPath("/media/a1/.hidden.m4s") == "/media/a1/.hidden.m4s")
        for path in [
            "/media/a1", "/media/a1/", "/media/a1//seg.m4s", "/media/a1/../x/seg.m4s", "/media/a1/./seg.m4s",
            "/media/a1/..", "/media/a1/%2e%2e/x", "/media/a1/a\\b", "/media/a1/video/index.m3u8", "/media/a1/MASTER.M3U8",
            "/ui/js/player.js", "/api/assets",
        ] {
            #expect(CachedMediaAnswers.plainMediaPath(path) == nil, "\(path)")
        }
    }

    @Test func aFileReplacedOrRemovedOnDiskIsNotServedStale() async throws {
        let fixture = try await ServerFixture.shared.value
        let (uri, file, first) = try Self.segment(fixture, size: 40_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = MarqueeServer(library: fixture.library)
        // The time a cached file is trusted is the test's to move: long while a cached answer is
        // expected (the second request came more than the usual second later in a loaded run),
        // zero where it has run out, instead of sleeping past `revalidateAfter`.
        let cache = server.mediaFiles.cache
        cache.trust = .seconds(600)
        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let firstTag = try await client.execute(uri: uri, method: .get) { response throws in
                #expect(Data(buffer: response.body) == first)
                return response.headers[.eTag]
            }
            _ = try await client.execute(uri: uri, method: .get) { response throws in #expect(Data(buffer: response.body) == first) }
            #expect(server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) >= 1)
            // Replaced the way packagers do (a new file renamed over the old one).
            let second = Data(first.reversed().prefix(30_000))
            let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).tmp")
            try second.write(to: temporary)
            #expect(rename(temporary.path, file.path) == 0)
            cache.trust = .zero  // the cached entry's trust has run out
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(Data(buffer: response.body) == second)
                #expect(response.headers[.eTag] != firstTag)
            }
            // The new file is then served from the cache, and its old validator no longer matches.
            cache.trust = .seconds(600)
            let answeredBefore = server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed)
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: firstTag ?? "-"]) { response throws in
                #expect(response.status == .ok)
                #expect(Data(buffer: response.body) == second)
            }
            #expect(server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) == answeredBefore + 1)
            try FileManager.default.removeItem(at: file)
            cache.trust = .zero
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func theAccessRulesApplyToEveryCachedAnswer() async throws {
        let fixture = try await ServerFixture.shared.value
        let (uri, file, bytes) = try Self.segment(fixture, size: 20_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fast-access-\(UUID().uuidString)")
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let device = try await accounts.createAccount(name: "tv", password: "device password", role: .pairedDevice)
        let (ownerCredential, ownerToken) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, deviceToken) = try await accounts.createToken(accountID: device.id!, label: "t")
        let server = MarqueeServer(library: fixture.library, access: ServerAccess(mode: .signInRequired, accounts: accounts))
        let answered: @Sendable () -> Int = { server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) }
        server.mediaFiles.cache.trust = .seconds(600)
        let asOwner: HTTPFields = [.authorization: "Bearer \(ownerToken.value)"]

        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            for _ in 0..<2 {
                try await client.execute(uri: uri, method: .get, headers: asOwner) { response throws in
                    #expect(response.status == .ok)
                    #expect(Data(buffer: response.body) == bytes)
                }
            }
            #expect(answered() == 1)
            // The file is cached and hot, yet nobody else gets it.
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer mqt_not-a-token"]) { response throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: uri, method: .get, headers: [.cookie: "marquee_session=not-a-session"]) { response throws in
                #expect(response.status == .unauthorized)
            }
            // A paired device may play but not browse media, also once its token is known.
            for _ in 0..<2 {
                try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(deviceToken.value)"]) {
                    response throws in
                    #expect(response.status == .forbidden)
                }
            }
            // A token used as a session cookie is not a session.
            try await client.execute(uri: uri, method: .get, headers: [.cookie: "marquee_session=\(ownerToken.value)"]) { response throws in
                #expect(response.status == .unauthorized)
            }
            #expect(answered() == 1)
            // A revoked token stops working at once, cached file or not.
            try await accounts.revoke(credentialID: ownerCredential.id, accountID: owner.id!)
            try await client.execute(uri: uri, method: .get, headers: asOwner) { response throws in
                #expect(response.status == .unauthorized)
            }
            #expect(answered() == 1)
        }
    }

    /// A connection remembers the credential it presented and the host it was accepted under,
    /// so its next segments skip the digest and the checks; the memory never outlives a
    /// revocation, and another credential or host on the same connection is checked afresh.
    @Test func aConnectionRemembersItsCredentialButNeverPastARevocation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fast-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let (credential, token) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, otherToken) = try await accounts.createToken(accountID: owner.id!, label: "u")
        #expect(try await accounts.principal(for: token) != nil)  // known to the service, as after a routed request

        let files = MediaFileResponder()
        files.cache.trust = .seconds(600)  // the entry stays fresh however slow the machine
        let file = directory.appendingPathComponent("seg.m4s")
        files.cache.store(
            ServedFile(
                url: file, size: 3, modified: Date(), kind: .forExtension("m4s"), bytes: ByteBuffer(bytes: [1, 2, 3]), file: nil,
                checked: .now),
            for: "media/a1/seg.m4s")
        let answers = CachedMediaAnswers(
            files: files, originPolicy: RequestOriginPolicy(), access: ServerAccess(mode: .signInRequired, accounts: accounts),
            serverName: nil)
        func request(_ bearer: String, host: String = "127.0.0.1:8080") -> HTTPRequest {
            HTTPRequest(method: .get, scheme: "http", authority: host, path: "/media/a1/seg.m4s", headerFields: [.authorization: "Bearer \(bearer)"])
        }
        var memory = CachedMediaAnswers.ConnectionMemory()

        #expect(answers.answer(request(token.value), canSendFiles: false, remembering: &memory) != nil)
        #expect(memory.credential?.principal.accountID == owner.id)
        #expect(memory.accepted?.host == "127.0.0.1:8080")
        #expect(answers.answer(request(token.value), canSendFiles: false, remembering: &memory) != nil)
        // Another credential on the same connection is not taken for the remembered one.
        #expect(answers.answer(request(otherToken.value), canSendFiles: false, remembering: &memory) == nil)
        #expect(answers.answer(request("mqt_not-a-token"), canSendFiles: false, remembering: &memory) == nil)
        // Nor another host: a rebinding page's name is refused here as on the routed path.
        #expect(answers.answer(request(token.value), canSendFiles: false, remembering: &memory) != nil)
        #expect(answers.answer(request(token.value, host: "attacker.example"), canSendFiles: false, remembering: &memory) == nil)
        #expect(answers.answer(request(token.value), canSendFiles: false, remembering: &memory) != nil)
        // A revocation ends the remembered credential at the next request.
        try await accounts.revoke(credentialID: credential.id, accountID: owner.id!)
        #expect(answers.answer(request(token.value), canSendFiles: false, remembering: &memory) == nil)
        #expect(memory.credential == nil)
    }
}
