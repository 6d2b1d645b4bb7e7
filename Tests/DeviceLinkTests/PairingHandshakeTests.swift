import Foundation
import Testing

@testable import DeviceLink

/// Runs two handshakes against each other in memory, without any I/O: the state machine alone.
struct HandshakeRun {
    enum Outcome { case established(LinkEstablishment), failed(HandshakeFailure), unfinished }
    var initiatorCode: PairingCode?
    var responderCode: PairingCode?
    var initiator: Outcome = .unfinished
    var responder: Outcome = .unfinished

    var bothEstablished: Bool {
        if case .established = initiator, case .established = responder { return true }
        return false
    }

    /// `approveOnInitiator` / `approveOnResponder` stand for the person on each device, given
    /// the code that device shows and the code the other shows.
    static func run(
        initiator identity: DeviceIdentity, trusted initiatorTrust: TrustedDevices = TrustedDevices(),
        purpose: PairingHandshake.Purpose = .pair, service: String = "remote",
        responder responderIdentity: DeviceIdentity, policy: PairingHandshake.ResponderPolicy,
        approveOnInitiator: @escaping (PairingCode, PairingCode?) -> Bool = { $0 == $1 },
        approveOnResponder: @escaping (PairingCode, PairingCode?) -> Bool = { $0 == $1 }
    ) -> HandshakeRun {
        var run = HandshakeRun()
        var (initiator, hello) = PairingHandshake.initiate(
            identity: identity,
            request: .init(
                trusted: initiatorTrust, service: service, session: "s1", purpose: purpose))
        var responder = PairingHandshake(respondingAs: responderIdentity, policy: policy)
        var toResponder = [hello]
        var toInitiator: [Frame] = []
        var decisions: [(isInitiator: Bool, code: PairingCode)] = []
        func handle(_ actions: [PairingHandshake.Action], fromInitiator: Bool) {
            for action in actions {
                switch action {
                case .send(let frame): if fromInitiator { toResponder.append(frame) } else { toInitiator.append(frame) }
                case .showCode(let code, _, _):
                    if fromInitiator { run.initiatorCode = code } else { run.responderCode = code }
                    decisions.append((fromInitiator, code))
                case .established(let e): if fromInitiator { run.initiator = .established(e) } else { run.responder = .established(e) }
                case .failed(let f): if fromInitiator { run.initiator = .failed(f) } else { run.responder = .failed(f) }
                }
            }
        }
        for _ in 0..<50 {
            if !toResponder.isEmpty {
                handle(responder.receive(toResponder.removeFirst()), fromInitiator: false)
                continue
            }
            if !toInitiator.isEmpty {
                handle(initiator.receive(toInitiator.removeFirst()), fromInitiator: true)
                continue
            }
            // Both codes are on screen: the people answer, the responder's person first.
            guard !decisions.isEmpty else { break }
            for decision in decisions.sorted(by: { !$0.isInitiator && $1.isInitiator }) {
                if decision.isInitiator {
                    handle(initiator.decide(approved: approveOnInitiator(decision.code, run.responderCode)), fromInitiator: true)
                } else {
                    handle(responder.decide(approved: approveOnResponder(decision.code, run.initiatorCode)), fromInitiator: false)
                }
            }
            decisions = []
        }
        return run
    }
}

func tvIdentity() -> DeviceIdentity { DeviceIdentity(name: "Living room TV", platform: "linux") }
func phoneIdentity() -> DeviceIdentity { DeviceIdentity(name: "Phone", platform: "linux") }
func policy(_ trusted: TrustedDevices = TrustedDevices(), locked: TimeInterval? = nil) -> PairingHandshake.ResponderPolicy {
    PairingHandshake.ResponderPolicy(trusted: trusted, services: .marquee, pairingLockedFor: { _ in locked })
}

@Suite struct PairingHandshakeTests {
    @Test func bothDevicesShowTheSameSixDigitCodeAndPairWhenBothApprove() throws {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        let run = HandshakeRun.run(initiator: phone, responder: tv, policy: policy())
        let code = try #require(run.initiatorCode)
        #expect(code == run.responderCode)
        #expect(code.digits.count == 6 && code.digits.allSatisfy(\.isNumber))
        guard case .established(let onPhone) = run.initiator, case .established(let onTV) = run.responder else {
            Issue.record("not established: \(run.initiator) / \(run.responder)")
            return
        }
        #expect(onPhone.newlyPaired && onTV.newlyPaired)
        #expect(onTV.peer.identityKey == phone.publicKey && onPhone.peer.identityKey == tv.publicKey)
        #expect(onTV.service == "remote" && onTV.session == "s1")
        // Both derived the same keys, each direction its own.
        var phoneChannel = SecureChannel(keys: onPhone.keys, isInitiator: true)
        var tvChannel = SecureChannel(keys: onTV.keys, isInitiator: false)
        #expect(try tvChannel.open(phoneChannel.seal(.intent, [1, 2, 3])) == [1, 2, 3])
        #expect(try phoneChannel.open(tvChannel.seal(.nowPlaying, [4])) == [4])
    }

