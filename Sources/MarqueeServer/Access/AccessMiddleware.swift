import Accounts
import Foundation
import HTTPTypes
import Hummingbird

/// Finds who each request is (session cookie or `Authorization: Bearer` token) and applies
/// `AccessRules`: a request without the permission its route needs is refused — pages by a
/// redirect to `/signin`, the API by `401` (not signed in) or `403` (signed in, wrong role).
/// Error messages leave out server paths unless the request is the owner's.
///
/// A request from nobody signed in that carries a guest pass (an invitation to watch together
/// followed on this browser) goes through if `GuestScope` allows it, acting for nobody but
/// with `context.guest` set; anything else the guest asks for is refused as for anyone not
/// signed in.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = MarqueeRequestContext
    let access: ServerAccess
    /// How guest passes are found (nil: no guests, as on a server without watching together).
    var guests: GuestPassLookup? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path.lowercased() == "/metrics", access.presentsMetricsToken(request.headers[.authorization]) {
            return try await next(request, context)
        }
        let permission = AccessRules.permission(method: request.method, path: path)
        let signedIn = try await Self.principal(of: request, accounts: access.accounts)
        let principal = signedIn ?? (access.mode == .open ? Principal.localUser : nil)
        var context = context
        context.principal = principal
        if permission != .signIn, principal == nil, let guests {
            switch await guests.pass(in: request) {
            case .none: break
            case .ended: throw Self.guestPassEnded(request)
            case .pass(let pass):
                guard await guests.allows(pass, method: request.method, path: path) else { throw Self.outsideGuestScope(request) }
                context.guest = pass
                return try await ServerPathVisibility.$revealed.withValue(false) { try await next(request, context) }
            }
        }
        if permission != .signIn {
            guard let principal else { throw Self.notSignedIn(request) }
            guard principal.may(permission) else {
                throw APIError(.forbidden, "The \(principal.role.rawValue) role may not do this; ask the server's owner")
            }
        }
        let reveal = principal?.role == .owner
        return try await ServerPathVisibility.$revealed.withValue(reveal) {
            do {
                return try await next(request, context)
            } catch {
                guard !reveal else { throw error }
                let apiError = APIError.from(error)
                // An unmapped error says nothing anyway; keep it whole for the log.
                guard !apiError.isUnmapped else { throw error }
                throw APIError(
                    apiError.status, ServerPathVisibility.redactPaths(apiError.message), code: apiError.code, headers: apiError.headers)
            }
        }
    }

    /// The account behind the request's bearer token or session cookie. A bearer token that
    /// is not valid is an error (a script should hear so); a stale cookie is just ignored.
    static func principal(of request: Request, accounts: AccountService) async throws -> Principal? {
        if let authorization = request.headers[.authorization] {
            guard case .bearer(let token) = HeaderValues.authorization(authorization) else {
                throw APIError(
                    .unauthorized, "Authorization must be \"Bearer <token>\" with an API token from the account page",
                    headers: [.wwwAuthenticate: "Bearer realm=\"Marquee\""])
            }
            guard let principal = try await accounts.principal(for: CredentialSecret(value: String(token))), principal.proof == .token else {
                throw APIError(
                    .unauthorized, "This API token is not valid (revoked, or mistyped)",
                    headers: [.wwwAuthenticate: "Bearer realm=\"Marquee\", error=\"invalid_token\""])
            }
            return principal
        }
        guard let secret = sessionCookie(request.headers[.cookie]) else { return nil }
        guard let principal = try await accounts.principal(for: CredentialSecret(value: secret)), principal.proof == .session else { return nil }
        return principal
    }

    static func sessionCookie(_ header: String?) -> String? {
        HeaderValues.cookie(named: ServerAccess.cookieName, in: header)
    }

    /// A guest's page outside their group goes to the sign-in page like anyone's; the API says why.
    static func outsideGuestScope(_ request: Request) -> any Error {
        let error = notSignedIn(request)
        guard !(error is RedirectToSignIn) else { return error }
        return APIError(
            .forbidden, "An invitation to watch together lets you watch that group only; sign in for the rest of this server",
            code: "guest-scope")
    }

    /// A guest whose invitation ended: pages go to sign in; the API says what happened.
    static func guestPassEnded(_ request: Request) -> any Error {
        let error = notSignedIn(request)
        guard !(error is RedirectToSignIn) else { return error }
        return APIError(
            .unauthorized, "The invitation to watch together that let you in has ended (it expired or was withdrawn); ask for a new link",
            code: "invitation-ended")
    }

    /// Pages go to the sign-in page (and come back after); everything else gets a 401.
    static func notSignedIn(_ request: Request) -> any Error {
        let path = request.uri.path.lowercased()
        let isPage =
            request.method == .get && !path.hasPrefix("/api/") && !path.hasPrefix("/media/") && !path.hasPrefix("/ui/") && path != "/metrics"
            && (request.headers[.accept]?.contains("text/html") ?? true)
        if isPage {
            let target = request.uri.string
            let next = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/-_.~"))) ?? "/"
            return RedirectToSignIn(location: "/signin?next=\(next)")
        }
        return APIError(
            .unauthorized, "Sign in first: this server requires an account (POST /api/auth/signin, or an API token)",
            headers: [.wwwAuthenticate: "Bearer realm=\"Marquee\""])
    }
}
