import DeviceLink
import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import MediaTesting
import NIOCore
import Testing

@testable import MarqueeServer
@testable import Playback

/// The TV side of nearby devices without sockets: a remote pairs (approved through the
/// pending-pairing API), its intents reach the session on screen and its renderer, and a
/// Tic-Tac-Toe game continues across a reconnection.
@Suite("Nearby devices on the TV")
struct NearbyDevicesTests {
    func tv() async throws -> (NearbyDevices, PlaybackSessions) {
        let sessions = PlaybackSessions()
        var session = PlaybackSession(id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Clip"))
        _ = session.handle(.ready(duration: 60))
        await sessions.insert(session)
        return (try NearbyDevices(directory: nil, name: "TV", sessions: sessions), sessions)
    }

    /// A phone whose person approves; the TV's person approves the pending pairing whose code matches.
    func phone(_ devices: NearbyDevices, service: String) async -> LinkClient {
        let client = LinkClient(
            identity: DeviceIdentity(name: "Phone", platform: "web"), trust: try! DeviceTrust(), service: service,
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(100)),
            connect: {
                let (mine, theirs) = InMemoryTransport.pair()
                Task { await devices.accept(theirs) }
                return mine
            },
            approve: { code, _, _ in
                for _ in 0..<3000 {
                    if let pending = await devices.pendingPairings.first(where: { $0.code == code.digits }) {
                        return await devices.answer(pending.id, approved: true)
                    }
                    // A poll inside the approval callback, which cannot throw: it answers no after 30 s
                    // (2 s was tight for a full parallel run on two loaded cores).
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return false
            })
        await client.start()
        return client
    }

    func next(_ type: LinkMessageType, from client: LinkClient) async -> [String: Any]? {
        for await message in client.messages where message.type == type {
            return try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]
        }
        return nil
    }