    @Test func differentHandshakesShowDifferentCodes() {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        let codes = (0..<5).compactMap { _ in HandshakeRun.run(initiator: phone, responder: tv, policy: policy()).initiatorCode?.digits }
        #expect(Set(codes).count > 1)
    }

    @Test func rejectionOnTheTVFailsOnBothSides() {
        let run = HandshakeRun.run(
            initiator: phoneIdentity(), responder: tvIdentity(), policy: policy(),
            approveOnResponder: { _, _ in false })
        guard case .failed(let onTV) = run.responder, case .failed(let onPhone) = run.initiator else {
            Issue.record("expected failures: \(run.initiator) / \(run.responder)")
            return
        }
        #expect(onTV == .refused(.rejected) && onTV.countsAsFailedPairing)
        #expect(onPhone == .refusedByPeer(.rejected, retryAfter: nil))
    }

    @Test func rejectionOnThePhoneFailsOnBothSides() {
        let run = HandshakeRun.run(
            initiator: phoneIdentity(), responder: tvIdentity(), policy: policy(),
            approveOnInitiator: { _, _ in false })
        guard case .failed(let onTV) = run.responder, case .failed(let onPhone) = run.initiator else {
            Issue.record("expected failures: \(run.initiator) / \(run.responder)")
            return
        }
        #expect(onPhone == .refused(.rejected) && onPhone.countsAsFailedPairing)
        // The phone's word proves nothing to the TV: it does not count towards a lockout there.
        #expect(onTV == .refusedByPeer(.rejected, retryAfter: nil) && !onTV.countsAsFailedPairing)
    }

    @Test func aCodeMismatchIsRejectedByThePersonAndNothingIsEstablished() {
        // The person on each device compares the codes; a mismatch (simulated by a code that
        // differs) is rejected, so neither side establishes.
        let run = HandshakeRun.run(
            initiator: phoneIdentity(), responder: tvIdentity(), policy: policy(),
            approveOnResponder: { mine, _ in mine.digits == "000000" && false })
        #expect(!run.bothEstablished)
        if case .established = run.initiator { Issue.record("the phone established without the TV's approval") }
    }

    @Test func recognisedDevicesConnectWithoutAnyCodeOrApproval() throws {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var tvTrust = TrustedDevices()
        var phoneTrust = TrustedDevices()
        tvTrust.trust(phone.asPeer, services: ["remote"], at: Date())
        phoneTrust.trust(tv.asPeer, services: ["remote"], at: Date())
        let run = HandshakeRun.run(
            initiator: phone, trusted: phoneTrust, purpose: .connect, responder: tv, policy: policy(tvTrust),
            approveOnInitiator: { _, _ in
                Issue.record("asked to approve")
                return false
            },
            approveOnResponder: { _, _ in
                Issue.record("asked to approve")
                return false
            })
        #expect(run.initiatorCode == nil && run.responderCode == nil)
        guard case .established(let e) = run.responder else {
            Issue.record("\(run.responder)")
            return
        }
        #expect(!e.newlyPaired)
    }

    @Test func aNeverPairedDeviceAskingOnlyToConnectIsRefused() {
        let run = HandshakeRun.run(initiator: phoneIdentity(), purpose: .connect, responder: tvIdentity(), policy: policy())
        guard case .failed(let onTV) = run.responder, case .failed(let onPhone) = run.initiator else {
            Issue.record("\(run.initiator) / \(run.responder)")
            return
        }
        #expect(onTV == .refused(.notPaired))
        #expect(onPhone == .refusedByPeer(.notPaired, retryAfter: nil))
    }

