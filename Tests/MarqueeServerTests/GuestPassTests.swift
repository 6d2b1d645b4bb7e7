import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// Off loopback, an invitation to watch together is its own credential (issue 28): a person
/// without an account who opens the link gets a guest pass for that group and nothing else,
/// which ends when the invitation is withdrawn or expires.
@Suite("Guests invited to watch together")
struct GuestPassTests {
    let pass = GuestPass(
        secret: "s", invitationToken: "tok", sessionID: "sess", assetID: "film", participantID: "p1", expires: .distantFuture,
        adAssetIDs: ["ad1"])

    @Test func theScopeIsTheGroupsPlayerItsMediaAndItsSessionOnly() {
        func decide(_ method: HTTPRequest.Method, _ path: String) -> GuestScope.Decision { GuestScope.decide(pass, method: method, path: path) }
        for path in [
            "/watch/film", "/ui/js/player/main.js", "/ui/css/player.css", "/media/film/master.m3u8", "/media/film/v0/seg1.m4s",
            "/media/ad1/master.m3u8", "/api/assets/film/manifest.json", "/api/assets/film/frame-text", "/api/assets/film",
            "/api/sessions/sess", "/api/sessions/sess/renderer", "/api/sessions/sess/interstitials/e1/manifest", "/api/settings/player",
            "/together/tok", "/API/Sessions/sess", "/UI/js/i18n.js",
        ] {
            #expect(decide(.get, path) == .allowed, "GET \(path)")
        }
        #expect(decide(.post, "/api/sessions/sess/intents") == .allowed)
        #expect(decide(.post, "/api/together/tok/join") == .allowed)
        // Another asset's files: only if the library holds it as an ad.
        #expect(decide(.get, "/media/other/master.m3u8") == .ifAdAsset("other"))
        for (method, path) in [
            (HTTPRequest.Method.get, "/"), (.get, "/api/library"), (.get, "/api/assets"), (.get, "/watch/other"), (.get, "/watch/film/x"),
            (.get, "/api/assets/other/manifest.json"), (.get, "/api/assets/film/position"), (.put, "/api/assets/film/position"),
            (.delete, "/api/assets/film"), (.post, "/api/assets/film/interstitials"), (.get, "/api/sessions/other"),
            (.post, "/api/sessions/other/intents"), (.delete, "/api/sessions/sess"), (.post, "/api/sessions"),
            (.post, "/api/sessions/sess/group"), (.post, "/api/sessions/sess/group/invitations"),
            (.delete, "/api/sessions/sess/group/invitations"), (.post, "/api/together/another/join"), (.get, "/api/users"),
            (.get, "/api/devices"), (.get, "/api/devices/screen"), (.get, "/api/events"), (.get, "/api/downloads"), (.put, "/api/settings/player"),
            (.post, "/ui/js/player/main.js"), (.get, "/media/film"), (.get, "/downloads"), (.get, "/account"), (.get, "/api/tokens"),
            (.get, "/api/sessions/Sess"), (.get, "/watch/FILM"),
        ] {
            #expect(decide(method, path) == .refused, "\(method) \(path)")
        }
    }

