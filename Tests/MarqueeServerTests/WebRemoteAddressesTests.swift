import Testing

@testable import MarqueeServer

/// The addresses the TV's QR code may point a phone at.
@Suite("Web remote addresses") struct WebRemoteAddressesTests {
    @Test func loopbackOnlyOffersNothingAPhoneCouldReach() {
        #expect(WebRemoteAddresses.forListening(on: "127.0.0.1").isEmpty)
        #expect(WebRemoteAddresses.forListening(on: "localhost").isEmpty)
        #expect(WebRemoteAddresses.forListening(on: "::1").isEmpty)
        #expect(WebRemoteAddresses.forListening(on: nil).isEmpty)
    }

    @Test func aSpecificAddressIsThatAddress() {
        #expect(WebRemoteAddresses.forListening(on: "192.168.1.20") == ["192.168.1.20"])
    }

    @Test func everyInterfaceMeansTheUpNonLoopbackIPv4Addresses() {
        let addresses = WebRemoteAddresses.forListening(on: "0.0.0.0")
        #expect(!addresses.contains { $0.hasPrefix("127.") })
        #expect(addresses.allSatisfy { $0.split(separator: ".").count == 4 })
        #expect(addresses == WebRemoteAddresses.interfaceAddresses())
    }
}
