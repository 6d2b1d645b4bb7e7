import Accounts
import Foundation
import HTTPTypes
import Hummingbird

/// Signing in and out, first-run setup, accounts (owner only) and each account's API tokens:
/// `/api/auth/*`, `/api/users`, `/api/tokens`, and the `/signin` and `/account` pages.
struct AuthRoutes: Sendable {
    let access: ServerAccess
    /// The web app's pages.
    let pages: WebPages
    /// Per-address limit on sign-in and setup attempts (each costs a memory-hard hash).
    let signInBuckets: RateLimitBuckets

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("signin") { request, context in try await page("signin.html", request: request, context: context) }
        router.get("account") { request, context in try await page("account.html", request: request, context: context) }
        let auth = router.group("api/auth")
        auth.get("session", use: session)
        auth.post("signin", use: signIn)
        auth.post("setup", use: setUp)
        auth.post("signout", use: signOut)
        auth.put("password", use: changePassword)
        let users = router.group("api/users")
        users.get(use: listUsers)
        users.post(use: createUser)
        users.put("{name}", use: changeUser)
        users.delete("{name}", use: deleteUser)
        let tokens = router.group("api/tokens")
        tokens.get(use: listTokens)
        tokens.post(use: createToken)
        tokens.delete("{id}", use: revokeToken)
    }

    var accounts: AccountService { access.accounts }

    /// `GET /api/auth/session`: the server's access mode and who is signed in.
    @Sendable func session(_ request: Request, context: MarqueeRequestContext) async throws -> SessionInfo {
        let principal = context.principal
        return SessionInfo(
            mode: access.mode.rawValue, signedIn: principal.map { $0.proof != .localUser } ?? false,
            needsOwner: try await accounts.needsOwner(), namePattern: AccountService.namePattern,
            account: principal.map { .init(name: $0.name, role: $0.role.rawValue, proof: $0.proof.rawValue) })
    }

    /// `POST /api/auth/signin`: a session cookie for a name and password (rate-limited per address).
    @Sendable func signIn(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try limit(context)
        let body = try await request.decode(as: SignInRequest.self, context: context)
        let (principal, secret) = try await accounts.signIn(
            name: body.name, password: body.password,
            label: request.headers[.userAgent] ?? "browser")
        return try signedIn(principal, secret: secret, request: request, context: context, status: .ok)
    }

    /// `POST /api/auth/setup`: the first owner account, signed in at once (the answer carries
    /// its session cookie). On a loopback-bound server the person at the machine needs no setup code.
    @Sendable func setUp(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try limit(context)
        let body = try await request.decode(as: SetupRequest.self, context: context)
        let owner = try await accounts.createOwner(
            name: body.name, password: body.password, setupCode: body.setupCode,
            trustedCaller: access.mode == .open)
        let (principal, secret) = try await accounts.openSession(for: owner, label: request.headers[.userAgent] ?? "browser")
        return try signedIn(principal, secret: secret, request: request, context: context, status: .created)
    }

    @Sendable func signOut(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        if let principal = context.principal, principal.proof == .session, let id = principal.credentialID, let account = principal.accountID {
            try? await accounts.revoke(credentialID: id, accountID: account)
        }
        var response = Response(status: .noContent)
        response.headers[.setCookie] = cookie(value: "", maxAge: 0, request: request)
        return response
    }

    /// `PUT /api/auth/password`: changing one's own password needs the current one, so a
    /// borrowed session cannot lock its owner out.
    @Sendable func changePassword(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let principal = try signedInAccount(context)
        try limit(context)
        let body = try await request.decode(as: PasswordRequest.self, context: context)
        _ = try await accounts.signIn(name: principal.name, password: body.currentPassword ?? "", label: "password check")
        try await accounts.setPassword(body.newPassword, forAccountNamed: principal.name)
        let (renewed, secret) = try await accounts.signIn(
            name: principal.name, password: body.newPassword,
            label: request.headers[.userAgent] ?? "browser")
        return try signedIn(renewed, secret: secret, request: request, context: context, status: .ok)
    }

    @Sendable func listUsers(_ request: Request, context: MarqueeRequestContext) async throws -> UserList {
        UserList(users: try await accounts.accounts().map(UserResource.init))
    }

    @Sendable func createUser(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: NewUserRequest.self, context: context)
        let account = try await accounts.createAccount(name: body.name, password: body.password, role: body.role)
        return try UserResource(account).response(from: request, context: context).with(status: .created)
    }

    /// `PUT /api/users/{name}`: a new role and/or password for an account.
    @Sendable func changeUser(_ request: Request, context: MarqueeRequestContext) async throws -> UserResource {
        let name = try context.parameters.require("name")
        let body = try await request.decode(as: UserChangeRequest.self, context: context)
        if let role = body.role { try await accounts.setRole(role, forAccountNamed: name) }
        if let password = body.password { try await accounts.setPassword(password, forAccountNamed: name) }
        return UserResource(try await accounts.account(named: name))
    }

    @Sendable func deleteUser(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await accounts.deleteAccount(named: try context.parameters.require("name"))
        return Response(status: .noContent)
    }

    /// `GET /api/tokens`: the signed-in account's API tokens (never their secrets).
    @Sendable func listTokens(_ request: Request, context: MarqueeRequestContext) async throws -> TokenList {
        let accountID = try signedInAccountID(context)
        return TokenList(
            tokens: try await accounts.tokens(accountID: accountID).map {
                TokenResource(id: $0.id, name: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, token: nil)
            })
    }

    /// `POST /api/tokens`: a new API token; its secret is in this answer only.
    @Sendable func createToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let accountID = try signedInAccountID(context)
        let body = try await request.decode(as: NewTokenRequest.self, context: context)
        let (credential, secret) = try await accounts.createToken(accountID: accountID, label: body.name)
        let resource = TokenResource(
            id: credential.id, name: credential.label, createdAt: credential.createdAt,
            lastUsedAt: credential.lastUsedAt, token: secret.value)
        var response = try resource.response(from: request, context: context).with(status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func revokeToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let accountID = try signedInAccountID(context)
        try await accounts.revoke(credentialID: try context.parameters.require("id"), accountID: accountID)
        return Response(status: .noContent)
    }

    func limit(_ context: MarqueeRequestContext) throws {
        if let wait = signInBuckets.take(for: context.clientAddress) {
            throw APIError(
                .tooManyRequests, "Too many sign-in attempts from this address; try again in \(wait) s",
                headers: [.retryAfter: String(wait)])
        }
    }

    /// The principal, when it is a real account (the local user of an open server has none).
    func signedInAccount(_ context: MarqueeRequestContext) throws -> Principal {
        guard let principal = context.principal, principal.accountID != nil else {
            throw APIError(.conflict, "Sign in to an account first: the local user of a loopback server has no password or API tokens")
        }
        return principal
    }

    /// The signed-in account's id (see `signedInAccount`).
    func signedInAccountID(_ context: MarqueeRequestContext) throws -> Int64 {
        let principal = try signedInAccount(context)
        guard let id = principal.accountID else { throw APIError(.conflict, "Sign in to an account first") }
        return id
    }

    func signedIn(
        _ principal: Principal, secret: CredentialSecret, request: Request, context: MarqueeRequestContext,
        status: HTTPResponse.Status
    ) throws -> Response {
        let info = SessionInfo(
            mode: access.mode.rawValue, signedIn: true, needsOwner: false, namePattern: AccountService.namePattern,
            account: .init(name: principal.name, role: principal.role.rawValue, proof: principal.proof.rawValue))
        var response = try info.response(from: request, context: context).with(status: status)
        response.headers[.setCookie] = cookie(value: secret.value, maxAge: Int(access.accounts.sessionLifetime), request: request)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it), and
    /// `Secure` when the page came over HTTPS (through a TLS proxy that says
    /// `X-Forwarded-Proto: https`). Browsers drop a Secure cookie set over plain HTTP (Chromium
    /// even on 127.0.0.1), so a home server reached as `http://tv.local:8080` gets the cookie
    /// without it; anything reachable from outside the home belongs behind a TLS proxy.
    func cookie(value: String, maxAge: Int, request: Request) -> String {
        ServerCookie.header(name: ServerAccess.cookieName, value: value, maxAge: maxAge, sameSite: .strict, request: request)
    }

    func page(_ name: String, request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page(name, request: request, context: context)
    }
}
