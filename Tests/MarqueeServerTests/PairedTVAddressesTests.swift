import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer

/// The paired TVs' addresses survive a restart, and a file that cannot be read is kept aside
/// instead of being overwritten by the next pairing.
@Suite("Paired TV addresses")
struct PairedTVAddressesTests {
    static let entry = PairedTVAddresses.Entry(
        deviceID: "tv-1", name: "Bedroom", fingerprint: String(repeating: "ab", count: 16), host: "192.0.2.4", port: 7420)

    @Test func entriesComeBackAfterARestart() async throws {
        let file = try ScratchFolder.make("paired-tvs").appendingPathComponent("paired-tvs.json")
        await PairedTVAddresses(file: file).remember(Self.entry)
        #expect(await PairedTVAddresses(file: file).entry(deviceID: "tv-1") == Self.entry)
    }

    @Test("An unreadable file is moved aside, not overwritten by the next write")
    func anUnreadableFileIsKeptAside() async throws {
        let folder = try ScratchFolder.make("paired-tvs")
        let file = folder.appendingPathComponent("paired-tvs.json")
        let damaged = Data("[{\"deviceID\": \"tv-0\", \"name\": \"Living ro".utf8)
        try damaged.write(to: file)
        let addresses = PairedTVAddresses(file: file)
        #expect(await addresses.all.isEmpty)
        await addresses.remember(Self.entry)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("paired-tvs.json.unreadable-") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside[0])) == damaged)
        #expect(await PairedTVAddresses(file: file).all == [Self.entry])
    }
}
