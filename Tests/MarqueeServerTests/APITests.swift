import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationCompat
import Testing

@testable import Library
@testable import MarqueeServer

@Suite("REST API", .serialized)
struct APITests {
    @Test func listsAndFindsAssetsWithBadges() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let list = try response.json(AssetList.self)
                let clip = try #require(list.assets.first { $0.id == fixture.clipID })
                #expect(clip.title == "Fixture Clip")
                #expect(clip.description == "Embedded description")
                #expect(clip.status == "ready")
                #expect(clip.badges.contains("CC"))
                #expect(clip.badges.contains("Multilingual"))
                #expect(clip.artworkURL == "/media/\(fixture.clipID)/poster.jpg")
                #expect(clip.job?.state == "succeeded")
            }
            try await client.execute(uri: "/api/assets?q=fixture", method: .get) { response throws in
                #expect(try response.json(AssetList.self).assets.map(\.id) == [fixture.clipID])
            }
            try await client.execute(uri: "/api/assets?role=interstitial", method: .get) { response throws in
                #expect(try response.json(AssetList.self).assets.map(\.id) == [fixture.adID])
            }
        }
    }

    @Test func unknownThingsAreJSON404s() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            for uri in ["/api/assets/nope", "/api/jobs/999999", "/api/no-such-route", "/api/sessions/nope"] {
                try await client.execute(uri: uri, method: .get) { response throws in
                    #expect(response.status == .notFound, "\(uri)")
                    let error = try response.json(APIErrorBody.self)
                    #expect(error.error.status == 404)
                    #expect(!error.error.message.isEmpty)
                }
            }
            try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"paths": ["/definitely/not/here.mp4"]}"#)) { response throws in
                // Nothing at a well-formed path is the server's state: 404 (issue 24), as openapi.json says.
                #expect(response.status == .notFound)
                #expect(response.errorMessage.contains("/definitely/not/here.mp4"))
            }
            try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"files": []}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("paths"))
            }
        }
    }

    @Test func metadataOverridesWinAndCanBeCleared() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let body = #"{"title": "Better Title", "description": "A person wrote this."}"#
            try await client.execute(uri: "/api/assets/\(fixture.clipID)/metadata", method: .put, body: .json(body)) { response throws in
                #expect(response.status == .ok)
                let asset = try response.json(AssetResource.self)
                #expect(asset.title == "Better Title")
                #expect(asset.description == "A person wrote this.")
            }
            try await client.execute(uri: "/api/assets?q=better", method: .get) { response throws in
                #expect(try response.json(AssetList.self).assets.map(\.id) == [fixture.clipID])
            }
            try await client.execute(uri: "/api/assets/\(fixture.clipID)/metadata", method: .put, body: .json("{}")) { response throws in
                #expect(try response.json(AssetResource.self).title == "Fixture Clip")
            }
        }
    }

    @Test func jobsAreListedAndOnlyFailedOnesRetry() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let jobs = try await client.execute(uri: "/api/jobs?asset=\(fixture.clipID)", method: .get) { response throws in
                try response.json(JobListBody.self).jobs
            }
            #expect(jobs.count == 1)
            #expect(jobs[0].state == .succeeded)
            try await client.execute(uri: "/api/jobs/\(jobs[0].id!)/retry", method: .post) { response throws in
                #expect(response.status == .conflict)
                #expect(response.errorMessage.contains("only failed jobs"))
            }
        }
    }

    @Test func playerSettingsValidateSpeeds() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": [0, 1]}"#)) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": [1, 2.5]}"#)) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/settings/player", method: .get) { response throws in
                #expect(try response.json(PlayerSettings.self).speeds == [1, 2.5])
            }
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": null}"#)) { response throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func openAPIDocumentDescribesEveryRoute() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/openapi.json", method: .get) { response throws in
                #expect(response.status == .ok)
                let document = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect((document?["openapi"] as? String)?.hasPrefix("3.") == true)
                let paths = Set((document?["paths"] as? [String: Any])?.keys.map { $0 } ?? [])
                for path in [
                    "/api/assets", "/api/assets/{id}", "/api/assets/{id}/metadata", "/api/assets/{id}/manifest.json",
                    "/api/jobs", "/api/jobs/{id}", "/api/jobs/{id}/retry", "/api/settings/player", "/api/sessions",
                    "/api/sessions/{id}", "/api/sessions/{id}/intents", "/api/sessions/{id}/renderer",
                    "/media/{asset}/{path}", "/api/library", "/api/events", "/api/assets/{id}/restore",
                    "/api/assets/{id}/up-next", "/api/assets/{id}/position", "/api/assets/{id}/artwork",
                    "/api/uploads", "/api/uploads/{id}", "/api/uploads/{id}/complete",
                    "/api/assets/{id}/frame-text", "/api/assets/{id}/protected", "/api/search",
                ] {
                    #expect(paths.contains(path), "\(path) is not documented")
                }
            }
        }
    }

    @Test func deletingAnAssetHidesItAtOnceCanBeUndoneAndThenRemovesItsFiles() async throws {
        let fixture = try await ServerFixture.shared.value
        let extra = fixture.root.appendingPathComponent("extra.mp4")
        try FileManager.default.copyItem(at: fixture.root.appendingPathComponent("ad.mp4"), to: extra)
        let asset = try await fixture.library.add(paths: [extra.path])[0]
        await fixture.library.worker.drain()
        let bundle = fixture.library.location.bundleDirectory(for: asset.id)
        #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("master.m3u8").path))
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets/\(asset.id)", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/assets/\(asset.id)", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/assets", method: .get) { response throws in
                #expect(try !response.json(AssetList.self).assets.contains { $0.id == asset.id })
            }
            // Undo.
            try await client.execute(uri: "/api/assets/\(asset.id)/restore", method: .post) { response throws in
                #expect(response.status == .ok)
                #expect(try response.json(AssetResource.self).status == "ready")
            }
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("master.m3u8").path))
            try await client.execute(uri: "/api/assets/\(asset.id)", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
        }
        // Past the undo window the trash is purged.
        #expect(try await fixture.library.purgeTrash(before: Date()).contains(asset.id))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        #expect(FileManager.default.fileExists(atPath: extra.path))
    }
}

struct JobListBody: Decodable {
    var jobs: [IngestJob]
}
