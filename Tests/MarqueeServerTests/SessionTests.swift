import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOFoundationCompat
import NIOWebSocket
import Playback
import Testing

@testable import MarqueeServer

@Suite("Playback sessions over REST and the renderer socket", .serialized)
struct SessionTests {
    func create(_ client: some TestClientProtocol, body: String, headers: HTTPFields = [:]) async throws -> SessionSnapshot {
        try await client.execute(uri: "/api/sessions", method: .post, headers: headers, body: .json(body)) { response throws in
            #expect(response.status == .created, "\(response.text)")
            return try response.json(SessionSnapshot.self)
        }
    }

    @Test func sessionsStartPausedWithRenditionsSpeedsAndTheAd() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let session = try await create(client, body: #"{"assetID": "\#(fixture.clipID)"}"#)
            #expect(session.status == "loading")
            #expect(session.language == "en")
            #expect(session.speeds.map(\.rate) == [0.5, 1, 1.25, 1.5, 2])
            #expect(session.selectedSpeed?.localizedName == "Normal speed")
            #expect(session.audio.map(\.name) == ["English", "Français"])
            #expect(session.selectedAudio == "audio-en-0")
            #expect(session.subtitles.map(\.id) == ["subtitles-en-0"])
            #expect(session.interstitials.map(\.start) == [2])
            #expect(session.manifestURL == "/api/assets/\(fixture.clipID)/manifest.json")
            let other = try await create(client, body: #"{"assetID": "\#(fixture.clipID)"}"#)
            #expect(other.id != session.id)
        }
    }

