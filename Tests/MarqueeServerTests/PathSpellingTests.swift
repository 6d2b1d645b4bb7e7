import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

/// Every spelling of a path is the same route with the same permission and the same rate
/// limit: `//api/users`, `/api/users/`, `/./api/users`, `/x/../api/users`, `/api%2Fusers`,
/// `/api/%2e/users`, `/%61pi/users`, `/API/USERS` all get, for every role, the answer
/// `/api/users` gets — through the real middleware stack and router.
@Suite("Path spellings: one route, one permission, one limit")
struct PathSpellingTests {
    /// One documented operation with its parameters filled in.
    struct Operation: CustomStringConvertible {
        var method: HTTPRequest.Method
        var template: String
        /// The path's segments, and whether each is a route name (not a parameter).
        var segments: [(text: String, isName: Bool)]
        var streams: Bool

        var description: String { "\(method) \(template)" }
        var canonical: String { "/" + segments.map(\.text).joined(separator: "/") }

        /// The ways a client may spell this operation's path.
        var spellings: [String] {
            let texts = segments.map(\.text)
            func join(_ parts: [String]) -> String { "/" + parts.joined(separator: "/") }
            var result = [
                "/" + canonical, canonical + "/", "/." + canonical, "/nothing/.." + canonical, "/%2e" + canonical,
                "/nothing/%2E%2e" + canonical, join(segments.map { $0.isName ? $0.text.uppercased() : $0.text }),
            ]
            if let first = texts.first, let byte = first.utf8.first {
                result.append("/%" + String(byte, radix: 16) + String(first.dropFirst()) + join(Array(texts.dropFirst())))
                result.append(join([first.prefix(1).uppercased() + first.dropFirst()] + texts.dropFirst()))
            }
            if texts.count >= 2 {
                result.append("/" + texts[0] + "//" + texts.dropFirst().joined(separator: "/"))
                result.append("/" + texts[0] + "%2F" + texts.dropFirst().joined(separator: "/"))
                result.append("/" + texts[0] + "%2f./" + texts.dropFirst().joined(separator: "/"))
                result.append("/" + texts[0] + "/./" + texts.dropFirst().joined(separator: "/") + "//")
            }
            return result.map { $0.replacingOccurrences(of: "///", with: "//") }
        }
    }

    static func operations() throws -> [Operation] {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [Operation] = []
        for (template, item) in paths.sorted(by: { $0.key < $1.key }) {
            for (name, value) in item.sorted(by: { $0.key < $1.key }) {
                guard let method = HTTPRequest.Method(name.uppercased()), ["get", "put", "post", "delete", "head", "patch"].contains(name),
                    let operation = value as? [String: Any]
                else { continue }
                let responses = operation["responses"] as? [String: [String: Any]] ?? [:]
                let streams = responses.values.contains { ($0["content"] as? [String: Any])?["text/event-stream"] != nil }
                let segments = template.split(separator: "/").map { part -> (String, Bool) in
                    if part == "{path}" { return ("thing.txt", false) }
                    return part.hasPrefix("{") ? ("nothing-here", false) : (String(part), true)
                }
                operations.append(Operation(method: method, template: template, segments: segments, streams: streams))
            }
        }
        return operations
    }

