import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOFoundationCompat
import NIOWebSocket
import Testing

@testable import MarqueeServer

/// A renderer socket that floods the server with frames is closed with 1008 and a reason that
/// says why, while other clients (and the flooded session itself) still get answers; a player
/// that sends at a page's pace is never cut off.
@Suite("Renderer socket flood")
struct RendererFloodTests {
    /// A small budget, so the test needs few frames; the rule is the same as the default's.
    let budget = RendererFrameBudget(burst: 20, perSecond: 5)

    func application(_ fixture: ServerFixture) -> some ApplicationProtocol {
        MarqueeServer(library: fixture.library, sessions: PlaybackSessions(rendererFrames: budget))
            .application(host: "127.0.0.1", port: 0)
    }

    func createSession(_ client: some TestClientProtocol, _ fixture: ServerFixture) async throws -> String {
        try await client.execute(
            uri: "/api/sessions", method: .post,
            body: ByteBuffer(string: #"{"assetID": "\#(fixture.clipID)"}"#)
        ) { response throws in
            #expect(response.status == .created)
            return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["id"] as! String
        }
    }

    @Test func aFloodingSocketIsClosedWithPolicyViolationAndOthersStillGetAnswers() async throws {
        let fixture = try await ServerFixture.shared.value
        try await application(fixture).test(.live) { client in
            let id = try await createSession(client, fixture)
            let close = try await client.ws("/api/sessions/\(id)/renderer") { inbound, outbound, _ in
                // 25 times the burst, written without waiting for anything.
                for i in 0..<500 {
                    do {
                        try await outbound.write(.text(#"{"v":1,"type":"report","report":"time","time":\#(Double(i) / 100)}"#))
                    } catch { break }  // closed by the server
                }
                // Then an intent: a server that took every frame answers it, and the socket
                // ends normally; one that enforces the budget has closed the socket before.
                try? await outbound.write(.text(#"{"v":1,"type":"intent","id":99,"intent":"play"}"#))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message, text.contains(#""replyTo":99"#) {
                        try await outbound.close(.normalClosure, reason: nil)
                        break
                    }
                }
            }
            #expect(close?.closeCode == .policyViolation)
            #expect(close?.reason?.contains("Too many frames") == true)
            // Other clients, and the session itself, still answer.
            try await client.execute(uri: "/api/assets", method: .get) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/sessions/\(id)", method: .get) { response throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aSocketWithinItsBudgetIsServedAndNotClosed() async throws {
        let fixture = try await ServerFixture.shared.value
        try await application(fixture).test(.live) { client in
            let id = try await createSession(client, fixture)
            let close = try await client.ws("/api/sessions/\(id)/renderer") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()  // the state on connecting
                // Fewer frames than the burst: a page reporting time and pressing play.
                for i in 0..<10 {
                    try await outbound.write(.text(#"{"v":1,"type":"report","report":"time","time":\#(Double(i) / 4)}"#))
                }
                try await outbound.write(.text(#"{"v":1,"type":"intent","id":7,"intent":"play"}"#))
                var answered = false
                while let message = try await messages.next() {
                    if case .text(let text) = message, text.contains(#""replyTo":7"#) {
                        answered = true
                        break
                    }
                }
                #expect(answered)
                try await outbound.close(.normalClosure, reason: nil)
            }
            #expect(close?.closeCode != .policyViolation)
        }
    }
}
