import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Library
@testable import MarqueeServer

/// Requests a client gets wrong are answered 4xx with a JSON error that says what to fix —
/// never a 500, never SQL or a Swift type name, and never work on the server's own folders.
@Suite("Client errors", .serialized)
struct ClientErrorTests {
    @Test func oversizedBodiesLongSearchesAndUnboundedSettingsAreRefused() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let huge = #"{"paths": [""# + String(repeating: "a", count: 11_000_000) + #""]}"#
            try await client.execute(uri: "/api/assets", method: .post, body: .json(huge)) { response throws in
                #expect(response.status == .contentTooLarge)
                #expect(response.errorMessage.contains("too large"))
                #expect(!response.errorMessage.contains("NIO"))
            }
            let search = String(repeating: "x", count: 600)
            try await client.execute(uri: "/api/assets?q=\(search)", method: .get) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("at most 200"))
            }
            let speeds = "[" + Array(repeating: "1.0", count: 200_000).joined(separator: ",") + "]"
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": \#(speeds)}"#)) { response throws in
                // Either the body limit or the list limit answers; both are the client's mistake.
                #expect(response.status == .badRequest || response.status == .contentTooLarge)
            }
            let seventeen = "[" + (1...17).map { String(Double($0) / 8) }.joined(separator: ",") + "]"
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": \#(seventeen)}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("at most 16"))
            }
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"speeds": [1], "skipInterval": 1e308}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("skipInterval"))
            }
        }
    }

    @Test(arguments: ["", ".", "relative/clip.mp4"])
    func pathsMustBeAbsolute(path: String) async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let before = try await fixture.library.store.assets().count
            try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"paths": ["\#(path)"]}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("absolute"))
            }
            #expect(try await fixture.library.store.assets().count == before)
        }
    }
}
