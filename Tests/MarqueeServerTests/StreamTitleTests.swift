import Foundation
import HLS
import Testing

@testable import MarqueeServer

/// The title `/downloads` offers for a stream before anyone types one: the playlist's own, or
/// the most telling part of its path — never the host, which names the server, not the stream.
@Suite("A stream's suggested title")
struct StreamTitleTests {
    func title(_ text: String, sessionData: [SessionData] = []) -> String {
        var playlist = MultivariantPlaylist()
        playlist.sessionData = sessionData
        return StreamInspector.suggestedTitle(for: URL(string: text)!, playlist: playlist)
    }

    @Test func thePlaylistsOwnTitleComesFirst() {
        let named = [
            SessionData(dataID: "com.example.chapters", value: "x"),
            SessionData(dataID: "com.apple.hls.title", value: "  Big Buck Bunny ", language: "en"),
        ]
        #expect(title("http://127.0.0.1:8080/master.m3u8", sessionData: named) == "Big Buck Bunny")
        // A title kept at a URI (not inline) is not fetched: the path speaks instead.
        #expect(title("http://127.0.0.1:8080/films/sintel/master.m3u8", sessionData: [SessionData(dataID: "com.apple.hls.title", uri: "t.json")]) == "sintel")
    }

    @Test func thePathNamesTheStreamAndTheHostNever() {
        #expect(title("http://127.0.0.1:8080/Flight.m3u8") == "Flight")
        #expect(title("http://127.0.0.1:8080/long/master.m3u8") == "long")
        #expect(title("https://cdn.example.com/tears-of-steel/hls/index.m3u8?token=1") == "tears-of-steel")
        // Nothing but generic names: the file's own name, not "127.0.0.1".
        #expect(title("http://127.0.0.1:8080/master.m3u8") == "master")
        #expect(title("http://127.0.0.1:8080/hls/index.m3u8") == "index")
        #expect(title("http://127.0.0.1:8080/") == "Download")
    }
}
