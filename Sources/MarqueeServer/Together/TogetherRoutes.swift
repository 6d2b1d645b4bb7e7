import Accounts
import Clocks
import DeviceLink
import Foundation
import Hummingbird
import Playback

/// Watching together: start a group on a playing session, invite people by link, join by it.
///
/// - `POST /api/sessions/{id}/group` `{"name"}`: starts (or joins the starter to) the group
///   and answers the starter's participant ID and an invitation link.
/// - `POST /api/sessions/{id}/group/invitations`: a new link; `DELETE` withdraws every link.
/// - `POST /api/together/{token}/join` `{"name"}`: joins the group a link leads to.
/// - `GET /api/sessions/{id}/group/screens`: how many of this server's TV screens listen;
///   `POST` invites them: each opens a new link and joins the group under the TV's name.
/// - `GET /together/{token}`: the link itself; it opens the player in the group. On a server
///   that requires sign-in, a person who is not signed in gets a guest pass for that group
///   (`GuestPass`, a cookie): the link is their credential, for that group only.
struct TogetherRoutes: Sendable {
    let sessions: PlaybackSessions
    /// This server's nearby-device side: its TV screens can be invited into a group.
    var nearby: NearbyDevices? = nil

    struct NameRequest: Decodable {
        /// The most a name may be, in Unicode scalars (openapi.json's `GroupName` maxLength);
        /// at most 40 characters of it are shown.
        static let maximumLength = 200

        var name: String?

        /// The name given, or "" for none; a 400 when longer than the document allows.
        func checked() throws -> String {
            guard let name else { return "" }
            guard name.unicodeScalars.count <= Self.maximumLength else {
                throw APIError(.badRequest, "A name is at most \(Self.maximumLength) characters; this one has \(name.unicodeScalars.count)")
            }
            return name
        }
    }

    /// An invitation as JSON: the link to share and when it stops working.
    struct InvitationResource: Codable, Sendable {
        var token: String
        var url: String
        var expiresAt: Date

        init(_ invitation: GroupInvitation) {
            token = invitation.token
            url = "/together/\(invitation.token)"
            expiresAt = invitation.expires
        }
    }

    struct StartResponse: ResponseEncodable {
        var participantID: String
        var invitation: InvitationResource
        var state: SessionSnapshot
    }

    struct JoinResponse: ResponseEncodable {
        var sessionID: String
        var participantID: String
        var state: SessionSnapshot
    }

    struct RevokeResponse: ResponseEncodable {
        var revoked: Int
    }

    /// The TV screens of this server: how many listen, or how many were just invited.
    struct ScreensResponse: ResponseEncodable {
        var screens: Int
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.post("sessions/{id}/group", use: start)
        api.post("sessions/{id}/group/invitations", use: invite)
        api.delete("sessions/{id}/group/invitations", use: revoke)
        api.get("sessions/{id}/group/screens", use: listeningScreens)
        api.post("sessions/{id}/group/screens", use: inviteScreens)
        api.post("together/{token}/join", use: join)
        router.get("together/{token}", use: open)
    }

