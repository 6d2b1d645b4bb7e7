import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

@Suite("GET /api/home: each person's own rows")
struct HomeRouteTests {
    struct Rows: Decodable {
        struct Progressed: Decodable {
            var asset: AssetResource
            var position: Double
            var fraction: Double?
            var remaining: Double?
        }

        var continueWatching: [Progressed]
        var nextUp: [AssetResourceBox]
        var recentlyAdded: [AssetResource]
    }

    struct AssetResourceBox: Decodable {
        var asset: AssetResource
    }

    @Test("One account's progress shows in its own home, never in another's")
    func perViewer() async throws {
        let fixture = try await ServerFixture.shared.value
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        let owner = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let viewer = try await accounts.createAccount(name: "vic", password: "viewer password", role: .viewer)
        let (_, ann) = try await accounts.createToken(accountID: owner.id!, label: "t")
        let (_, vic) = try await accounts.createToken(accountID: viewer.id!, label: "t")
        let server = MarqueeServer(library: fixture.library, access: ServerAccess(mode: .signInRequired, accounts: accounts))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            func home(_ token: CredentialSecret) async throws -> Rows {
                try await client.execute(uri: "/api/home", method: .get, headers: [.authorization: "Bearer \(token.value)"]) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "no-store")
                    return try response.json(Rows.self)
                }
            }
            #expect(try await client.execute(uri: "/api/home", method: .get) { $0.status } == .unauthorized)
            try await client.execute(
                uri: "/api/assets/\(fixture.clipID)/position", method: .put,
                headers: [.authorization: "Bearer \(vic.value)", .contentType: "application/json"],
                body: .json(#"{"position": 30, "duration": 100}"#)
            ) { response in
                #expect(response.status == .ok)
            }
            let vics = try await home(vic)
            #expect(vics.continueWatching.map(\.asset.id) == [fixture.clipID])
            #expect(vics.continueWatching.first?.fraction == 0.3)
            #expect(vics.continueWatching.first?.remaining == 70)
            #expect(vics.continueWatching.first?.asset.playback?.resumeTime == 30)
            let anns = try await home(ann)
            #expect(anns.continueWatching.isEmpty)
            // The library's cards and the player's ?resume=1 follow the same rule: each account
            // sees its own progress, not the item's last position someone else left.
            func card(_ token: CredentialSecret) async throws -> AssetResource {
                try await client.execute(uri: "/api/assets/\(fixture.clipID)", method: .get, headers: [.authorization: "Bearer \(token.value)"]) {
                    try $0.json(AssetResource.self)
                }
            }
            #expect(try await card(vic).playback?.resumeTime == 30)
            #expect(try await card(ann).playback == nil)
            #expect(try await SessionRoutes.resumeTime(of: fixture.clipID, for: "account:\(viewer.id!)", in: fixture.library) == 30)
            #expect(try await SessionRoutes.resumeTime(of: fixture.clipID, for: "account:\(owner.id!)", in: fixture.library) == nil)
            #expect(try await SessionRoutes.resumeTime(of: fixture.clipID, for: nil, in: fixture.library) == nil)
            // The shared position this route also keeps is put back as it was for the other tests.
            _ = try await client.execute(
                uri: "/api/assets/\(fixture.clipID)/position", method: .delete, headers: [.authorization: "Bearer \(vic.value)"]
            ) { $0.status }
        }
    }
}