    @Test func aRemoteIntentGoesToTheSessionOnScreenAndItsRenderer() async throws {
        let (devices, sessions) = try await tv()
        let (_, renderer) = try #require(await sessions.attachRenderer(to: "s1"))
        let client = await phone(devices, service: "remote")
        let nowPlaying = try #require(await next(.nowPlaying, from: client))
        #expect(((nowPlaying["session"] as? [String: Any])?["metadata"] as? [String: Any])?["title"] as? String == "Clip")
        await client.send(.intent, Array(#"{"v":1,"type":"intent","id":7,"intent":"seek","time":42}"#.utf8))
        let result = try #require(await next(.intentResult, from: client))
        #expect(result["type"] as? String == "commands" && result["replyTo"] as? Int == 7)
        #expect(await sessions.session(id: "s1")?.currentTime == 42)
        var sawSeek = false
        for await message in renderer {
            if message.type == "commands", message.commands?.first?.command == "seek", message.commands?.first?.time == 42 {
                sawSeek = true
                break
            }
        }
        #expect(sawSeek)
        // A malformed intent gets a clear error, not a crash or a closed link.
        await client.send(.intent, Array(#"{"v":1,"type":"intent","intent":"warp"}"#.utf8))
        let error = try #require(await next(.intentResult, from: client))
        #expect(error["message"] as? String == "unknown intent \"warp\"")
        #expect(await devices.trust.devices.map(\.peer.name) == ["Phone"])
        await client.stop()
    }

    @Test func theGameContinuesWhereItWasAfterTheLinkDrops() async throws {
        let (devices, _) = try await tv()
        let client = await phone(devices, service: "tictactoe")
        _ = await next(.gameState, from: client)
        await client.send(.selectedCharacter, Array(#"{"character":"x"}"#.utf8))
        _ = await next(.gameState, from: client)
        await client.send(.move, Array(#"{"index":0}"#.utf8))
        let afterMove = try #require(await next(.gameState, from: client))
        let board = try #require(afterMove["board"] as? [String])
        #expect(board[0] == "x" && board.filter { $0 == "o" }.count == 1)
        await client.current?.abort()
        // On the new connection the TV sends the same board first.
        let resumed = try #require(await next(.gameState, from: client))
        #expect(resumed["board"] as? [String] == board)
        await client.send(.move, Array(#"{"index":0}"#.utf8))
        let refused = try #require(await next(.gameState, from: client))
        #expect((refused["error"] as? String)?.contains("not an empty square") == true)
        await client.stop()
    }

    @Test func aFloodOfPairingRequestsCannotBuryTheRealOne() async throws {
        let (devices, _) = try await tv()
        var attempts: [Task<Bool, Never>] = []
        for index in 0..<(NearbyDevices.maximumPendingPairings + 1) {
            let (mine, theirs) = InMemoryTransport.pair()
            Task { await devices.accept(theirs) }
            attempts.append(
                Task {
                    let (handshake, hello) = PairingHandshake.initiate(
                        identity: DeviceIdentity(name: "Flood \(index)", platform: "linux"),
                        request: .init(trusted: .init(), service: "remote", session: "\(index)", purpose: .pair))
                    do {
                        _ = try await LinkHandshake.run(handshake, sending: [hello], transport: mine, reader: FrameReader(transport: mine)) { _, _, _ in true }
                        return true
                    } catch { return false }
                })
            if index < NearbyDevices.maximumPendingPairings {
                try await eventually("pairing request \(index + 1) to be pending") { await devices.pendingPairings.count > index }
            }
        }
        // The one over the limit was turned down without being shown.
        #expect(await attempts.last!.value == false)
        #expect(await devices.pendingPairings.count == NearbyDevices.maximumPendingPairings)
        for pairing in await devices.pendingPairings { await devices.answer(pairing.id, approved: false) }
        for attempt in attempts.dropLast() { #expect(await attempt.value == false) }
    }

    @Test func openAPIDocumentsTheDeviceRoutes() throws {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let paths = Set((document?["paths"] as? [String: Any])?.keys.map { $0 } ?? [])
        for path in ["/api/devices", "/api/devices/pairings/{id}", "/api/devices/{id}", "/api/devices/link"] {
            #expect(paths.contains(path), "\(path) is not documented")
        }
    }
}

/// The same link protocol over the server's WebSocket route (what a browser uses).
@Suite("Nearby devices over WebSocket")
struct NearbyWebSocketTests {
    @Test func aDevicePairsAndSendsAnIntentOverTheWebSocketRoute() async throws {
        let sessions = PlaybackSessions()
        let devices = try NearbyDevices(directory: nil, name: "TV", sessions: sessions)
        let fixture = try await ServerFixture.shared.value
        var server = MarqueeServer(library: fixture.library, sessions: sessions)
        server.nearby = devices
        try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
            try await client.ws("/api/devices/link") { inbound, outbound, _ in
                let transport = BridgedTransport()
                let writer = Task {
                    for await bytes in transport.outbound { try? await outbound.write(.binary(ByteBuffer(bytes: bytes))) }
                }
                let reader = Task {
                    do {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .binary(let buffer) = message { await transport.inbound.push(Array(buffer.readableBytesView)) }
                        }
                    } catch {}
                    await transport.inbound.finish()
                }
                let (handshake, hello) = PairingHandshake.initiate(
                    identity: DeviceIdentity(name: "Browser", platform: "web"),
                    request: .init(
                        trusted: .init(), service: "remote", session: "web-1", purpose: .pair))
                let frames = FrameReader(transport: transport)
                let establishment = try await LinkHandshake.run(handshake, sending: [hello], transport: transport, reader: frames) { code, _, _ in
                    for _ in 0..<3000 {
                        if let pending = await devices.pendingPairings.first(where: { $0.code == code.digits }) {
                            #expect(pending.platform == "web" && pending.service == "remote")
                            return await devices.answer(pending.id, approved: true)
                        }
                        try? await Task.sleep(for: .milliseconds(10))  // a poll in the approval callback, as in `phone`
                    }
                    return false
                }
                let link = LinkConnection(establishment: establishment, isInitiator: true, transport: transport, reader: frames)
                await link.start()
                try await link.send(.intent, Array(#"{"v":1,"type":"intent","id":3,"intent":"play"}"#.utf8))
                var result: [String: Any]?
                for try await message in link.messages where message.type == .intentResult {
                    result = try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]
                    break
                }
                #expect(result?["message"] as? String == "Nothing is playing on the TV")
                #expect(result?["replyTo"] as? Int == 3)
                await link.close()
                // The TV ends the socket once the link has closed.
                await reader.value
                writer.cancel()
            }
        }
        #expect(await devices.trust.devices.map(\.peer.platform) == ["web"])
    }
}