    /// A sign-in-required server with one session of the fixture clip, watched together.
    func groupServer(clock: ManualClock = ManualClock()) async throws -> (MarqueeServer, ServerFixture, String, Secret) {
        let fixture = try await ServerFixture.shared.value
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guests-\(UUID().uuidString)")
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let (_, token) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let sessions = PlaybackSessions(clock: clock)
        var session = PlaybackSession(id: "s1", assetID: fixture.clipID, metadata: DisplayMetadata(title: "Fixture Clip"))
        _ = session.handle(.ready(duration: 4))
        await sessions.insert(session)
        await sessions.insert(PlaybackSession(id: "s2", assetID: fixture.clipID, metadata: DisplayMetadata(title: "Someone else's")))
        _ = try #require(await sessions.attachRenderer(to: "s1"))
        let (_, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Ann")
        let server = MarqueeServer(library: fixture.library, sessions: sessions, access: ServerAccess(mode: .signInRequired, accounts: accounts))
        return (server, fixture, invitation.token, Secret(owner: token.value))
    }

    struct Secret {
        var owner: String
    }

    /// The guest cookie a `Set-Cookie` sets, as a `Cookie` header.
    func guestCookie(_ response: TestResponse) -> String? {
        guard let header = response.headers[.setCookie], header.hasPrefix("\(GuestPass.cookieName)=") else { return nil }
        return header.split(separator: ";").first.map(String.init)
    }

    @Test func aPersonWithoutAnAccountWatchesTheGroupByTheLinkAndNothingElse() async throws {
        let (server, fixture, token, secret) = try await groupServer()
        let sameOrigin: HTTPFields = [.contentType: "application/json"]
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var cookie = ""
            try await client.execute(uri: "/together/\(token)?name=Bea", method: .get, headers: [.accept: "text/html"]) { response throws in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/watch/\(fixture.clipID)?together=\(token)&name=Bea")
                let setCookie = response.headers[.setCookie] ?? ""
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"), "\(setCookie)")
                cookie = try #require(guestCookie(response))
            }
            var guest = sameOrigin
            guest[.cookie] = cookie
            // The player of the group's item, its manifest, its media and the ads its breaks may play.
            for path in [
                "/watch/\(fixture.clipID)", "/api/assets/\(fixture.clipID)/manifest.json", "/media/\(fixture.clipID)/master.m3u8",
                "/media/\(fixture.adID)/master.m3u8", "/api/sessions/s1", "/ui/js/player/main.js",
            ] {
                try await client.execute(uri: path, method: .get, headers: guest) { response throws in
                    #expect(response.status == .ok, "GET \(path): \(response.status)")
                }
            }
            var participantID = ""
            try await client.execute(uri: "/api/together/\(token)/join", method: .post, headers: guest, body: .json(#"{"name":"Bea"}"#)) {
                response throws in
                #expect(response.status == .ok)
                participantID = try response.json(JoinAnswer.self).participantID
            }
            #expect(await server.sessions.group(sessionID: "s1")?.participants.map(\.name) == ["Ann", "Bea"])
            #expect(await server.sessions.guestPass(String(cookie.split(separator: "=")[1]))?.participantID == participantID)
            try await client.execute(uri: "/api/sessions/s1/intents", method: .post, headers: guest, body: .json(#"{"intent":"pause"}"#)) {
                response throws in
                #expect(response.status == .ok)
            }
            // Nothing else: the library, other sessions, ending the group's session, more links.
            for (method, path) in [
                (HTTPRequest.Method.get, "/api/library"), (.get, "/api/sessions/s2"), (.delete, "/api/sessions/s1"), (.post, "/api/sessions"),
                (.post, "/api/sessions/s1/group/invitations"), (.delete, "/api/sessions/s1/group/invitations"), (.get, "/api/users"),
                (.get, "/media/some-other-asset/master.m3u8"), (.get, "//api/library"), (.get, "/api/sessions/./s2"),
            ] {
                try await client.execute(uri: path, method: method, headers: guest, body: .json("{}")) { response throws in
                    #expect(response.status == .forbidden, "\(method) \(path): \(response.status)")
                    #expect(response.errorMessage.contains("watch that group only"), "\(response.text)")
                }
            }
            // The library page sends the guest to sign in, as anyone not signed in.
            var page = guest
            page[.accept] = "text/html"
            try await client.execute(uri: "/", method: .get, headers: page) { response throws in
                #expect(response.status == .seeOther && response.headers[.location]?.hasPrefix("/signin") == true)
            }
            // The owner withdraws the links: the guest's pass ends with them, and they leave the group.
            try await client.execute(
                uri: "/api/sessions/s1/group/invitations", method: .delete, headers: [.authorization: "Bearer \(secret.owner)"]
            ) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/sessions/s1", method: .get, headers: guest) { response throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/together/\(token)", method: .get, headers: page) { response throws in
                #expect(response.status == .notFound)
                #expect(response.headers[.setCookie] == nil)
            }
        }
    }

    struct JoinAnswer: Decodable {
        var participantID: String
    }

    @Test func aGuestPassEndsWhenItsInvitationExpiresAndCannotJoinByAnotherLink() async throws {
        let clock = ManualClock()
        let (server, fixture, token, secret) = try await groupServer(clock: clock)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var cookie = ""
            try await client.execute(uri: "/together/\(token)", method: .get) { response throws in
                cookie = try #require(guestCookie(response))
                let maxAge = response.headers[.setCookie]?.split(separator: ";").first { $0.contains("Max-Age") }
                #expect(maxAge?.trimmingCharacters(in: .whitespaces) == "Max-Age=\(Int(GroupInvitation.lifetime))")
            }
            var other = ""
            try await client.execute(
                uri: "/api/sessions/s1/group/invitations", method: .post, headers: [.authorization: "Bearer \(secret.owner)"]
            ) { response throws in
                #expect(response.status == .created)
                other = try response.json(InvitationAnswer.self).token
            }
            let guest: HTTPFields = [.cookie: cookie, .contentType: "application/json"]
            // A pass is for the link it came from: another link needs its own visit.
            try await client.execute(uri: "/api/together/\(other)/join", method: .post, headers: guest, body: .json("{}")) { response throws in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/watch/\(fixture.clipID)", method: .get, headers: guest) { response throws in
                #expect(response.status == .ok)
            }
            clock.advance(by: .seconds(GroupInvitation.lifetime + 1))
            try await client.execute(uri: "/watch/\(fixture.clipID)", method: .get, headers: guest) { response throws in
                #expect(response.status == .seeOther, "an expired pass is no pass: sign in")
            }
            try await client.execute(uri: "/api/sessions/s1", method: .get, headers: guest) { response throws in
                #expect(response.status == .unauthorized)
            }
        }
    }

