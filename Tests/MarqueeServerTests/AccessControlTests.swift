import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

@Suite("Access control")
struct AccessControlTests {
    @Test("The mode follows the bound address, never the client's")
    func modeFollowsTheBoundAddress() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"] {
            #expect(AccessMode.forBindAddress(host) == .open, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.2", "tv.local", "128.0.0.1"] {
            #expect(AccessMode.forBindAddress(host) == .signInRequired, "\(host)")
        }
        #expect(AccessMode.forBindAddress("127.0.0.1", requireSignIn: true) == .signInRequired)
    }

    @Test("Each route needs the permission its role table says")
    func rules() {
        func p(_ method: HTTPRequest.Method, _ path: String) -> Permission { AccessRules.permission(method: method, path: path) }
        #expect(p(.get, "/signin") == .signIn)
        #expect(p(.post, "/api/auth/signin") == .signIn)
        #expect(p(.get, "/ui/js/signin.js") == .signIn)
        #expect(p(.get, "/ui/js/library.js") == .browse)
        #expect(p(.get, "/api/assets") == .browse)
        #expect(p(.get, "/media/abc/master.m3u8") == .browse)
        #expect(p(.post, "/api/assets") == .manage)
        #expect(p(.delete, "/api/assets/abc") == .manage)
        #expect(p(.put, "/api/settings/player") == .manage)
        #expect(p(.post, "/api/sessions") == .play)
        #expect(p(.post, "/api/sessions/x/intents") == .play)
        #expect(p(.get, "/api/sessions/x/renderer") == .play)
        #expect(p(.put, "/api/assets/abc/position") == .play)
        #expect(p(.get, "/api/downloads") == .manage)
        #expect(p(.get, "/api/downloads/x/files/a.m4s") == .browse)
        #expect(p(.get, "/api/users") == .manage)
        #expect(p(.post, "/api/tokens") == .ownAccount)
        #expect(p(.patch, "/api/anything-new") == .manage)
        #expect(p(.get, "/devices") == .manage)
        #expect(p(.get, "/api/devices") == .manage)
        #expect(p(.post, "/api/devices/pairings/x") == .manage)
        #expect(p(.delete, "/api/devices/x") == .manage)
        #expect(p(.get, "/api/devices/link") == .signIn)
        // The web remote opens signed out (pairing guards the link); nothing else under /ui does.
        #expect(p(.get, "/remote") == .signIn)
        #expect(p(.get, "/api/devices/screen") == .play)
        #expect(p(.get, "/ui/js/devicelink/link-client.js") == .signIn)
        #expect(p(.get, "/ui/js/remote/remote.js") == .signIn)
        #expect(p(.get, "/ui/css/remote.css") == .signIn)
        #expect(p(.get, "/ui/js/devicelink/../library.js") == .browse)
        #expect(p(.get, "/ui/js/library.js") == .browse)
        #expect(p(.post, "/remote") == .manage)
        #expect(Permission.manage.allows(.owner) && !Permission.manage.allows(.viewer) && !Permission.manage.allows(.pairedDevice))
        #expect(Permission.browse.allows(.viewer) && !Permission.browse.allows(.pairedDevice))
        #expect(Permission.play.allows(.pairedDevice))
    }

    @Test("Server paths are left out of messages for everyone but the owner")
    func redaction() {
        let message = "Could not open /home/ann/Videos/holiday.mp4: Invalid data; see /api/jobs/3 or https://example.com/a/b"
        #expect(ServerPathVisibility.redactPaths(message) == "Could not open …/holiday.mp4: Invalid data; see /api/jobs/3 or https://example.com/a/b")
        #expect(ServerPathVisibility.redactPaths("No file or folder at \"/srv/media/x\"") == "No file or folder at \"…/x\"")
        ServerPathVisibility.$revealed.withValue(true) { #expect(ServerPathVisibility.redact(message) == message) }
        ServerPathVisibility.$revealed.withValue(false) { #expect(!ServerPathVisibility.redact(message).contains("/home/ann")) }
    }

    @Test("Off loopback: 401 without sign-in, a viewer gets 403 on owner routes, the owner's errors keep paths")
    func middleware() async throws {
        let fixture = try await ServerFixture.shared.value
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let viewer = try await accounts.createAccount(name: "vic", password: "viewer password", role: .viewer)
        let (_, ownerToken) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, viewerToken) = try await accounts.createToken(accountID: viewer.id!, label: "t")
        let server = MarqueeServer(library: fixture.library, access: ServerAccess(mode: .signInRequired, accounts: accounts))
        let missing = "/nowhere/at/all/file.mp4"
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            try await client.execute(uri: "/api/assets", method: .get) { response throws in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            try await client.execute(uri: "/api/assets", method: .get, headers: [.authorization: "Bearer \(viewerToken.value)"]) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/api/assets", method: .post, headers: [.authorization: "Bearer \(viewerToken.value)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"paths":["\#(missing)"]}"#)
            ) { response throws in
                #expect(response.status == .forbidden)
                #expect(!response.text.contains(missing))
            }
            try await client.execute(
                uri: "/api/assets", method: .post, headers: [.authorization: "Bearer \(ownerToken.value)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"paths":["\#(missing)"]}"#)
            ) { response throws in
                #expect(response.status == .notFound)  // nothing at that path (issue 24)
                #expect(response.text.contains(missing))
            }
            // A viewer's own 4xx from a route they may use: the path stays out.
            try await client.execute(
                uri: "/api/assets/\(fixture.clipID)/position", method: .put,
                headers: [.authorization: "Bearer \(viewerToken.value)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"position": -1}"#)
            ) { response throws in
                #expect(response.status.code < 500)
            }
            try await client.execute(uri: "/api/assets", method: .get, headers: [.authorization: "Basic abc"]) { response throws in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
