import Accounts
import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Playback
import Testing

@testable import Library
@testable import MarqueeServer

/// Authoring ad breaks over the API (with clear refusals), storing them, and serving them in
/// the asset's HLS as interstitial date ranges that read back as the same events.
@Suite("Interstitial authoring", .serialized)
struct InterstitialAuthoringTests {
    /// A library of its own (the shared fixture's is counted by other tests): a 60-second
    /// feature and a 5-second ad, rows only.
    static func library() async throws -> (MediaLibrary, feature: String, ad: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-interstitials-\(UUID().uuidString)")
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root))
        let feature = Asset(title: "Feature", duration: 60, status: .ready)
        let ad = Asset(title: "Ad", duration: 5, status: .ready, role: .interstitial)
        _ = try await library.store.insert(feature, job: false)
        _ = try await library.store.insert(ad, job: false)
        return (library, feature.id, ad.id)
    }

    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, method: HTTPRequest.Method = .post) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: .json(body))
    }

    @Test("Add, list, change and delete an asset's events; each bad event is refused with a reason")
    func authoring() async throws {
        let (library, feature, ad) = try await Self.library()
        let base = "/api/assets/\(feature)/interstitials"
        try await MarqueeServer(library: library).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let added = try await post(
                client, base,
                #"""
                {"time": 20, "content": {"assetID": "\#(ad)"}, "restrictions": {"skip": true, "jump": true},
                 "skipControl": {"offset": 2, "duration": 3, "labels": {"en": "Skip ad", "ja": "広告をスキップ"}}, "once": true}
                """#)
            #expect(added.status == .created, "\(added.text)")
            let event = try added.json(AuthoredInterstitial.self)
            #expect(event.duration == 5, "a library ad's duration is filled in")
            #expect(event.resumptionOffset == 0 && event.restrictions == .init(skip: true, jump: true) && event.once)

            // A second event at the same time joins the break; a pre-roll and a post-roll are fine.
            #expect(try await post(client, base, #"{"time": 20, "content": {"assetID": "\#(ad)"}}"#).status == .created)
            #expect(try await post(client, base, #"{"cue": "pre", "content": {"uri": "https://ads.example.com/a.m3u8"}, "duration": 6}"#).status == .created)
            #expect(try await post(client, base, #"{"cue": "post", "content": {"assetList": "/lists/post.json"}, "duration": 4}"#).status == .created)

            // A replacing break right after the inserted ones fits (those take no primary time); it is then deleted.
            let fits = try await post(client, base, #"{"time": 22, "content": {"assetID": "\#(ad)"}, "resumptionOffset": 5}"#)
            #expect(fits.status == .created, "\(fits.text)")
            let fitsID = try fits.json(AuthoredInterstitial.self).id
            try await client.execute(uri: "\(base)/\(fitsID)", method: .delete) { #expect($0.status == .noContent) }
            try await client.execute(uri: "\(base)/\(fitsID)", method: .delete) { #expect($0.status == .notFound) }

            let refusals: [(String, HTTPResponse.Status, String)] = [
                (#"{"time": 18, "content": {"assetID": "\#(ad)"}, "resumptionOffset": 5}"#, .conflict, "overlaps the break at 20 s"),
                (#"{"time": 75, "content": {"assetID": "\#(ad)"}}"#, .conflict, "past the end of the asset (60 s)"),
                (#"{"time": 58, "content": {"assetID": "\#(ad)"}, "resumptionOffset": 5}"#, .conflict, "past its end"),
                (#"{"time": 30, "content": {"assetID": "no-such-ad"}}"#, .conflict, "No asset with id no-such-ad"),
                (#"{"time": 30, "content": {"assetID": "\#(feature)"}}"#, .badRequest, "cannot play itself"),
                (
                    #"{"time": 30, "content": {"assetID": "\#(ad)"}, "playoutLimit": 1, "skipControl": {"offset": 2}}"#, .badRequest,
                    "playout limit (1 s) is shorter than the skip button's offset (2 s)"
                ),
                (#"{"time": 30, "content": {"assetID": "\#(ad)", "uri": "https://x.example/a.m3u8"}}"#, .badRequest, "exactly one of"),
                (#"{"time": 30, "content": {"uri": "ftp://x.example/a.m3u8"}, "duration": 3}"#, .badRequest, "http(s) URL"),
                (#"{"time": 30, "content": {"uri": "https://x.example/a.m3u8"}}"#, .badRequest, "Give a \"duration\""),
                (#"{"time": -1, "content": {"assetID": "\#(ad)"}}"#, .badRequest, "non-negative"),
                (#"{"time": 30, "content": {"assetID": "\#(ad)"}, "skipControl": {"offset": 9}}"#, .badRequest, "after the break ends"),
                (#"{"time": 30}"#, .badRequest, ""),
            ]
            for (body, status, message) in refusals {
                let response = try await post(client, base, body)
                #expect(response.status == status, "\(body): \(response.text)")
                #expect(message.isEmpty ? !response.errorMessage.isEmpty : response.errorMessage.contains(message), "\(body): \(response.errorMessage)")
            }
            #expect(try await post(client, "/api/assets/nope/interstitials", #"{"content": {"assetID": "\#(ad)"}}"#).status == .notFound)

            // Change one: the whole event is replaced and validated again.
            let changed = try await post(client, "\(base)/\(event.id)", #"{"time": 40, "content": {"assetID": "\#(ad)"}}"#, method: .put)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.json(AuthoredInterstitial.self).time == 40)
            #expect(try await post(client, "\(base)/nope", #"{"time": 40, "content": {"assetID": "\#(ad)"}}"#, method: .put).status == .notFound)

            try await client.execute(uri: base, method: .get) { response throws in
                let events = try response.json(InterstitialRoutes.EventList.self).events
                #expect(events.map(\.cue) == [.pre, .none, .none, .post], "pre-roll first, post-roll last")
                #expect(events.map(\.time) == [0, 20, 40, 0])
            }
            try await client.execute(uri: "\(base)/\(event.id)/asset-list.json", method: .get) { response throws in
                #expect(response.status == .ok)
                let list = try response.json(InterstitialAssetList.self)
                #expect(list.assets.map(\.uri) == ["/media/\(ad)/master.m3u8"] && list.assets.map(\.duration) == [5])
            }
        }
        // A new session plays exactly these events, with their rules.
        let events = try await SessionInterstitials(library: library).events(for: feature)
        #expect(events.count == 4)
        let mid = try #require(events.first { $0.time == 40 })
        #expect(mid.url == "/api/assets/\(ad)/manifest.json" && mid.duration == 5 && mid.resumptionOffset == 0)
        #expect(events.first?.cue == .joinCue && events.last?.cue == .leaveCue)
        #expect(events.first?.url == "https://ads.example.com/a.m3u8")
        #expect(events.last?.assetListURL == "/lists/post.json")
    }

    @Test("Writes are the owner's; anyone who may browse reads the events")
    func access() {
        #expect(AccessRules.permission(method: .get, path: "/api/assets/a/interstitials") == .browse)
        #expect(AccessRules.permission(method: .post, path: "/api/assets/a/interstitials") == .manage)
        #expect(AccessRules.permission(method: .put, path: "/api/assets/a/interstitials/e") == .manage)
        #expect(AccessRules.permission(method: .delete, path: "/api/assets/a/interstitials/e") == .manage)
    }

    /// Events of every kind, as authored.
    static func everyKind(ad: String) -> [AuthoredInterstitial] {
        [
            AuthoredInterstitial(id: "pre", cue: .pre, once: true, content: .init(assetID: ad), duration: 2),
            AuthoredInterstitial(
                id: "mid-a", time: 1.5, content: .init(assetID: ad), duration: 2, resumptionOffset: 0, playoutLimit: 1.5,
                restrictions: .init(skip: true, jump: true), snap: .init(out: true, in: true),
                skipControl: .init(offset: 0.5, duration: 1, labels: ["en": "Skip ad", "ja": "広告をスキップ"])),
            AuthoredInterstitial(
                id: "mid-b", time: 1.5, content: .init(uri: "https://ads.example.com/b.m3u8"), duration: 3,
                resumptionOffset: 1, timelineOccupies: .range, timelineStyle: .primary, contentMayVary: false),
            AuthoredInterstitial(id: "post", cue: .post, content: .init(assetList: "https://ads.example.com/list.json"), duration: 2),
        ]
    }

    @Test("The asset's served playlists are strict-valid and carry each event, which reads back the same")
    func servedPlaylistsRoundTrip() async throws {
        let fixture = try await ServerFixture.shared.value
        let bundle = fixture.library.location.bundleDirectory(for: fixture.clipID)
        let authored = Self.everyKind(ad: fixture.adID)
        let anchor = Date(timeIntervalSince1970: 1_800_000_000)
        let master = try #require(PlaylistParser.parse(try Data(contentsOf: bundle.appendingPathComponent(BundleLayout.multivariantPlaylist))).playlist)
        let masterText = InterstitialPlaylists.decorate(master, events: authored, primaryDuration: 4, programDateTime: anchor)
        let strictMaster = PlaylistParser.parse(masterText, options: .strict)
        #expect(strictMaster.diagnostics.isEmpty, "\(strictMaster.diagnostics)")
        let labels = try #require(strictMaster.playlist?.multivariant).sessionData
        #expect(labels.filter { $0.dataID == "skip-mid-a" }.map { "\($0.language ?? "")=\($0.value ?? "")" } == ["en=Skip ad", "ja=広告をスキップ"])

        let video = try #require(PlaylistParser.parse(try Data(contentsOf: bundle.appendingPathComponent("video/index.m3u8"))).playlist)
        let text = InterstitialPlaylists.decorate(video, events: authored, primaryDuration: 4, programDateTime: anchor)
        #expect(text.contains("#EXT-X-PROGRAM-DATE-TIME:"))
        #expect(text.components(separatedBy: #"CLASS="com.apple.hls.interstitial""#).count - 1 == 4)
        let strict = PlaylistParser.parse(text, options: .strict)
        #expect(strict.diagnostics.isEmpty, "\(strict.diagnostics)")
        let read = InterstitialEvent.events(in: try #require(strict.playlist?.media), labels: labels)
        var expected = authored.map(\.playbackEvent)
        // The served playlist names the HLS of a library ad, not the player's manifest.
        for i in expected.indices where authored[i].content.assetID != nil { expected[i].url = "/media/\(fixture.adID)/master.m3u8" }
        // A post-roll sits at the end of the primary's timeline.
        expected[3].time = read.first { $0.id == "post" }?.time ?? -1
        #expect(read.map(\.id) == expected.map(\.id))
        for (got, want) in zip(read, expected) { #expect(got == want, "\(got.id)") }
        #expect(abs(expected[3].time - 4) < 0.01)
    }

    @Test("The interstitial examples of the playlist corpus give the same events when read, written and read again")
    func corpusExamples() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/corpus/hls")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { $0.contains("interstitial") && $0.hasSuffix(".m3u8") }
        try #require(!names.isEmpty, "no corpus at \(corpus.path)")
        var checked = 0
        for name in names.sorted() {
            guard let media = PlaylistParser.parse(try Data(contentsOf: corpus.appendingPathComponent(name))).playlist?.media,
                let anchor = media.segments.first?.programDateTime?.date, media.endList
            else { continue }
            let events = InterstitialEvent.events(in: media)
            guard !events.isEmpty else { continue }
            var written = media
            written.scheduleInterstitials(
                events.map { PlacedInterstitial(time: $0.time, interstitial: $0.hlsInterstitial(assetURI: $0.url)) },
                programDateTime: anchor)
            let reread = try #require(PlaylistParser.parse(PlaylistWriter.write(.media(written))).playlist?.media)
            let again = InterstitialEvent.events(in: reread)
            #expect(again.count == events.count, "\(name)")
            for (a, b) in zip(again, events) {
                var a = a
                a.time = (a.time * 1000).rounded() / 1000
                var b = b
                b.time = (b.time * 1000).rounded() / 1000
                #expect(a == b, "\(name): \(a.id)")
            }
            checked += 1
        }
        #expect(checked >= 3)
        // One example spelt out: a PRE,ONCE pre-roll restricted against jumping, and a mid-roll at 4 s.
        let shaka = try #require(
            PlaylistParser.parse(try Data(contentsOf: corpus.appendingPathComponent("shaka-interstitials-cue-pre-once-playout-limit-media.m3u8"))).playlist?
                .media)
        let events = InterstitialEvent.events(in: shaka)
        #expect(events.map(\.cue) == [.joinCue, .none])
        #expect(events.map(\.willPlayOnce) == [true, true])
        #expect(events[0].restrictions == [.constrainsSeekingForwardInPrimaryContent])
        #expect(events[1].restrictions == [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement])
        #expect(events[1].time == 4 && events[1].resumptionOffset == 6 && events[1].playoutLimit == 5)
    }
}

@Suite("Interstitials from an asset's own playlists")
struct StreamInterstitialTests {
    @Test("A bundle whose playlists carry interstitial date ranges gets those breaks, with their restrictions; authored ones replace them")
    func importedBreaks() async throws {
        let (library, feature, ad) = try await InterstitialAuthoringTests.library()
        let bundle = library.location.bundleDirectory(for: feature)
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("v1"), withIntermediateDirectories: true)
        try """
        #EXTM3U
        #EXT-X-SESSION-DATA:DATA-ID="skip",VALUE="Skip",LANGUAGE="en"
        #EXT-X-STREAM-INF:BANDWIDTH=800000
        v1/index.m3u8
        """.write(to: bundle.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXTINF:6,
        a.m4s
        #EXTINF:6,
        b.m4s
        #EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="PRE,ONCE",X-ASSET-URI="../interstitial-1/index.m3u8",X-RESTRICT="SKIP,JUMP",X-RESUME-OFFSET=0
        #EXT-X-DATERANGE:ID="mid",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:07.500Z",DURATION=5,X-ASSET-LIST="https://ads.example.com/list.json",X-SKIP-CONTROL-OFFSET=2,X-SKIP-CONTROL-LABEL-ID="skip"
        #EXT-X-ENDLIST
        """.write(to: bundle.appendingPathComponent("v1/index.m3u8"), atomically: true, encoding: .utf8)
        let events = try await SessionInterstitials(library: library).events(for: feature)
        #expect(events.map(\.id) == ["pre", "mid"])
        #expect(events[0].cue == .joinCue && events[0].willPlayOnce && events[0].restrictsJumping && events[0].restrictsSkipping)
        #expect(events[0].url == "/media/\(feature)/interstitial-1/index.m3u8")
        #expect(events[1].time == 7.5 && events[1].assetListURL == "https://ads.example.com/list.json")
        #expect(events[1].resumptionOffset == 5, "no X-RESUME-OFFSET: the interstitial's duration")
        #expect(events[1].skipControl == InterstitialSkipControl(offset: 2, labelID: "skip", labels: ["en": "Skip"]))

        let authored = AuthoredInterstitial(time: 3, content: .init(assetID: ad), duration: 5)
        _ = try await library.store.saveAuthoredInterstitial(authored.with(assetID: feature), replacing: false) { event, _ in event }
        #expect(try await SessionInterstitials(library: library).events(for: feature).map(\.time) == [3])
    }
}

extension AuthoredInterstitial {
    func with(assetID: String) -> AuthoredInterstitial {
        var copy = self
        copy.assetID = assetID
        return copy
    }
}
