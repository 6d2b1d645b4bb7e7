import DeviceLink
import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// The TV's side of the picker over TCP on loopback: the TV chooses a device and asks it to
/// pair; both show the same code and each side approves (or rejects, which counts towards the
/// lockout); a chosen remote then controls the TV over the link the TV started, until it is
/// revoked; a chosen TV is remembered and "Play on…" hands items to it.
/// It once ran in a process of its own because the whole run "stalled" with it. No thread was
/// blocked (a backtrace showed every cooperative thread idle): on a busy machine the test
/// approved on the TV before the remote stand-in looked for the TV's code, the TV's listing was
/// gone, the stand-in rejected, and it waited for ever on a stream of accepted links its
/// `try?` had left empty. The stand-in now reads the code the TV showed, every wait has a
/// deadline, and a failed handshake is reported.
@Suite("Choosing a nearby device on the TV", .serialized)
struct ChoosingNearbyDevicesTests {
    func tv(_ name: String, lockout: PairingLockout = PairingLockout()) async throws -> (NearbyDevices, PlaybackSessions, Int) {
        let sessions = PlaybackSessions()
        var session = PlaybackSession(id: "s-\(name)", assetID: "a1", metadata: DisplayMetadata(title: "Clip"))
        _ = session.handle(.ready(duration: 60))
        await sessions.insert(session)
        let devices = try NearbyDevices(directory: nil, name: name, sessions: sessions)
        let port = try await devices.listen(host: "127.0.0.1", port: 0)
        return (devices, sessions, port)
    }

    /// Waits until `devices` lists a pending pairing in `direction`; returns it.
    func pending(_ devices: NearbyDevices, _ direction: NearbyDevices.PendingPairing.Direction) async throws -> NearbyDevices.PendingPairing {
        try await eventuallyValue("a \(direction) pairing", within: Self.patience) {
            await devices.pendingPairings.first(where: { $0.direction == direction })
        }
    }

    func outgoing(_ devices: NearbyDevices, _ id: String, becomes state: NearbyDevices.OutgoingPairing.State) async throws -> NearbyDevices.OutgoingPairing {
        try await eventuallyValue("outgoing pairing \(id) to become \(state)", within: Self.patience) {
            await devices.outgoingPairings.first(where: { $0.id == id && $0.state == state })
        }
    }