    @Test func aDeviceClaimingAPairedKeyItDoesNotHoldFailsAuthentication() throws {
        // The impostor's hello claims the paired phone's public key; it cannot sign for it.
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var tvTrust = TrustedDevices()
        var impostorTrust = TrustedDevices()
        tvTrust.trust(phone.asPeer, services: ["remote"], at: Date())
        impostorTrust.trust(tv.asPeer, services: ["remote"], at: Date())
        let impostor = DeviceIdentity(deviceID: phone.deviceID, name: "Phone", platform: "linux")
        var (impostorSide, hello) = PairingHandshake.initiate(
            identity: impostor,
            request: .init(
                trusted: impostorTrust, service: "remote", session: "s", purpose: .connect))
        var message = try JSONDecoder().decode(HandshakeMessage.Hello.self, from: Data(hello.payload))
        message.identityKey = Data(phone.publicKey)
        var tvSide = PairingHandshake(respondingAs: tv, policy: policy(tvTrust))
        guard case .send(let reply) = tvSide.receive(HandshakeMessage.encode(.hello, message)).first else {
            Issue.record("no reply")
            return
        }
        var last: [PairingHandshake.Action] = []
        for case .send(let frame) in impostorSide.receive(reply) { last = tvSide.receive(frame) }
        guard case .failed(let failure) = last.last else {
            Issue.record("\(last)")
            return
        }
        #expect(failure == .refused(.badSignature))
    }

    @Test func aLockedTVRefusesPairingAndSaysWhenToRetry() {
        let run = HandshakeRun.run(initiator: phoneIdentity(), responder: tvIdentity(), policy: policy(locked: 240))
        guard case .failed(let onPhone) = run.initiator else {
            Issue.record("\(run.initiator)")
            return
        }
        #expect(onPhone == .refusedByPeer(.pairingLocked, retryAfter: 240))
        #expect(run.initiatorCode == nil)
    }

    @Test func aLockedTVStillRecognisesDevicesPairedBefore() {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var tvTrust = TrustedDevices()
        var phoneTrust = TrustedDevices()
        tvTrust.trust(phone.asPeer, services: ["remote"], at: Date())
        phoneTrust.trust(tv.asPeer, services: ["remote"], at: Date())
        let run = HandshakeRun.run(initiator: phone, trusted: phoneTrust, responder: tv, policy: policy(tvTrust, locked: 240))
        #expect(run.bothEstablished)
    }

    @Test func aRevokedDeviceMustPairAgain() {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var tvTrust = TrustedDevices()
        var phoneTrust = TrustedDevices()
        tvTrust.trust(phone.asPeer, services: ["remote"], at: Date())
        phoneTrust.trust(tv.asPeer, services: ["remote"], at: Date())
        #expect(tvTrust.revoke(id: phone.deviceID) != nil)
        let connectOnly = HandshakeRun.run(initiator: phone, trusted: phoneTrust, purpose: .connect, responder: tv, policy: policy(tvTrust))
        guard case .failed(.refused(.notPaired)) = connectOnly.responder else {
            Issue.record("\(connectOnly.responder)")
            return
        }
        // Asking to pair goes through codes and approval again.
        let again = HandshakeRun.run(initiator: phone, trusted: phoneTrust, responder: tv, policy: policy(tvTrust))
        #expect(again.initiatorCode != nil && again.bothEstablished)
    }

    @Test func aDevicePairedForOneServiceIsAStrangerForAnother() {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var tvTrust = TrustedDevices()
        var phoneTrust = TrustedDevices()
        tvTrust.trust(phone.asPeer, services: ["tictactoe"], at: Date())
        phoneTrust.trust(tv.asPeer, services: ["tictactoe"], at: Date())
        let run = HandshakeRun.run(initiator: phone, trusted: phoneTrust, purpose: .connect, service: "remote", responder: tv, policy: policy(tvTrust))
        guard case .failed(.refused(.notPaired)) = run.responder else {
            Issue.record("\(run.responder)")
            return
        }
    }

    @Test func unknownServicesAndPlatformsAreRefused() {
        let unknown = HandshakeRun.run(initiator: phoneIdentity(), service: "files", responder: tvIdentity(), policy: policy())
        guard case .failed(.refusedByPeer(.unknownService, _)) = unknown.initiator else {
            Issue.record("\(unknown.initiator)")
            return
        }
        let toaster = DeviceIdentity(name: "Toaster", platform: "toaster-os")
        let platform = HandshakeRun.run(initiator: toaster, responder: tvIdentity(), policy: policy())
        guard case .failed(.refusedByPeer(.platformNotAllowed, _)) = platform.initiator else {
            Issue.record("\(platform.initiator)")
            return
        }
    }

