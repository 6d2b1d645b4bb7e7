import Foundation
import MediaTesting
import Testing

@testable import DeviceLink

@Suite struct LinkConnectionTests {
    /// Pairs a phone with a TV over the in-memory transport; returns the phone's client.
    static func pairedPhone(
        tv: TestTV, board: CodeBoard, trust: DeviceTrust = try! DeviceTrust(),
        wrap: @escaping @Sendable (any LinkTransport) -> any LinkTransport = { $0 },
        heartbeat: HeartbeatPolicy = HeartbeatPolicy()
    ) async -> LinkClient {
        let client = LinkClient(
            identity: phoneIdentity(), trust: trust, service: "remote",
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(100)),
            heartbeat: heartbeat, connect: { wrap(tv.dial()) }, approve: board.approver("phone", other: "tv"))
        await client.start()
        return client
    }

    @Test func pairingOverATransportTrustsBothWaysAndCarriesMessages() async throws {
        let board = CodeBoard()
        let tvTrust = try DeviceTrust()
        let phoneTrust = try DeviceTrust()
        let tv = TestTV(trust: tvTrust, approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board, trust: phoneTrust)
        await phone.send(.intent, Array("{\"intent\":\"play\"}".utf8))
        try await tv.waitForMessages(1)
        let first = try #require(await tv.messages.first)
        #expect(first.message == LinkMessage(.intent, payload: Array("{\"intent\":\"play\"}".utf8)))
        #expect(first.session == phone.session)
        #expect(await tvTrust.devices.map(\.peer.name) == ["Phone"])
        #expect(await phoneTrust.devices.map(\.peer.name) == ["Living room TV"])
        #expect(await board.asked == 2)
        await phone.stop()
    }

    @Test func theClientReconnectsAfterAnAbortAndTheSessionContinuesWithoutAskingAgain() async throws {
        let board = CodeBoard()
        let tv = TestTV(trust: try DeviceTrust(), approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board)
        await phone.send(.intent, Array("one".utf8))
        try await tv.waitForMessages(1)
        let first = try #require(await phone.current)
        await first.abort()  // the phone's app was suspended
        await phone.send(.intent, Array("two".utf8))  // waits for the next connection
        try await tv.waitForMessages(2)
        await phone.send(.intent, Array("three".utf8))
        try await tv.waitForMessages(3)
        let received = await tv.messages
        #expect(received.map { String(decoding: $0.message.payload, as: UTF8.self) } == ["one", "two", "three"])
        #expect(Set(received.map(\.session)) == [phone.session])
        #expect(await phone.connectionCount == 2)
        #expect(await tv.connections.count == 2)
        #expect(await board.asked == 2, "reconnecting asked for approval again")
        #expect(await tv.connections[1].newlyPaired == false)
        await phone.stop()
    }

    @Test func aRelayInTheMiddleMakesTheCodesDifferAndPairingFails() async throws {
        // phone <-> relay (posing as the TV) ... relay (posing as the phone) <-> TV.
        // Every half ends with a refusal; the 60 s timeouts only bound a failing run (with 5 s, a
        // full parallel run on two loaded cores once timed the phone's handshake out).
        let board = CodeBoard()
        let tvTrust = try DeviceTrust()
        let phoneTrust = try DeviceTrust()
        let tv = TestTV(trust: tvTrust, approve: board.approver("tv", other: "phone"))
        let relayAsTV = LinkResponder(
            identity: DeviceIdentity(name: "Living room TV", platform: "linux"), services: .marquee,
            trust: try DeviceTrust(), handshakeTimeout: .seconds(60))
        let relayAsPhone = DeviceIdentity(name: "Phone", platform: "linux")
        let relayTrust = try DeviceTrust()
        let (phoneEnd, relayEnd) = InMemoryTransport.pair()
        let relay = Task {
            // The relay approves its own halves; it cannot approve for the people.
            async let towardsPhone = try? relayAsTV.accept(relayEnd) { _, _, _ in true }
            let toTV = tv.dial()
            let (handshake, hello) = PairingHandshake.initiate(
                identity: relayAsPhone,
                request: .init(
                    trusted: await relayTrust.trusted, service: "remote", session: "relay", purpose: .pair))
            async let towardsTV = try? LinkHandshake.run(
                handshake, sending: [hello], transport: toTV,
                reader: FrameReader(transport: toTV), timeout: .seconds(60)
            ) { _, _, _ in true }
            return (await towardsPhone != nil, await towardsTV != nil)
        }
        let (handshake, hello) = PairingHandshake.initiate(
            identity: phoneIdentity(),
            request: .init(
                trusted: await phoneTrust.trusted, service: "remote", session: "p", purpose: .pair))
        let phoneResult: Result<LinkEstablishment, any Error>
        do {
            phoneResult = .success(
                try await LinkHandshake.run(
                    handshake, sending: [hello], transport: phoneEnd,
                    reader: FrameReader(transport: phoneEnd), timeout: .seconds(60),
                    approve: board.approver("phone", other: "tv")))
        } catch { phoneResult = .failure(error) }
        let (relayGotPhone, relayGotTV) = await relay.value
        guard case .failure(LinkClosed.handshake(.refused(.rejected))) = phoneResult else {
            Issue.record("the phone did not reject: \(phoneResult)")
            return
        }
        #expect(!relayGotPhone && !relayGotTV)
        try await eventually("the TV counted the failed pairing") { await tv.failures.count == 1 }
        #expect(await tvTrust.devices.isEmpty)
        #expect(await phoneTrust.devices.isEmpty)
    }

    @Test func aNeverPairedDeviceIsRefusedAndCannotSendAnything() async throws {
        let tv = TestTV(trust: try DeviceTrust()) { _, _, _ in
            Issue.record("asked to approve")
            return false
        }
        let stranger = LinkClient(
            identity: phoneIdentity(), trust: try DeviceTrust(), service: "remote", purpose: .connect,
            connect: { tv.dial() }, approve: { _, _, _ in false })
        await stranger.start()
        await stranger.send(.intent, Array("play".utf8))
        var stopped: LinkClosed?
        for await event in stranger.events { if case .stopped(let reason) = event { stopped = reason } }
        #expect(stopped == .handshake(.refusedByPeer(.notPaired, retryAfter: nil)))
        #expect(await tv.messages.isEmpty)
        #expect(await tv.connections.isEmpty)
    }

    @Test func fiveRejectedAttemptsLockThatPhoneOnlyWithoutAskingTheTV() async throws {
        let tvTrust = try DeviceTrust()
        let asked = Counter()
        let tv = TestTV(trust: tvTrust) { _, _, _ in
            await asked.increment()
            return false
        }
        let phone = phoneIdentity()
        func attempt(_ identity: DeviceIdentity) async throws -> LinkEstablishment {
            let (handshake, hello) = PairingHandshake.initiate(
                identity: identity, request: .init(trusted: .init(), service: "remote", session: "s", purpose: .pair))
            let end = tv.dial()
            return try await LinkHandshake.run(handshake, sending: [hello], transport: end, reader: FrameReader(transport: end)) { _, _, _ in true }
        }
        for _ in 0..<5 {
            await #expect(throws: LinkClosed.handshake(.refusedByPeer(.rejected, retryAfter: nil))) { try await attempt(phone) }
        }
        // The TV counts each failure once its side of the handshake has ended.
        try await eventually("five failures counted") { await tv.failures.count == 5 }
        do {
            _ = try await attempt(phone)
            Issue.record("paired while locked")
        } catch LinkClosed.handshake(.refusedByPeer(.pairingLocked, let retryAfter)) {
            #expect((retryAfter ?? 0) > 290)
        }
        #expect(await asked.value == 5)
        #expect(await tvTrust.pairingLockedFor(peer: phone.fingerprint) != nil)
        // Another phone is asked as usual: the lock is that phone's, not everyone's.
        await #expect(throws: LinkClosed.handshake(.refusedByPeer(.rejected, retryAfter: nil))) { try await attempt(phoneIdentity()) }
        #expect(await asked.value == 6)
    }

    @Test func peersThatRefuseOnPurposeDoNotLockPairing() async throws {
        // Five connections that say hello and then refuse ("rejected") themselves: the TV
        // proved nothing against them, so nothing is counted and a real phone pairs after.
        let tvTrust = try DeviceTrust()
        let tv = TestTV(trust: tvTrust) { _, _, _ in true }
        let prankster = phoneIdentity()
        for _ in 0..<5 {
            let (handshake, hello) = PairingHandshake.initiate(
                identity: prankster, request: .init(trusted: .init(), service: "remote", session: "s", purpose: .pair))
            let end = tv.dial()
            await #expect(throws: LinkClosed.self) {
                try await LinkHandshake.run(handshake, sending: [hello], transport: end, reader: FrameReader(transport: end)) { _, _, _ in false }
            }
        }
        try await eventually("five failures seen") { await tv.failures.count == 5 }
        #expect(await tvTrust.lockedPeers.isEmpty)
        // Then the prankster itself can still pair for real.
        let (handshake, hello) = PairingHandshake.initiate(
            identity: prankster, request: .init(trusted: .init(), service: "remote", session: "s", purpose: .pair))
        let end = tv.dial()
        let established = try await LinkHandshake.run(
            handshake, sending: [hello], transport: end, reader: FrameReader(transport: end)
        ) { _, _, _ in true }
        #expect(established.newlyPaired)
    }

    @Test func aConnectionThatNeverSaysHelloIsClosedLongBeforeTheHandshakeTimeout() async throws {
        let tvTrust = try DeviceTrust()
        let responder = LinkResponder(
            identity: tvIdentity(), services: .marquee, trust: tvTrust, handshakeTimeout: .seconds(120), helloTimeout: .milliseconds(300))
        let (client, server) = InMemoryTransport.pair()
        let outcome = Task { () -> LinkClosed? in
            do {
                _ = try await responder.accept(server) { _, _, _ in true }
                return nil
            } catch { return error as? LinkClosed }
        }
        // The silent side reads until the TV closes the link (a bound far below 120 s).
        let reader = FrameReader(transport: client)
        let closedByTV = Task { (try? await reader.next()) == nil }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))  // bounds a failing run: the TV should close within 0.3 s
            await client.close()
        }
        #expect(await outcome.value == .handshakeTimedOut)
        #expect(await closedByTV.value)
        watchdog.cancel()
    }

    @Test func revokingADeviceClosesItsLinkAtItsNextMessage() async throws {
        let board = CodeBoard()
        let tvTrust = try DeviceTrust()
        let tv = TestTV(trust: tvTrust, approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board)
        await phone.send(.intent, Array("one".utf8))
        try await tv.waitForMessages(1)
        let device = try #require(await tvTrust.devices.first)
        #expect(await tvTrust.revoke(id: device.id) != nil)
        await phone.send(.intent, Array("two".utf8))
        try await eventually("the TV closed the revoked link") { await tv.connections.first?.closeReason == .revoked }
        try await Task.sleep(for: .milliseconds(300))  // real time: proves nothing more is delivered
        #expect(await tv.messages.count == 1)
        await phone.stop()
    }

    @Test func aMessageTheServiceDoesNotDeclareClosesTheLink() async throws {
        let board = CodeBoard()
        let tv = TestTV(trust: try DeviceTrust(), approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board)
        await phone.send(.move, [1])  // a game move on the remote service
        try await eventually("closed") { await tv.connections.first?.closeReason == .notAllowed(LinkMessageType.move.rawValue) }
        #expect(await tv.messages.isEmpty)
        await phone.stop()
    }

    @Test(arguments: [Meddler.Mode.flipByteInNext, .replayNext, .holdNextThenSwapWithFollowing])
    func anAlteredReplayedOrReorderedFrameClosesTheLink(mode: Meddler.Mode) async throws {
        let board = CodeBoard()
        let meddler = Meddler()
        let tv = TestTV(trust: try DeviceTrust(), approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board, wrap: { MeddlingTransport(inner: $0, meddler: meddler) })
        await phone.send(.intent, Array("one".utf8))
        try await tv.waitForMessages(1)
        await meddler.set(mode)
        await phone.send(.intent, Array("two".utf8))
        await phone.send(.intent, Array("three".utf8))
        try await eventually("the TV closed the link") {
            if case .channel(.authenticationFailed) = await tv.connections.first?.closeReason { return true }
            return false
        }
        // Nothing from the bad frame on was delivered: the replayed copy comes after a good "two"
        // (which the test TV records asynchronously, so wait for it).
        if mode == .replayNext { try await tv.waitForMessages(2) }
        try await Task.sleep(for: .milliseconds(100))  // real time: proves nothing more is delivered
        let delivered = await tv.messages.map { String(decoding: $0.message.payload, as: UTF8.self) }
        #expect(delivered == (mode == .replayNext ? ["one", "two"] : ["one"]))
        await phone.stop()
    }

    @Test func aPeerThatStopsSendingIsNoticedByTheHeartbeat() async throws {
        let board = CodeBoard()
        let meddler = Meddler()
        // Both ends beat every 5 s and give up after 15 s of silence, on one manual clock: the
        // test moves time itself, so a loaded machine cannot make a beat late.
        let clock = ManualClock()
        let beat = HeartbeatPolicy(interval: .seconds(5), missedBeats: 3, clock: clock)
        let tv = TestTV(trust: try DeviceTrust(), heartbeat: beat, approve: board.approver("tv", other: "phone"))
        let phone = await Self.pairedPhone(tv: tv, board: board, wrap: { MeddlingTransport(inner: $0, meddler: meddler) }, heartbeat: beat)
        await phone.send(.intent, Array("one".utf8))
        try await tv.waitForMessages(1)
        let link = try #require(await tv.connections.first)
        // Heartbeats keep an idle link open for a minute, four times the TV's limit: each 5 s
        // the phone beats, and the TV hears it.
        for _ in 0..<12 {
            try await Self.beat(clock)
            try await eventually("the TV heard the phone's beat") { await link.lastHeardAt == clock.monotonicNow }
        }
        #expect(await link.closeReason == nil)
        // A peer that falls silent is dropped once three beats are missed (15 s), not before.
        await meddler.set(.swallowEverything)
        for _ in 0..<3 { try await Self.beat(clock) }
        try await clock.waitForSleepers(2)  // the TV has checked at 15 s, and waits again
        #expect(await link.closeReason == nil)
        try await Self.beat(clock)
        try await eventually("the TV noticed the silent peer") { await link.closeReason == .peerUnresponsive }
        await phone.stop()
    }

    /// Moves `clock` one 5 s beat on, once both ends' heartbeat loops wait on it (so each has
    /// sent and checked for the beat before).
    private static func beat(_ clock: ManualClock) async throws {
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(5))
    }

    @Test func aConnectionWhoseNoncesRunOutClosesInsteadOfReusingOne() async throws {
        let keys = testKeys()
        let (a, b) = InMemoryTransport.pair()
        let establishment = LinkEstablishment(keys: keys, peer: tvIdentity().asPeer, service: "remote", session: "s", newlyPaired: false)
        let phone = LinkConnection(establishment: establishment, isInitiator: true, transport: a, reader: FrameReader(transport: a), frameLimit: 2)
        let tv = LinkConnection(establishment: establishment, isInitiator: false, transport: b, reader: FrameReader(transport: b))
        await phone.start()
        await tv.start()
        try await phone.send(.intent, [1])
        try await phone.send(.intent, [2])
        await #expect(throws: LinkClosed.channel(.nonceExhausted)) { try await phone.send(.intent, [3]) }
        #expect(await phone.closeReason == .channel(.nonceExhausted))
        var received: [[UInt8]] = []
        do { for try await message in tv.messages { received.append(message.payload) } } catch {}
        #expect(received == [[1], [2]])
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

@Suite struct HandshakeRaceTests {
    /// The TV's person approves at once and the TV speaks first; the phone's person answers
    /// later, and the phone starts reading its channel only a little after that. The TV's first
    /// sealed frame must reach the phone's channel, not a read the handshake left behind.
    @Test func theFirstSealedFrameAfterALateApprovalIsNotLost() async throws {
        // The TV beats often, so frames are waiting when the phone starts reading; it gives up only
        // after a minute of silence, well past the phone's own beat (every 5 s): with 100 missed beats
        // (5 s) it closed a healthy link in a slow run, before the phone's first beat arrived.
        let responder = LinkResponder(
            identity: tvIdentity(), services: .marquee, trust: try DeviceTrust(),
            heartbeat: HeartbeatPolicy(interval: .milliseconds(50), missedBeats: 1200))
        let (phoneEnd, tvEnd) = InMemoryTransport.pair()
        let tv = Task { () -> LinkConnection in
            let connection = try await responder.accept(tvEnd) { _, _, _ in true }
            try await connection.send(.nowPlaying, Array("first".utf8))
            return connection
        }
        let (handshake, hello) = PairingHandshake.initiate(
            identity: phoneIdentity(),
            request: .init(
                trusted: .init(), service: "remote", session: "s", purpose: .pair))
        let reader = FrameReader(transport: phoneEnd)
        let establishment = try await LinkHandshake.run(handshake, sending: [hello], transport: phoneEnd, reader: reader) { _, _, _ in
            try? await Task.sleep(for: .milliseconds(200))  // a person who approves late: the race under test
            return true
        }
        _ = try await tv.value
        // The phone starts reading late, the race under test: the TV's frames have arrived by now.
        try await Task.sleep(for: .milliseconds(200))
        let phone = LinkConnection(establishment: establishment, isInitiator: true, transport: phoneEnd, reader: reader)
        await phone.start()
        var first: LinkMessage?
        do {
            for try await message in phone.messages {
                first = message
                break
            }
        } catch {}
        #expect(first == LinkMessage(.nowPlaying, payload: Array("first".utf8)))
        #expect(await phone.closeReason == nil)
        await phone.close()
    }
}