    @Test("For every documented operation and every spelling, every role gets the canonical spelling's answer")
    func everySpellingGetsTheCanonicalDecision() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        let accounts = AccountService(store: try SQLiteAccountStore(url: temp.root.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let viewer = try await accounts.createAccount(name: "vic", password: "viewer password", role: .viewer)
        let (_, ownerToken) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, viewerToken) = try await accounts.createToken(accountID: viewer.id!, label: "t")
        var server = MarqueeServer(
            library: temp.library, downloads: DownloadService(library: temp.library),
            rateLimits: RateLimits(burst: 1_000_000, refillPerSecond: 1_000_000),
            access: ServerAccess(mode: .signInRequired, accounts: accounts),
            signInLimits: RateLimits(burst: 1_000_000, refillPerSecond: 1_000_000))
        server.activities = try await LiveActivityHost.start(library: temp.library, downloads: nil, sessions: nil, apns: nil)
        server.nearby = try NearbyDevices(directory: nil, name: "TV", sessions: server.sessions)
        let roles: [(name: String, role: Role?, headers: HTTPFields)] = [
            ("signed out", nil, [:]),
            ("viewer", .viewer, [.authorization: "Bearer \(viewerToken.value)"]),
            ("owner", .owner, [.authorization: "Bearer \(ownerToken.value)"]),
        ]
        let operations = try Self.operations()
        #expect(operations.count > 90)  // the document was read
        let compared = try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let port = try #require(client.port)
            var compared = 0
            for operation in operations {
                for role in roles {
                    // An event stream never ends: its answer is read up to the status line.
                    func answer(_ target: String) async throws -> Int {
                        if operation.streams { return try await StatusLine.read(port: port, method: operation.method, target: target, headers: role.headers) }
                        return try await client.execute(uri: target, method: operation.method, headers: role.headers) { Int($0.status.code) }
                    }
                    let expected = try await answer(operation.canonical)
                    for spelling in operation.spellings {
                        let status = try await answer(spelling)
                        #expect(status == expected, "\(role.name): \(operation.method) \(spelling) answered \(status), \(operation.canonical) \(expected)")
                        compared += 1
                    }
                }
            }
            return compared
        }
        #expect(compared > 2_000)
    }

    @Test("The rate limit of a route counts every spelling of it in one bucket")
    func rateLimitsCountEverySpelling() async throws {
        let fixture = try await ServerFixture.shared.value
        let server = MarqueeServer(library: fixture.library, rateLimits: RateLimits(burst: 3, refillPerSecond: 0.001))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            for spelling in ["/api/sessions", "//api/sessions", "/api/sessions/"] {
                try await client.execute(uri: spelling, method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)"}"#)) { response throws in
                    #expect(response.status == .created, "\(spelling)")
                }
            }
            for spelling in ["/API/Sessions", "//api//sessions/", "/api/./sessions", "/api%2Fsessions"] {
                try await client.execute(uri: spelling, method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)"}"#)) { response throws in
                    #expect(response.status == .tooManyRequests, "\(spelling)")
                }
            }
        }
    }

    @Test("A path that cannot be read is a 400 with a sentence")
    func unreadablePathsAreRefused() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            for path in ["/api/assets%", "/api/assets%zz", "/api/%00assets", "/api/assets%0a"] {
                try await client.execute(uri: path, method: .get) { response throws in
                    #expect(response.status == .badRequest, "\(path)")
                    #expect(response.errorMessage.contains("request path"), "\(path)")
                }
            }
        }
    }
}

/// The status code of one request over a raw loopback socket, read without waiting for the
/// body (an event stream's never ends). The socket work runs on a thread of its own.
enum StatusLine {
    static func read(port: Int, method: HTTPRequest.Method, target: String, headers: HTTPFields) async throws -> Int {
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: 0\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try exchange(port: port, request: request) })
            }.start()
        }
    }

    struct Failure: Error { var reason: String }

    static func exchange(port: Int, request: [UInt8]) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(reason: "socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(reason: "connect") }
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else { throw Failure(reason: "send") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(reason: "closed before a status line") }
            received += buffer[..<count]
        }
        let line = String(decoding: received, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, let status = Int(line[1]) else { throw Failure(reason: "no status line") }
        return status
    }
}

@Suite("Canonical paths")
struct CanonicalPathTests {
    @Test func spellingsReduceToOnePath() throws {
        let cases: [(String, String)] = [
            ("/", "/"), ("//", "/"), ("/./", "/"), ("/..", "/"), ("/api/users", "/api/users"), ("//api/users", "/api/users"),
            ("/api/users/", "/api/users"), ("/api//users", "/api/users"), ("/api/./users", "/api/users"),
            ("/x/../api/users", "/api/users"), ("/../../api/users", "/api/users"), ("/api%2Fusers", "/api/users"),
            ("/api/%2e/users", "/api/users"), ("/api/x/%2E%2e/users", "/api/users"), ("/%61pi/users", "/api/users"),
            ("/media/a%20b", "/media/a%20b"), ("/media/a%c3%a9", "/media/a%C3%A9"), ("/media/a%25b", "/media/a%25b"),
            ("/media/a%3Fb", "/media/a%3Fb"), ("/media/...", "/media/..."), ("/API/Users", "/API/Users"),
            ("/media/a:b@c", "/media/a:b@c"),
        ]
        for (spelling, canonical) in cases {
            #expect(try CanonicalPath(spelling).text == canonical, "\(spelling)")
            #expect(CanonicalPath.isCanonical(canonical), "\(canonical)")
        }
        for bad in ["", "api", "/a%", "/a%2", "/a%zz", "/a%00", "/a\u{7F}", "/a%0D%0A"] {
            #expect(throws: CanonicalPath.Failure.self, "\(bad)") { try CanonicalPath(bad) }
        }
    }
}
