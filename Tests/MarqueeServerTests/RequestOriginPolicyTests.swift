import HTTPTypes
import Testing

@testable import MarqueeServer

/// The host and origin rules that stop DNS rebinding and cross-site requests.
@Suite("Request origin policy")
struct RequestOriginPolicyTests {
    let policy = RequestOriginPolicy(allowedHosts: ["media.example.org"])

    @Test(arguments: [
        "127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "192.168.1.20:8080", "tv.localhost:80",
        "media.example.org", "Media.Example.Org:443",
    ])
    func hostsThisServerAnswersTo(host: String) {
        #expect(policy.accepts(host: host))
    }

    @Test(arguments: ["evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example", "", ":8080", "example.org"])
    func hostsItDoesNot(host: String) {
        #expect(!policy.accepts(host: host))
    }

    @Test func crossSiteStateChangesAndUpgradesAreRefusedReadsAreNot() {
        let host = "127.0.0.1:8080"
        #expect(policy.refusal(method: .post, host: host, origin: "http://127.0.0.1:8080", contentType: "application/json", isUpgrade: false) == nil)
        #expect(policy.refusal(method: .post, host: host, origin: nil, contentType: "application/json", isUpgrade: false) == nil)
        #expect(policy.refusal(method: .post, host: host, origin: "http://127.0.0.1:9999", contentType: "application/json", isUpgrade: false) != nil)
        #expect(policy.refusal(method: .delete, host: host, origin: "https://evil.example", contentType: nil, isUpgrade: false) != nil)
        #expect(policy.refusal(method: .put, host: host, origin: "null", contentType: "application/octet-stream", isUpgrade: false) != nil)
        #expect(policy.refusal(method: .get, host: host, origin: "https://evil.example", contentType: nil, isUpgrade: true) != nil)
        #expect(policy.refusal(method: .get, host: host, origin: "https://evil.example", contentType: nil, isUpgrade: false) == nil)
        // No browser sends a ws:// origin: a WebSocket library's client is not a page.
        #expect(policy.refusal(method: .get, host: host, origin: "ws://localhost", contentType: nil, isUpgrade: true) == nil)
        #expect(policy.refusal(method: .post, host: host, origin: nil, contentType: "text/plain;charset=UTF-8", isUpgrade: false)?.contains("JSON") == true)
        #expect(policy.refusal(method: .put, host: host, origin: nil, contentType: "application/octet-stream", isUpgrade: false) == nil)
        #expect(policy.refusal(method: .get, host: "rebound.example:8080", origin: nil, contentType: nil, isUpgrade: false)?.contains("host name") == true)
    }
}
