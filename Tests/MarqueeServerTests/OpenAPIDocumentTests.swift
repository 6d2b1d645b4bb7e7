import Accounts
import Foundation
import Hummingbird
import Testing

@testable import MarqueeServer

/// The OpenAPI document (kept by hand) and the router describe the same API: every route the
/// server answers, with its method, is documented, and every documented operation is routed.
/// A route added without its documentation fails here.
@Suite("OpenAPI document matches the router")
struct OpenAPIDocumentTests {
    /// "GET /api/assets/{id}" for each route; a trailing `**` is the document's `{path}`.
    static func routed(_ router: Router<MarqueeRequestContext>) -> Set<String> {
        Set(
            router.routes.map { route in
                var path = route.path.description
                if path.hasSuffix("/**") { path = String(path.dropLast(2)) + "{path}" }
                return "\(route.method.rawValue) \(path)"
            })
    }

    static func documented() throws -> Set<String> {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        return Set(
            paths.flatMap { path, item in
                item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
            })
    }

    @Test func everyRouteAndMethodIsDocumentedAndNothingElse() async throws {
        let fixture = try await ServerFixture.shared.value
        let downloads = DownloadService(library: fixture.library)
        // Every optional part on: downloads and accounts (sign-in routes exist whenever access control does).
        let accounts = AccountService(store: try SQLiteAccountStore(url: fixture.root.appendingPathComponent("openapi-accounts.sqlite")), hasher: .fast)
        var server = MarqueeServer(library: fixture.library, downloads: downloads, access: ServerAccess(mode: .open, accounts: accounts))
        server.activities = try await LiveActivityHost.start(library: fixture.library, downloads: nil, sessions: nil, apns: nil)
        server.nearby = try NearbyDevices(directory: nil, name: "TV", sessions: server.sessions)
        let routed = Self.routed(server.router())
        let documented = try Self.documented()
        #expect(routed.subtracting(documented).sorted() == [], "routes the OpenAPI document does not describe")
        #expect(documented.subtracting(routed).sorted() == [], "documented operations the server does not route")
        #expect(routed.contains("GET /api/assets"))  // the comparison saw real routes
    }
}