    /// How long a wait may take before the test fails: generous, because the whole `swift test`
    /// run (ingest, FFmpeg, crypto suites in parallel) can slow a two-core machine to a crawl, and
    /// a wait that gives up too early turns a slow pairing into a failure.
    static let patience: Duration = .seconds(30)

    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting for \(what)" }
    }

    @Test func theTVAsksAChosenTVToPairBothShowTheSameCodeAndBothApprove() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let (bedroom, _, bedroomPort) = try await tv("Bedroom")
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, role: .tv))
        #expect(started.state == .connecting)

        let mine = try await pending(livingRoom, .outgoing)
        let theirs = try await pending(bedroom, .incoming)
        #expect(mine.id == started.id && mine.name == "Bedroom")
        #expect(theirs.name == "Living room")
        #expect(mine.code == theirs.code && mine.code.count == 6)
        #expect(await livingRoom.outgoingPairings.first?.state == .confirming)

        // Approved here only: not paired until the chosen device's person approves too.
        #expect(await livingRoom.answer(mine.id, approved: true))
        try await Task.sleep(for: .milliseconds(200))  // real time: proves one approval does not pair
        #expect(await livingRoom.trust.devices.isEmpty)
        #expect(await bedroom.answer(theirs.id, approved: true))
        let paired = try await outgoing(livingRoom, started.id, becomes: .paired)
        #expect(paired.name == "Bedroom")
        #expect(await livingRoom.trust.devices.map(\.peer.name) == ["Bedroom"])
        #expect(await bedroom.trust.devices.map(\.peer.name) == ["Living room"])
        // The other TV is remembered with its address, for "Play on…".
        #expect(await livingRoom.playOnTargets.map(\.name) == ["Bedroom"])
        #expect(await livingRoom.playOnTargets.first?.port == bedroomPort)
        await livingRoom.stop()
        await bedroom.stop()
    }

    @Test func aRejectionOnTheChosenDeviceEndsThePairingAndCountsTowardsItsLockoutOfThisTV() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let (bedroom, _, bedroomPort) = try await tv("Bedroom")
        for attempt in 1...5 {
            let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, role: .tv))
            let theirs = try await pending(bedroom, .incoming)
            _ = try await pending(livingRoom, .outgoing)
            #expect(await bedroom.answer(theirs.id, approved: false))
            let failed = try await outgoing(livingRoom, started.id, becomes: .failed)
            #expect(failed.message == "The other device rejected the pairing", "attempt \(attempt)")
            try await eventually("the living room to list no pending pairing", within: Self.patience) { await livingRoom.pendingPairings.isEmpty }
        }
        #expect(await livingRoom.trust.devices.isEmpty)
        #expect(await bedroom.trust.devices.isEmpty)
        // Five rejections by the chosen device's person lock this TV out there (the chosen
        // device proved them); this TV proved nothing against the other, so it locks nothing.
        #expect(await bedroom.trust.pairingLockedFor(peer: livingRoom.identity.fingerprint) != nil)
        #expect(await livingRoom.trust.pairingLockedFor == nil)
        let again = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, role: .tv))
        let refused = try await outgoing(livingRoom, again.id, becomes: .failed)
        #expect(refused.message?.hasPrefix("The other device is locked after too many failed pairings") == true)
        await livingRoom.stop()
        await bedroom.stop()
    }

    @Test func aChosenTVThatIsLockedSaysSo() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let (bedroom, _, bedroomPort) = try await tv("Bedroom")
        for _ in 0..<5 { await bedroom.trust.recordFailedPairing(peer: livingRoom.identity.fingerprint) }
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, role: .tv))
        let failed = try await outgoing(livingRoom, started.id, becomes: .failed)
        #expect(failed.message?.hasPrefix("The other device is locked after too many failed pairings") == true)
        await livingRoom.stop()
        await bedroom.stop()
    }

    @Test func aBadTargetOrAnUnreachableDeviceGetsAClearAnswer() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        for (target, message) in [
            (NearbyDevices.PairingTarget(host: "", port: 7420), "host must be a host name or an IP address, e.g. 192.168.1.20"),
            (.init(host: "127.0.0.1", port: 70000), "port must be between 1 and 65535"),
            (.init(host: "127.0.0.1", port: 7420, fingerprint: "xyz"), "fingerprint must be the 32 hex digits the device advertises"),
            (.init(host: "127.0.0.1", port: 7420, service: "chess"), "Unknown application service \"chess\"; this TV offers remote, tictactoe"),
        ] {
            do {
                _ = try await livingRoom.startPairing(with: target)
                Issue.record("\(target) was accepted")
            } catch {
                #expect("\(error)" == message)
            }
        }
        // Nothing listens on port 1 of loopback.
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: 1, role: .tv))
        let failed = try await outgoing(livingRoom, started.id, becomes: .failed)
        #expect(failed.message == "Could not connect to the device")
        await livingRoom.stop()
    }

    @Test("A device chosen by its advertised fingerprint pairs with that fingerprint in either case, and another key is refused")
    func aChosenFingerprintIsHeldToInEitherCase() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let (bedroom, _, bedroomPort) = try await tv("Bedroom")
        let upper = bedroom.identity.fingerprint.uppercased()
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, fingerprint: upper, role: .tv))
        _ = try await outgoing(livingRoom, started.id, becomes: .confirming)
        // Another device's fingerprint at that address: the handshake refuses the key it meets.
        let other = String(repeating: "ab", count: 16)
        let refused = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, fingerprint: other, role: .tv))
        let failed = try await outgoing(livingRoom, refused.id, becomes: .failed)
        #expect(failed.message != nil)
        await livingRoom.stop()
        await bedroom.stop()
    }

    /// A `marquee remote --listen` stand-in: accepts the TV's link and lets the TV's answers through.
    struct ListeningRemote {
        struct TVAnswers: LinkAuthorization {
            func mayPerform(_ type: LinkMessageType, service: ApplicationService, device: PairedDevice) async -> Bool {
                device.services.contains(service.identifier) && (type == .intentResult || type == .nowPlaying)
            }
        }
        /// What the remote's listener made of each link the TV started, in order: a connection,
        /// or why its handshake failed (so a test says why instead of waiting for ever).
        actor Accepted {
            var results: [Result<LinkConnection, any Error>] = []
            func add(_ result: Result<LinkConnection, any Error>) { results.append(result) }
        }
        let trust = try! DeviceTrust()
        let listener: TCPLinkListener
        let accepted = Accepted()

        init(approve: @escaping LinkHandshake.Approver) async throws {
            listener = try await TCPLinkListener.bind(host: "127.0.0.1", port: 0)
            let responder = LinkResponder(
                identity: DeviceIdentity(name: "Phone", platform: "linux"), services: .marquee, trust: trust, authorization: TVAnswers())
            let transports = listener.transports
            let accepted = accepted
            Task {
                for await transport in transports {
                    // Each handshake on its own: one that waits for a person must not hold up the next.
                    Task {
                        do {
                            await accepted.add(.success(try await responder.accept(transport, approve: approve)))
                        } catch {
                            await accepted.add(.failure(error))
                        }
                    }
                }
            }
        }

        /// The first link the TV established with this remote; fails (never hangs) when its
        /// handshake failed or none came within `seconds`.
        func firstConnection(within seconds: Double = 60) async throws -> LinkConnection {
            try await eventuallyValue("the TV's link to the remote", within: .seconds(seconds)) { await accepted.results.first }.get()
        }
    }

    /// The code the TV's page showed, as the remote's person read it.
    actor ShownCode {
        var digits: String?
        func show(_ code: String) { digits = code }
    }

    @Test func aRemoteTheTVChoseControlsItOverTheTVsLinkUntilRevoked() async throws {
        let (livingRoom, sessions, _) = try await tv("Living room")
        let (_, renderer) = try #require(await sessions.attachRenderer(to: "s-Living room"))
        // The remote's person approves when the TV showed the same code. What the TV showed is
        // written down when the TV lists it: the TV's listing goes once its own person approves,
        // which (on a busy machine) can be before the remote gets to look.
        let shownOnTV = ShownCode()
        let remote = try await ListeningRemote { code, _, _ in
            let deadline = ContinuousClock.now + Self.patience
            while ContinuousClock.now < deadline {
                if let shown = await shownOnTV.digits { return shown == code.digits }
                // A poll inside the approval callback, which cannot throw: it answers no when time runs out.
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: remote.listener.port, role: .remote))
        let mine = try await pending(livingRoom, .outgoing)
        await shownOnTV.show(mine.code)
        #expect(await livingRoom.answer(mine.id, approved: true))
        let link = try await remote.firstConnection()
        #expect(link.newlyPaired && link.peer.name == "Living room")
        _ = try await outgoing(livingRoom, started.id, becomes: .paired)

        // The TV tells the remote what plays, and carries out its intents.
        var messages = link.messages.makeAsyncIterator()
        func next(_ type: LinkMessageType) async throws -> [String: Any] {
            while let message = try await messages.next() {
                if message.type == type { return try #require(JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]) }
            }
            throw Timeout(what: "\(type)")
        }
        let nowPlaying = try await next(.nowPlaying)
        #expect(((nowPlaying["session"] as? [String: Any])?["metadata"] as? [String: Any])?["title"] as? String == "Clip")
        try await link.send(.intent, Array(#"{"v":1,"type":"intent","id":3,"intent":"seek","time":42}"#.utf8))
        let result = try await next(.intentResult)
        #expect(result["type"] as? String == "commands" && result["replyTo"] as? Int == 3)
        #expect(await sessions.session(id: "s-Living room")?.currentTime == 42)

        // Revoked on the TV: its link closes and the remote's next intent changes nothing.
        let device = try #require(await livingRoom.trust.devices.first)
        #expect(await livingRoom.revoke(id: device.id) != nil)
        try await eventually("the revoked link to close", within: Self.patience) { await link.closeReason != nil }
        #expect((try? await link.send(.intent, Array(#"{"v":1,"type":"intent","id":4,"intent":"seek","time":5}"#.utf8))) == nil)
        try await Task.sleep(for: .milliseconds(200))  // real time: proves the intent changes nothing
        #expect(await sessions.session(id: "s-Living room")?.currentTime == 42)
        _ = renderer
        await livingRoom.stop()
        remote.listener.close()
    }

    @Test func aRemoteTheTVChoseMayNotSendWhatItsServiceDoesNotDeclare() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let remote = try await ListeningRemote { _, _, _ in true }
        _ = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: remote.listener.port, role: .remote))
        #expect(await livingRoom.answer(try await pending(livingRoom, .outgoing).id, approved: true))
        let link = try await remote.firstConnection()
        // A game move on the remote service: the TV closes the link rather than act on it.
        try await link.send(.move, Array(#"{"index":4}"#.utf8))
        try await eventually("the TV to close the link", within: Self.patience) { await link.closeReason != nil }
        await livingRoom.stop()
        remote.listener.close()
    }

    @Test func playOnHandsTheItemToThePairedTVsScreenAtItsTimeAndSpeed() async throws {
        let (livingRoom, _, _) = try await tv("Living room")
        let (bedroom, _, bedroomPort) = try await tv("Bedroom")
        let started = try await livingRoom.startPairing(with: .init(host: "127.0.0.1", port: bedroomPort, role: .tv))
        #expect(await livingRoom.answer(try await pending(livingRoom, .outgoing).id, approved: true))
        #expect(await bedroom.answer(try await pending(bedroom, .incoming).id, approved: true))
        _ = try await outgoing(livingRoom, started.id, becomes: .paired)
        let target = try #require(await livingRoom.playOnTargets.first)

        // No screen open on the other TV: a clear refusal.
        do {
            _ = try await livingRoom.playOn(deviceID: target.deviceID, assetID: "a1", time: 12, rate: 1.5)
            Issue.record("played with no screen open")
        } catch {
            #expect("\(error)".contains("No screen of the TV is open"))
        }
        let (_, screen) = await bedroom.screens.open()
        let answer = try await livingRoom.playOn(deviceID: target.deviceID, assetID: "a1", time: 12, rate: 1.5)
        #expect(answer.device == "Bedroom" && answer.screens == 1 && answer.assetID == "a1")
        var requests = screen.makeAsyncIterator()
        let request = try #require(await requests.next())
        #expect(request.assetID == "a1" && request.time == 12 && request.rate == 1.5 && request.from == "Living room")

        // Unknown TVs and revoked ones are refused before anything is sent.
        await #expect(throws: NearbyDevices.PlayOnError.self) { _ = try await livingRoom.playOn(deviceID: "nope", assetID: "a1", time: 0, rate: 1) }
        #expect(await bedroom.revoke(id: try #require(await bedroom.trust.devices.first).id) != nil)
        do {
            _ = try await livingRoom.playOn(deviceID: target.deviceID, assetID: "a1", time: 0, rate: 1)
            Issue.record("a TV that revoked this one still played")
        } catch {
            #expect("\(error)".contains("did not take the link"))
        }
        await livingRoom.stop()
        await bedroom.stop()
    }
}
