import Foundation
import Playback
import Testing

@testable import MarqueeServer

/// The page's copy of the renderer protocol's names (`renderer-vocabulary.js`) and Swift's
/// (`RendererVocabulary`) are the same lists, so neither side can send a name the other
/// does not know.
@Suite("Renderer vocabulary")
struct RendererVocabularyTests {
    func javaScriptNames(_ object: String) throws -> Set<String> {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("js/player/renderer-vocabulary.js")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "export const \(object) = Object.freeze({"))
        let end = try #require(text.range(of: "});", range: start.upperBound..<text.endIndex))
        let body = String(text[start.upperBound..<end.lowerBound])
        let regex = try NSRegularExpression(pattern: #"\w+:\s*'([^']+)'"#)
        let matches = regex.matches(in: body, range: NSRange(body.startIndex..., in: body))
        return Set(matches.compactMap { Range($0.range(at: 1), in: body).map { String(body[$0]) } })
    }

    @Test func intentsAgree() throws {
        #expect(try javaScriptNames("INTENT") == Set(RendererVocabulary.Intent.allCases.map(\.rawValue)))
    }

    @Test func reportsAgree() throws {
        #expect(try javaScriptNames("REPORT") == Set(RendererVocabulary.Report.allCases.map(\.rawValue)))
    }

    @Test func commandsAgree() throws {
        #expect(try javaScriptNames("COMMAND") == Set(RendererVocabulary.Command.allCases.map(\.rawValue)))
    }

    @Test("Every intent and report name parses; an unknown one is a clear error")
    func everyNameParses() throws {
        for name in RendererVocabulary.Intent.allCases.map(\.rawValue) {
            let frame = InboundRendererMessage(
                v: 1, type: "intent", id: 1, intent: name, seconds: 1, time: 1, fraction: 0.5, rate: 1,
                step: 1, rendition: "x", duration: nil, message: nil, direction: 1, volume: 0.5, muted: true, choice: "play")
            #expect(throws: Never.self) { _ = try frame.parsed() }
        }
        for name in RendererVocabulary.Report.allCases.map(\.rawValue) {
            let frame = InboundRendererMessage(
                v: 1, type: "report", report: name, time: 1, duration: 3, message: "m", volume: 0.5, muted: false, interstitial: "e",
                assets: [.init(uri: "/a.json", duration: 1)])
            #expect(throws: Never.self) { _ = try frame.parsed() }
        }
        #expect(throws: InboundRendererMessage.Invalid.self) { _ = try InboundRendererMessage(v: 1, type: "intent", intent: "dance").parsed() }
    }

    @Test("A report names the item it is about; a wrong name or an interstitial without its id is refused")
    func reportsNameTheirItem() throws {
        func parse(_ json: String) throws -> InboundRendererMessage.Parsed {
            try JSONDecoder().decode(InboundRendererMessage.self, from: Data(json.utf8)).parsed()
        }
        func about(_ json: String) throws -> RenderedItem?? {
            guard case .report(_, let item) = try parse(json) else { return nil }
            return .some(item)
        }
        let time = #"{"v":1,"type":"report","report":"time","time":2.5"#
        #expect(try about(time + "}") == .some(nil))
        #expect(try about(time + #","item":"primary"}"#) == .some(.primary))
        #expect(try about(time + #","item":"interstitial","interstitial":"ev","asset":2}"#) == .some(.interstitial(eventID: "ev", assetIndex: 2)))
        #expect(try about(time + #","item":"interstitial","interstitial":"ev"}"#) == .some(.interstitial(eventID: "ev", assetIndex: 0)))
        for bad in [
            #","item":"ad"}"#, #","item":"interstitial"}"#, #","item":"interstitial","interstitial":""}"#,
            #","item":"interstitial","interstitial":"ev","asset":-1}"#,
        ] {
            #expect(throws: InboundRendererMessage.Invalid.self, "\(bad)") { _ = try parse(time + bad) }
        }
    }
}