    /// `POST /api/sessions/{id}/group`: 201 with the starter's participant ID and a link.
    @Sendable func start(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: NameRequest.self, context: context)
        let (participantID, invitation) = try await sessions.startGroup(sessionID: id, name: body.checked())
        guard let state = await sessions.snapshot(id: id) else { throw GroupJoinError.noSession }
        let answer = StartResponse(participantID: participantID, invitation: InvitationResource(invitation), state: state)
        return try answer.response(from: request, context: context).with(status: .created)
    }

    /// `POST /api/sessions/{id}/group/invitations`: another link to the group (201).
    @Sendable func invite(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard await sessions.group(sessionID: id) != nil else {
            throw APIError(.notFound, "Nobody is watching session \(id) together yet: start a group first", code: "no-group")
        }
        let invitation = await sessions.invite(sessionID: id)
        return try context.responseEncoder.encode(InvitationResource(invitation), from: request, context: context).with(status: .created)
    }

    /// `DELETE /api/sessions/{id}/group/invitations`: every link stops working; people in the group stay.
    @Sendable func revoke(_ request: Request, context: MarqueeRequestContext) async throws -> RevokeResponse {
        let id = try context.parameters.require("id")
        guard await sessions.session(id: id) != nil else { throw GroupJoinError.noSession }
        return RevokeResponse(revoked: await sessions.revokeInvitations(sessionID: id))
    }

    /// `GET /api/sessions/{id}/group/screens`: how many TV screens of this server could be invited.
    @Sendable func listeningScreens(_ request: Request, context: MarqueeRequestContext) async throws -> ScreensResponse {
        let id = try context.parameters.require("id")
        guard await sessions.session(id: id) != nil else { throw GroupJoinError.noSession }
        return ScreensResponse(screens: await nearby?.screens.count ?? 0)
    }

    /// `POST /api/sessions/{id}/group/screens`: this server's TV screens open a new invitation
    /// and join the group under the TV's name (201 with how many did); 409 when none listens.
    @Sendable func inviteScreens(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let session = await sessions.session(id: id) else { throw GroupJoinError.noSession }
        guard await sessions.group(sessionID: id) != nil else {
            throw APIError(.notFound, "Nobody is watching session \(id) together yet: start a group first", code: "no-group")
        }
        guard let nearby, await nearby.screens.count > 0 else {
            throw APIError(
                .conflict, "No TV screen of this server is listening: on the TV's browser, turn on \"This browser is the TV\" on /devices",
                code: "no-screen")
        }
        let invitation = await sessions.invite(sessionID: id)
        let shown = await nearby.screens.show(
            NearbyScreens.PlayRequest(
                assetID: session.assetID, time: session.currentTime, rate: session.rate, together: invitation.token,
                name: nearby.identity.name))
        return try ScreensResponse(screens: shown).response(from: request, context: context).with(status: .created)
    }

    /// `POST /api/together/{token}/join`: the new participant's ID and the group's session.
    @Sendable func join(_ request: Request, context: MarqueeRequestContext) async throws -> JoinResponse {
        let token = try context.parameters.require("token")
        let body = try await request.decode(as: NameRequest.self, context: context)
        let (sessionID, participantID) = try await sessions.joinGroup(
            token: token, name: body.checked(), guestSecret: context.principal == nil ? context.guest?.secret : nil)
        guard let state = await sessions.snapshot(id: sessionID) else { throw GroupJoinError.noSession }
        return JoinResponse(sessionID: sessionID, participantID: participantID, state: state)
    }

    /// `GET /together/{token}`: the player of the group's item, joining the group (303).
    @Sendable func open(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard let invitation = await sessions.invitation(token), let session = await sessions.session(id: invitation.sessionID) else {
            throw GroupJoinError.invitationNotValid
        }
        let assetID = session.assetID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? session.assetID
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "together", value: token)]
        // The link's own parameters (`?name=`, `?lang=`) carry over to the player.
        for (key, value) in request.uri.queryParameters where ["name", "lang"].contains(String(key)) {
            query.queryItems?.append(URLQueryItem(name: String(key), value: String(value)))
        }
        var response = Response(status: .seeOther, headers: [.location: "/watch/\(assetID)?\(query.percentEncodedQuery ?? "")"])
        if context.principal == nil, let pass = await sessions.admitGuest(token: token) {
            let maxAge = max(0, Int(pass.expires.timeIntervalSince(sessions.clock.now)))
            response.headers[.setCookie] = Self.guestCookie(pass.secret, maxAge: maxAge, request: request)
        }
        return response
    }

    /// The guest pass's cookie: `HttpOnly`, `Secure` over HTTPS as the sign-in cookie, but
    /// `SameSite=Lax`: the link is opened from a message in another app or site, and a strict
    /// cookie would not come along on the redirect to the player it answers with.
    static func guestCookie(_ secret: String, maxAge: Int, request: Request) -> String {
        // Lax: the link is usually opened from another app, and must arrive signed in as the guest.
        ServerCookie.header(name: GuestPass.cookieName, value: secret, maxAge: maxAge, sameSite: .lax, request: request)
    }
}
