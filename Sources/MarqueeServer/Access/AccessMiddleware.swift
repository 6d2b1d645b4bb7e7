import Accounts
import Foundation
import HTTPTypes
import Hummingbird

/// Finds who each request is (session cookie or `Authorization: Bearer` token) and applies
/// `AccessRules`: a request without the permission its route needs is refused — pages by a
/// redirect to `/signin`, the API by `401` (not signed in) or `403` (signed in, wrong role).
/// Error messages leave out server paths unless the request is the owner's.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = MarqueeRequestContext
    let access: ServerAccess

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
