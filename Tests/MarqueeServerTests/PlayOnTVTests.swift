import DeviceLink
import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// "Play on TV": a paired remote's `playItem` reaches the TV's open screens (its pages on
/// /api/devices/screen) with the item, time and speed; without a screen, or with a bad
/// request, the remote gets a clear error and the link stays open.
@Suite("Play on TV")
struct PlayOnTVTests {
    let support = NearbyDevicesTests()

    @Test func aPlayItemGoesToEveryOpenScreen() async throws {
        let (devices, _) = try await support.tv()
        let client = await support.phone(devices, service: "remote")

        await client.send(.playItem, Array(#"{"assetID":"a1","time":12.5,"rate":1.5}"#.utf8))
        let none = try #require(await support.next(.intentResult, from: client))
        #expect(none["type"] as? String == "error")
        #expect((none["message"] as? String)?.contains("No screen of the TV is open") == true)

        let (id, screen) = await devices.screens.open()
        await client.send(.playItem, Array(#"{"assetID":"a1","time":12.5,"rate":1.5}"#.utf8))
        let answer = try #require(await support.next(.intentResult, from: client))
        #expect(answer["type"] as? String == "playing-on-screen" && answer["screens"] as? Int == 1)
        var requests = screen.makeAsyncIterator()
        let request = try #require(await requests.next())
        #expect(request == NearbyScreens.PlayRequest(assetID: "a1", time: 12.5, rate: 1.5, from: "Phone"))

        await client.send(.playItem, Array(#"{"assetID":"../etc","time":-1,"rate":1}"#.utf8))
        let bad = try #require(await support.next(.intentResult, from: client))
        #expect(bad["message"] as? String == "playItem needs the id of an item in this TV's library")
        await client.send(.playItem, Array(#"{"assetID":"a1","time":3,"rate":0}"#.utf8))
        #expect(try #require(await support.next(.intentResult, from: client))["message"] as? String == "playItem's rate must be between 0 and 16")
        await client.send(.playItem, Array(#"{"time":3}"#.utf8))
        #expect((try #require(await support.next(.intentResult, from: client))["message"] as? String)?.hasPrefix("playItem needs") == true)
        await devices.screens.close(id)
        #expect(await devices.screens.count == 0)
        await client.stop()
    }

    @Test func aTicTacToeLinkMayNotAskToPlay() async throws {
        let (devices, _) = try await tv()
        let (id, screen) = await devices.screens.open()
        let received = Task { () -> NearbyScreens.PlayRequest? in
            for await request in screen { return request }
            return nil
        }
        let client = await support.phone(devices, service: "tictactoe")
        _ = await support.next(.gameState, from: client)
        let link = try #require(await client.current)
        await client.send(.playItem, Array(#"{"assetID":"a1","time":0,"rate":1}"#.utf8))
        // The service does not declare playItem: the TV closes the link instead of playing.
        try await eventually("the TV to close the link") { await client.current !== link }
        await devices.screens.close(id)
        #expect(await received.value == nil)
        await client.stop()
    }

    func tv() async throws -> (NearbyDevices, PlaybackSessions) { try await support.tv() }
}
