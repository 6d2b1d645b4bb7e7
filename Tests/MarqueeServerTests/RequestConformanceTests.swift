import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

/// What the OpenAPI document promises about requests, kept: a method a path does not take is a
/// 405 naming the ones it does, and values outside the document's types are refused.
@Suite("Requests as the document describes them")
struct RequestConformanceTests {
    @Test("A method a routed path does not take is a 405 with Allow; an unrouted path stays a 404")
    func undeclaredMethodsAre405() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/health", method: .delete) { response throws in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
                #expect(try response.json(APIErrorBody.self).error.code == "method-not-allowed")
            }
            try await client.execute(uri: "/api/assets/\(fixture.clipID)", method: .patch) { response throws in
                #expect(response.status == .methodNotAllowed)
                let allowed = Set((response.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(allowed.isSuperset(of: ["GET", "DELETE"]) && !allowed.contains("PATCH"))
            }
            try await client.execute(uri: "/media/\(fixture.clipID)/master.m3u8", method: .post) { response throws in
                #expect(response.status == .methodNotAllowed)
            }
            try await client.execute(uri: "/api/nothing/here", method: .patch) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Every path that answers GET answers HEAD with the same status and headers and no body")
    func headAnswersLikeGet() async throws {
        let fixture = try await ServerFixture.shared.value
        let paths = [
            "/", "/watch/\(fixture.clipID)", "/ui/js/player/main.js", "/ui/css/player.css", "/favicon.ico",
            "/api/openapi.json", "/api/health", "/api/assets", "/api/assets/\(fixture.clipID)",
            "/api/assets/\(fixture.clipID)/manifest.json", "/media/\(fixture.clipID)/master.m3u8",
        ]
        try await fixture.application().test(.router) { client in
            for path in paths {
                let get = try await client.execute(uri: path, method: .get) { $0 }
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == get.status, "\(path)")
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == get.headers[.contentType], "\(path)")
                    #expect(response.headers[.cacheControl] == get.headers[.cacheControl], "\(path)")
                    #expect(response.body.readableBytes == 0, "\(path)")
                }
            }
        }
    }

    @Test("A role that is not one is refused; a null duration is the asset's own, as the document says")
    func invalidValuesAreRefused() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets?role=AAA", method: .get) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("role"))
            }
            try await client.execute(uri: "/api/assets?role=interstitial", method: .get) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/api/assets/\(fixture.clipID)/position", method: .put, body: .json(#"{"position": 1, "duration": null}"#)
            ) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/api/assets/\(fixture.clipID)/position", method: .put, body: .json(#"{"position": 1, "duration": "long"}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/assets/\(fixture.clipID)/position", method: .put, body: .json(#"{"position": 1}"#)) {
                response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/assets/\(fixture.clipID)/position", method: .delete) { _ in }
        }
    }

    @Test("Dates in bodies are RFC 3339 with every field in range")
    func strictDates() throws {
        for good in ["2026-05-01T20:00:00Z", "2026-05-01T20:00:00.250Z", "2026-05-01T20:00:00+09:00", "2024-02-29T23:59:59Z"] {
            #expect(StrictDate.parse(good) != nil, "\(good)")
        }
        for bad in [
            "2026-05-01T20:99:00Z", "2026-05-01T25:00:00Z", "2026-05-01T23:59:60Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-05-01 20:00:00Z", "2026-05-01T20:00:00", "2026-05-01T20:00:00+25:00", "2026-05-01T20:00:00.Z", "yesterday", "",
        ] {
            #expect(StrictDate.parse(bad) == nil, "\(bad)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = StrictDate.decodingStrategy
        #expect(throws: DecodingError.self) { try decoder.decode([Date].self, from: Data(#"["2026-05-01T20:99:00Z"]"#.utf8)) }
        #expect(try decoder.decode([Date].self, from: Data(#"["1970-01-01T00:00:10Z"]"#.utf8)) == [Date(timeIntervalSince1970: 10)])
    }
}
