import Foundation
import Playback
import Testing

@testable import MarqueeServer

/// The page reports an event's resolved asset list (`interstitial-asset-list`) and hears which
/// asset plays (`play-interstitial-asset`) and what plays next in the break (`interstitialBreak.next`).
@Suite("Renderer protocol: asset lists")
struct InterstitialAssetListReportTests {
    func parse(_ json: String) throws -> InboundRendererMessage.Parsed {
        try JSONDecoder().decode(InboundRendererMessage.self, from: Data(json.utf8)).parsed()
    }

    func refusal(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch let invalid as InboundRendererMessage.Invalid {
            return invalid.reason
        } catch {
            return "\(error)"
        }
    }

    @Test("A list report becomes the session's report; a bad one is refused with what is wrong")
    func parsing() throws {
        let parsed = try parse(
            #"{"v":1,"type":"report","report":"interstitial-asset-list","interstitial":"ev","assets":[{"uri":"https://a/1.m3u8","duration":5},{"uri":"https://a/2.m3u8"}]}"#
        )
        guard case .report(let report, nil) = parsed else {
            Issue.record("not a report: \(parsed)")
            return
        }
        #expect(
            report
                == .interstitialAssetList(
                    eventID: "ev", assets: [InterstitialAsset(uri: "https://a/1.m3u8", duration: 5), InterstitialAsset(uri: "https://a/2.m3u8")]))
        let frame = #"{"v":1,"type":"report","report":"interstitial-asset-list""#
        #expect(refusal(frame + #","assets":[]}"#)?.contains("needs \"interstitial\"") == true)
        #expect(refusal(frame + #","interstitial":"ev"}"#)?.contains("needs \"assets\"") == true)
        #expect(refusal(frame + #","interstitial":"ev","assets":[]}"#)?.contains("1 to 100 assets; 0 given") == true)
        #expect(refusal(frame + #","interstitial":"ev","assets":[{"uri":""}]}"#)?.contains("asset 1 of the list needs a \"uri\"") == true)
        #expect(refusal(frame + #","interstitial":"ev","assets":[{"uri":"/a"},{"uri":"/b","duration":-1}]}"#)?.contains("asset 2") == true)
        let many = Array(repeating: #"{"uri":"/a"}"#, count: 101).joined(separator: ",")
        #expect(refusal(frame + #","interstitial":"ev","assets":[\#(many)]}"#)?.contains("101 given") == true)
    }

    @Test("The state names the playing asset and what plays next; the command names the asset to play")
    func stateAndCommand() throws {
        let event = InterstitialEvent(id: "ev", time: 10, url: "", duration: 10, assetListURL: "https://a/list.json")
        var session = PlaybackSession(id: "s", assetID: "a", metadata: DisplayMetadata(title: "T"), interstitials: [event])
        _ = session.handle(.ready(duration: 30))
        _ = session.handle(.play)
        _ = session.handle(.time(9.9))
        _ = session.handle(.time(10))
        let assets = [InterstitialAsset(uri: "https://a/1.m3u8", duration: 5), InterstitialAsset(uri: "https://a/2.m3u8", duration: 4)]
        _ = session.handle(.interstitialAssetList(eventID: "ev", assets: assets))

        func json(_ value: some Encodable) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        }
        var position = try #require(try json(SessionSnapshot(session, now: Date()))["interstitialBreak"] as? [String: Any])
        #expect(position["position"] as? Int == 1 && position["count"] as? Int == 2)
        #expect((position["asset"] as? [String: Any])?["uri"] as? String == "https://a/1.m3u8")
        let next = try #require(position["next"] as? [String: Any])
        #expect((next["interstitial"] as? [String: Any])?["id"] as? String == "ev")
        #expect((next["asset"] as? [String: Any])?["index"] as? Int == 1)

        let commands = session.handle(.ended)
        let command = try json(try #require(commands.map(CommandPayload.init).first))
        #expect(command["command"] as? String == "play-interstitial-asset")
        #expect((command["asset"] as? [String: Any])?["uri"] as? String == "https://a/2.m3u8")
        #expect((command["asset"] as? [String: Any])?["index"] as? Int == 1)
        position = try #require(try json(SessionSnapshot(session, now: Date()))["interstitialBreak"] as? [String: Any])
        #expect(position["position"] as? Int == 2 && position["next"] == nil)
    }
}