    @Test func aRevealThatDoesNotMatchTheCommitmentIsRefused() throws {
        let tv = tvIdentity()
        let phone = phoneIdentity()
        var (initiator, hello) = PairingHandshake.initiate(identity: phone, request: .init(trusted: .init(), service: "remote", session: "s", purpose: .pair))
        var responder = PairingHandshake(respondingAs: tv, policy: policy())
        guard case .send(let reply) = responder.receive(hello).first else {
            Issue.record("no reply")
            return
        }
        guard case .send(var reveal) = initiator.receive(reply).first else {
            Issue.record("no reveal")
            return
        }
        // Replace the revealed key with another one (what a relay choosing its key late would do).
        var message = try JSONDecoder().decode(HandshakeMessage.Reveal.self, from: Data(reveal.payload))
        message.ephemeralKey = Curve25519KeyForTests.random()
        reveal = HandshakeMessage.encode(.reveal, message)
        let actions = responder.receive(reveal)
        guard case .failed(let failure) = actions.last else {
            Issue.record("\(actions)")
            return
        }
        #expect(failure == .refused(.commitmentMismatch) && failure.countsAsFailedPairing)
    }

    @Test func outOfOrderHandshakeMessagesAreAProtocolViolation() {
        var responder = PairingHandshake(respondingAs: tvIdentity(), policy: policy())
        let actions = responder.receive(Frame(.approval, payload: Array("{\"approved\":true}".utf8)))
        guard case .failed(.protocolViolation) = actions.last else {
            Issue.record("\(actions)")
            return
        }
        #expect(responder.isFinished)
    }
}

enum Curve25519KeyForTests {
    /// Any 32 bytes are an X25519 public key.
    static func random() -> Data { Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }) }
}

@Suite struct PairingLockoutTests {
    static let peer = "00112233445566778899aabbccddeeff"
    static let other = "ffeeddccbbaa99887766554433221100"

    @Test func fiveFailuresLockThatPeerForAWhileThenItOpensAgain() {
        var lockout = PairingLockout(limit: 5, lockDuration: 300)
        let start = Date(timeIntervalSince1970: 1_000_000)
        for attempt in 0..<4 {
            lockout.recordFailure(peer: Self.peer, now: start.addingTimeInterval(Double(attempt)))
            #expect(lockout.lockedUntil(peer: Self.peer, now: start.addingTimeInterval(Double(attempt))) == nil)
        }
        lockout.recordFailure(peer: Self.peer, now: start.addingTimeInterval(4))
        #expect(lockout.lockedUntil(peer: Self.peer, now: start.addingTimeInterval(5)) == start.addingTimeInterval(304))
        #expect(lockout.lockedUntil(peer: Self.peer, now: start.addingTimeInterval(303)) != nil)
        #expect(lockout.lockedUntil(peer: Self.peer, now: start.addingTimeInterval(305)) == nil)
        // Another peer is not locked by the first one's failures.
        #expect(lockout.lockedUntil(peer: Self.other, now: start.addingTimeInterval(5)) == nil)
        // After the lock has passed, one more failure does not lock again at once.
        lockout.recordFailure(peer: Self.peer, now: start.addingTimeInterval(306))
        #expect(lockout.lockedUntil(peer: Self.peer, now: start.addingTimeInterval(306)) == nil)
    }

    @Test func aSuccessResetsThatPeersCount() {
        var lockout = PairingLockout(limit: 5, lockDuration: 300)
        let now = Date()
        for _ in 0..<4 { lockout.recordFailure(peer: Self.peer, now: now) }
        lockout.recordFailure(peer: Self.other, now: now)
        lockout.recordSuccess(peer: Self.peer)
        lockout.recordFailure(peer: Self.peer, now: now)
        #expect(lockout.lockedUntil(peer: Self.peer, now: now) == nil && lockout.failures(peer: Self.peer) == 1)
        #expect(lockout.failures(peer: Self.other) == 1)
    }

    @Test func aRecordFromBeforePerPeerLocksDecodesWithoutTheGlobalLock() throws {
        let old = Data(#"{"limit":5,"lockDuration":300,"failures":5,"lockedUntil":9999999999}"#.utf8)
        let lockout = try JSONDecoder().decode(PairingLockout.self, from: old)
        #expect(lockout.limit == 5 && lockout.peers.isEmpty)
    }

    @Test func theFailuresOfAPeerThatClaimsRejectionDoNotCount() {
        // What the peer says about itself proves nothing; only what this side proved counts.
        #expect(!HandshakeFailure.refusedByPeer(.rejected, retryAfter: nil).countsAsFailedPairing)
        #expect(!HandshakeFailure.refusedByPeer(.badSignature, retryAfter: nil).countsAsFailedPairing)
        #expect(HandshakeFailure.refused(.rejected).countsAsFailedPairing)
        #expect(HandshakeFailure.refused(.commitmentMismatch).countsAsFailedPairing)
        #expect(HandshakeFailure.refused(.badSignature).countsAsFailedPairing)
    }
}