    @Test func languageComesFromTheBrowser() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let fromHeader = try await create(client, body: #"{"assetID": "\#(fixture.clipID)"}"#, headers: [.acceptLanguage: "ja-JP,ja;q=0.9"])
            #expect(fromHeader.language == "ja")
            #expect(fromHeader.speeds.last?.localizedName == "2倍速")
            let fromList = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "languages": ["fr", "ja"]}"#)
            #expect(fromList.language == "ja")
            let english = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "languages": ["en-GB"]}"#, headers: [.acceptLanguage: "ja"])
            #expect(english.language == "en")
        }
    }

    @Test func perPlayerSpeedsIncludingNone() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let none = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speeds": []}"#)
            #expect(none.speeds.isEmpty)
            #expect(none.selectedSpeed == nil)
            let custom = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speeds": [3, 1]}"#)
            #expect(custom.speeds.map(\.localizedNumericName) == ["1×", "3×"])
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)", "speeds": [-2]}"#)) {
                response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "nope"}"#)) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("A speed list holds at most 16 speeds wherever it enters: the body is refused, an address keeps the first 16")
    func speedListsAreBounded() async throws {
        let fixture = try await ServerFixture.shared.value
        let many = (1...2_000).map { String(Double($0) / 200) }
        try await fixture.application().test(.router) { client in
            try await client.execute(
                uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)", "speeds": [\#(many.joined(separator: ","))]}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("at most 16"))
            }
            let sixteen = (1...16).map { String(Double($0)) }.joined(separator: ",")
            let exact = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speeds": [\#(sixteen)]}"#)
            #expect(exact.speeds.count == 16)
            let fromAddress = try await create(
                client, body: #"{"assetID": "\#(fixture.clipID)", "speedList": "\#(many.joined(separator: ",")),x,y"}"#)
            #expect(fromAddress.speeds.count == 16)
            #expect(fromAddress.warnings?.joined().contains("at most 16") == true)
            #expect((fromAddress.warnings?.joined().count ?? 0) < 400)
        }
    }

    @Test func anAddressSpeedListIgnoresBadValuesWithAWarning() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let mixed = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speedList": "0.5,abc,2,40"}"#)
            #expect(mixed.speeds.map(\.rate) == [0.5, 1, 2])
            #expect(mixed.selectedSpeed?.rate == 1)
            #expect(mixed.warnings == ["Ignored the playback speeds “abc”, “40” in the address: a speed is a number above 0 and at most 16."])
            let onlyBad = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speedList": "fast", "language": "ja"}"#)
            #expect(onlyBad.speeds.map(\.rate) == [0.5, 1, 1.25, 1.5, 2])
            #expect(onlyBad.warnings?.first?.contains("「fast」") == true)
            let empty = try await create(client, body: #"{"assetID": "\#(fixture.clipID)", "speedList": ""}"#)
            #expect(empty.speeds.isEmpty)
            #expect(empty.warnings == nil)
            // An explicit list in the API stays strict.
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)", "speeds": [40], "speedList": "1"}"#))
            { response throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func remoteIntentsAreAcceptedOrRefused() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let session = try await create(client, body: #"{"assetID": "\#(fixture.clipID)"}"#)
            let uri = "/api/sessions/\(session.id)/intents"
            try await client.execute(uri: uri, method: .post, body: .json(#"{"intent": "skip", "seconds": 10}"#)) { response throws in
                #expect(response.status == .conflict)
                #expect(response.errorMessage.contains("not-ready"))
            }
            try await client.execute(uri: uri, method: .post, body: .json(#"{"intent": "select-speed", "rate": 1.5}"#)) { response throws in
                #expect(response.status == .ok)
                let answer = try response.json(IntentAnswer.self)
                #expect(answer.state.selectedSpeed?.rate == 1.5)
            }
            try await client.execute(uri: uri, method: .post, body: .json(#"{"intent": "select-speed", "rate": 7}"#)) { response throws in
                #expect(response.status == .conflict)
                #expect(response.errorMessage.contains("speed-not-offered"))
            }
            try await client.execute(uri: uri, method: .post, body: .json(#"{"intent": "dance"}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("dance"))
            }
            try await client.execute(uri: "/api/sessions/\(session.id)", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/sessions/\(session.id)", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("A session created with a start time, a rate and autoplay seeks, sets the rate and plays when its renderer is ready")
    func aSessionBeginsAsItWasCreated() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.live) { client in
            let session = try await create(
                client, body: #"{"assetID": "\#(fixture.clipID)", "startTime": 1.5, "rate": 1.5, "autoplay": true}"#)
            try await client.ws("/api/sessions/\(session.id)/renderer") { inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func nextCommands() async throws -> [[String: Any]] {
                    while let frame = try await frames.next() {
                        guard case .text(let text) = frame,
                            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                            object["type"] as? String == "commands"
                        else { continue }
                        return object["commands"] as? [[String: Any]] ?? []
                    }
                    return []
                }
                try await outbound.write(.text(#"{"v":1,"type":"report","report":"ready","duration":4}"#))
                let commands = try await nextCommands()
                #expect(commands.map { $0["command"] as? String } == ["seek", "play"])
                #expect(commands.first?["time"] as? Double == 1.5)
                #expect(commands.last?["rate"] as? Double == 1.5)
            }
        }
    }

    @Test("Bad start fields are refused with the reason; a rate the player does not offer is a warning")
    func badStartFields() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.live) { client in
            try await client.execute(
                uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)", "startTime": -3}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("startTime"))
            }
            try await client.execute(
                uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)", "rate": 7}"#)
            ) { response throws in
                #expect(response.status == .created)
                let warnings = (try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["warnings"] as? [String]
                #expect(warnings?.contains { $0.contains("not one of this player's speeds") } == true)
            }
        }
    }

    @Test func rendererSocketCarriesReportsIntentsAndCommands() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.live) { client in
            let session = try await create(client, body: #"{"assetID": "\#(fixture.clipID)"}"#)
            let received = Frames()
            try await client.ws("/api/sessions/\(session.id)/renderer") { inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next() async throws -> [String: Any] {
                    while let frame = try await frames.next() {
                        guard case .text(let text) = frame else { continue }
                        await received.append(text)
                        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                    }
                    return [:]
                }
                func nextOf(_ type: String) async throws -> [String: Any] {
                    while true {
                        let frame = try await next()
                        if frame["type"] as? String == type || frame.isEmpty { return frame }
                    }
                }
                let hello = try await next()
                #expect(hello["type"] as? String == "state")
                #expect(hello["v"] as? Int == 1)
                // The renderer is told where to hold playback for the break.
                #expect((hello["state"] as? [String: Any])?["boundary"] as? Double == 2)

                try await outbound.write(.text(#"{"v":1,"type":"report","report":"ready","duration":4}"#))
                try await outbound.write(.text(#"{"v":1,"type":"intent","id":7,"intent":"select-speed","rate":1.5}"#))
                try await outbound.write(.text(#"{"v":1,"type":"intent","id":8,"intent":"play"}"#))
                var commands = try await nextOf("commands")
                #expect(commands["replyTo"] as? Int == 7)
                commands = try await nextOf("commands")
                #expect(commands["replyTo"] as? Int == 8)
                let play = (commands["commands"] as? [[String: Any]])?.first
                #expect(play?["command"] as? String == "play")
                #expect(play?["rate"] as? Double == 1.5)

                // Playback reaches the ad at 2 s: the session switches the renderer to it at 1×.
                try await outbound.write(.text(#"{"v":1,"type":"report","report":"time","time":1.8}"#))
                try await outbound.write(.text(#"{"v":1,"type":"report","report":"time","time":2.05}"#))
                let toAd = try await nextOf("commands")
                let ad = (toAd["commands"] as? [[String: Any]])?.first
                #expect(ad?["command"] as? String == "play-interstitial")
                #expect(ad?["rate"] as? Double == 1)
                #expect((ad?["interstitial"] as? [String: Any])?["url"] as? String == "/api/assets/\(fixture.adID)/manifest.json")

                try await outbound.write(.text(#"{"v":1,"type":"intent","id":9,"intent":"skip","seconds":10}"#))
                let refused = try await nextOf("refused")
                #expect(refused["replyTo"] as? Int == 9)
                #expect(refused["reason"] as? String == "seeking-restricted-during-interstitial")
                // With the session's sentence for the viewer (issue 29: why, and for how long).
                #expect((refused["message"] as? String)?.hasPrefix("Seeking is off during this ad.") == true)

                try await outbound.write(.text(#"{"v":1,"type":"report","report":"ended"}"#))
                let back = try await nextOf("commands")
                let resume = (back["commands"] as? [[String: Any]])?.first
                #expect(resume?["command"] as? String == "resume-primary")
                // It goes on from where the primary stopped for the break, so nothing repeats.
                #expect(resume?["time"] as? Double == 2.05)
                #expect(resume?["rate"] as? Double == 1.5)

                try await outbound.write(.text(#"{"v":2,"type":"intent","intent":"play"}"#))
                let error = try await nextOf("error")
                #expect((error["message"] as? String)?.contains("version") == true)
                try await outbound.close(.normalClosure, reason: nil)
            }
            // The REST view of the session agrees with what the socket did.
            try await client.execute(uri: "/api/sessions/\(session.id)", method: .get) { response throws in
                let state = try response.json(SessionSnapshot.self)
                #expect(state.status == "playing")
                #expect(state.rate == 1.5)
                #expect(state.currentTime == 2.05)
                #expect(state.activeInterstitial == nil)
            }
            #expect(await received.count > 5)
        }
    }
}

struct IntentAnswer: Decodable {
    var state: SessionSnapshot
}

actor Frames {
    private var frames: [String] = []
    func append(_ frame: String) { frames.append(frame) }
    var count: Int { frames.count }
}