    struct InvitationAnswer: Decodable {
        var token: String
    }

    @Test func withdrawingTheLinksClosesTheGuestsPlayer() async throws {
        let sessions = PlaybackSessions(clock: ManualClock())
        var session = PlaybackSession(id: "s1", assetID: "film", metadata: DisplayMetadata(title: "Film"))
        _ = session.handle(.ready(duration: 60))
        await sessions.insert(session)
        _ = try #require(await sessions.attachRenderer(to: "s1"))
        let (_, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Ann")
        let pass = try #require(await sessions.admitGuest(token: invitation.token))
        #expect(pass.assetID == "film" && pass.sessionID == "s1")
        let (_, bea) = try await sessions.joinGroup(token: invitation.token, name: "Bea", guestSecret: pass.secret)
        let (_, stream) = try #require(await sessions.attachRenderer(to: "s1", participantID: bea))
        #expect(await sessions.revokeInvitations(sessionID: "s1") == 1)
        var messages = 0
        for await _ in stream { messages += 1 }  // ends: the guest's socket closes
        #expect(messages >= 1)
        #expect(await sessions.guestPass(pass.secret) == nil)
        #expect(await sessions.group(sessionID: "s1")?.participants.first { $0.id == bea }?.state == .away)
    }

    @Test func theServersTVScreenIsInvitedIntoTheGroupUnderTheTVsName() async throws {
        let fixture = try await ServerFixture.shared.value
        let sessions = PlaybackSessions(clock: ManualClock())
        var session = PlaybackSession(id: "s1", assetID: fixture.clipID, metadata: DisplayMetadata(title: "Fixture Clip"))
        _ = session.handle(.ready(duration: 4))
        await sessions.insert(session)
        _ = try #require(await sessions.attachRenderer(to: "s1"))
        var server = MarqueeServer(library: fixture.library, sessions: sessions)
        let nearby = try NearbyDevices(directory: nil, name: "Living room", sessions: sessions)
        server.nearby = nearby
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            _ = try await sessions.startGroup(sessionID: "s1", name: "Ann")
            try await client.execute(uri: "/api/sessions/s1/group/screens", method: .get) { response throws in
                #expect(try response.json(ScreenCount.self).screens == 0)
            }
            try await client.execute(uri: "/api/sessions/s1/group/screens", method: .post) { response throws in
                #expect(response.status == .conflict)
                #expect(response.errorMessage.contains("This browser is the TV"))
            }
            let (_, requests) = await nearby.screens.open()
            try await client.execute(uri: "/api/sessions/s1/group/screens", method: .get) { response throws in
                #expect(try response.json(ScreenCount.self).screens == 1)
            }
            try await client.execute(uri: "/api/sessions/s1/group/screens", method: .post) { response throws in
                #expect(response.status == .created)
                #expect(try response.json(ScreenCount.self).screens == 1)
            }
            var iterator = requests.makeAsyncIterator()
            let request = try #require(await iterator.next())
            #expect(request.name == "Living room" && request.assetID == fixture.clipID)
            // The screen's link is a working invitation to this group.
            let token = try #require(request.together)
            #expect(await sessions.invitation(token)?.sessionID == "s1")
        }
    }

    struct ScreenCount: Decodable {
        var screens: Int
    }
}
