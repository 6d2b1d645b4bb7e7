import Crypto
public import Foundation

/// The six digits both devices show while pairing; the person approves on each device only
/// if they are the same. Derived from the agreement and the whole transcript, so a relay in
/// the middle (which must run two separate agreements) makes the two devices show different codes.
public struct PairingCode: Sendable, Hashable, CustomStringConvertible {
    /// The six decimal digits, leading zeros kept.
    public let digits: String

    init(sharedSecret: SharedSecret, transcript: [UInt8]) {
        let key = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: transcript,
            sharedInfo: Array("marquee devicelink pairing code".utf8), outputByteCount: 8)
        let value = key.withUnsafeBytes { bytes in bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        digits = String(format: "%06llu", value % 1_000_000)
    }

    /// "123 456", as devices show it.
    public var description: String { "\(digits.prefix(3)) \(digits.suffix(3))" }
}

/// How a handshake ended when it did not establish a link.
public enum HandshakeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The other device refused (its reason, and when pairing opens again if it is locked).
    case refusedByPeer(RefusalReason, retryAfter: Double?)
    /// This device refused the other.
    case refused(RefusalReason)
    /// A message that does not belong at this point, or that does not decode.
    case protocolViolation(String)

    /// Whether this failure counts towards the peer's pairing lockout: only what this side
    /// proved — a code its person rejected, a commitment or a signature that failed to
    /// verify. What the peer says about itself (its refusal "rejected") proves nothing, and
    /// counting it let anyone on the network lock pairing by refusing on purpose.
    public var countsAsFailedPairing: Bool {
        switch self {
        case .refused(let reason): [.rejected, .commitmentMismatch, .badSignature].contains(reason)
        case .refusedByPeer, .protocolViolation: false
        }
    }

    /// One sentence for a person or a log, with the wait when the peer said how long.
    public var description: String {
        switch self {
        case .refusedByPeer(let reason, let retryAfter):
            "the other device refused: \(reason.rawValue)" + (retryAfter.map { " (try again in \(Int($0.rounded(.up))) s)" } ?? "")
        case .refused(let reason): "refused the other device: \(reason.rawValue)"
        case .protocolViolation(let what): "handshake protocol violation: \(what)"
        }
    }
}

/// A link both sides agreed on: its keys, who the peer is, and what it is for.
public struct LinkEstablishment: Sendable {
    /// The channel keys, one per direction.
    public var keys: LinkKeys
    /// Who the peer is, as its signature or the person's approval established.
    public var peer: PeerIdentity
    /// The application service the link is for.
    public var service: String
    /// The initiator's session, the same across its reconnections.
    public var session: String
    /// Whether this handshake paired the devices (both approved) rather than recognised them.
    public var newlyPaired: Bool
}

/// The handshake of a device link as a value: messages in, actions out; no I/O, no clock.
///
/// Initiator and responder exchange `hello` (the initiator commits to an X25519 ephemeral key
/// with SHA-256), `helloReply` (the responder's ephemeral key) and `reveal` (the committed key).
/// Then either both already trust each other's Ed25519 identity and each sends an
/// `authenticate` signature over the transcript, or, when pairing, both show the same 6-digit
/// code and wait for the person to approve on each device; an `approval` carries the answer,
/// signed over the transcript. Keys for the channel come from the agreement and the transcript.
public struct PairingHandshake: Sendable {
    /// Which side this is: the device that connects, or the one that accepts.
    public enum Role: Sendable, Hashable { case initiator, responder }
    /// What the initiator asks for: pair if needed, or only connect as an already paired device.
    public enum Purpose: String, Sendable, Codable, Hashable { case pair, connect }
    /// How this handshake ends: signatures of known identities, or pairing with approval.
    public enum Mode: String, Sendable, Codable, Hashable { case authenticate, pair }

    /// What the caller must do.
    public enum Action: Sendable {
        /// Write this frame to the transport.
        case send(Frame)
        /// Show the code and ask the person; answer with `decide(approved:)`.
        case showCode(PairingCode, peer: PeerIdentity, service: String)
        /// The handshake succeeded: open the channel with these keys.
        case established(LinkEstablishment)
        /// The handshake ended without a link, for this reason.
        case failed(HandshakeFailure)
    }

    /// What the responder knows when a hello arrives.
    public struct ResponderPolicy: Sendable {
        /// The devices it recognises without asking anyone.
        public var trusted: TrustedDevices
        /// The services it offers; a hello for another is refused.
        public var services: ApplicationServices
        /// Seconds until pairing opens again for a peer (by its identity fingerprint), if
        /// that peer is locked out now. Locks are per peer: one device's failures never lock
        /// pairing for another.
        public var pairingLockedFor: @Sendable (String) -> TimeInterval?

        /// A policy with no peer locked out unless `pairingLockedFor` says so.
        public init(
            trusted: TrustedDevices, services: ApplicationServices,
            pairingLockedFor: @escaping @Sendable (String) -> TimeInterval? = { _ in nil }
        ) {
            self.trusted = trusted
            self.services = services
            self.pairingLockedFor = pairingLockedFor
        }
    }

    /// What the initiator wants.
    public struct InitiatorRequest: Sendable {
        /// The devices it recognises without asking anyone.
        public var trusted: TrustedDevices
        /// The application service it asks for (`remote`).
        public var service: String
        /// Its session, kept across reconnections.
        public var session: String
        /// Pair if needed, or only connect as an already paired device.
        public var purpose: Purpose
        /// The responder's identity fingerprint as advertised (DNS-SD TXT), if known.
        public var expectedFingerprint: String?

        /// A request for `service` in `session`.
        public init(trusted: TrustedDevices, service: String, session: String, purpose: Purpose, expectedFingerprint: String? = nil) {
            self.trusted = trusted
            self.service = service
            self.session = session
            self.purpose = purpose
            self.expectedFingerprint = expectedFingerprint
        }
    }

    // Holds swift-crypto keys and secrets: immutable values that it does not mark Sendable.
    private struct Agreement: @unchecked Sendable {
        var sharedSecret: SharedSecret
        var transcript: [UInt8]
        var peer: PeerIdentity
        var service: String
        var session: String
    }

    private enum State: @unchecked Sendable {
        case initiatorAwaitingReply(hello: Frame, ephemeral: Curve25519.KeyAgreement.PrivateKey, nonce: [UInt8], request: InitiatorRequest)
        case responderAwaitingHello(ResponderPolicy)
        case responderAwaitingReveal(
            hello: HandshakeMessage.Hello, transcript: [UInt8], ephemeral: Curve25519.KeyAgreement.PrivateKey,
            peer: PeerIdentity, peerTrusted: Bool, pairingAllowed: Bool)
        case awaitingAuthentication(Agreement)
        case awaitingApprovals(Agreement, local: Bool?, remote: Bool?)
        case done
    }

    /// Which side this handshake is.
    public let role: Role
    private let identity: DeviceIdentity
    private var state: State

    /// Starts a handshake as the device that connects; send the returned frame.
    public static func initiate(identity: DeviceIdentity, request: InitiatorRequest) -> (PairingHandshake, Frame) {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        var nonce = [UInt8](repeating: 0, count: 16)
        for index in nonce.indices { nonce[index] = UInt8.random(in: .min ... .max) }
        let commitment = Data(SHA256.hash(data: Array(ephemeral.publicKey.rawRepresentation) + nonce))
        let hello = HandshakeMessage.encode(
            .hello,
            HandshakeMessage.Hello(
                deviceID: identity.deviceID, name: identity.name, platform: identity.platform, identityKey: Data(identity.publicKey),
                service: request.service, session: request.session, purpose: request.purpose, commitment: commitment))
        let handshake = PairingHandshake(
            role: .initiator, identity: identity,
            state: .initiatorAwaitingReply(hello: hello, ephemeral: ephemeral, nonce: nonce, request: request))
        return (handshake, hello)
    }

    /// A handshake as the device that accepted a connection; wait for the hello.
    public init(respondingAs identity: DeviceIdentity, policy: ResponderPolicy) {
        self.init(role: .responder, identity: identity, state: .responderAwaitingHello(policy))
    }

    private init(role: Role, identity: DeviceIdentity, state: State) {
        self.role = role
        self.identity = identity
        self.state = state
    }

    /// Whether the peer may still send a handshake message before this side acts. False once
    /// the peer approved and only this side's person has yet to answer: reading on would take
    /// the peer's first sealed frame away from the channel.
    public var expectsPeerMessage: Bool {
        switch state {
        case .awaitingApprovals(_, _, .some): false
        case .done: false
        default: true
        }
    }

    /// Who the initiator said it is in its hello, once a responder has read it (the peer a
    /// failure is counted against).
    public private(set) var helloPeer: PeerIdentity?

    /// Whether the handshake has ended (established or failed).
    public var isFinished: Bool { if case .done = state { true } else { false } }

    /// Takes the next frame from the peer.
    public mutating func receive(_ frame: Frame) -> [Action] {
        if frame.type == LinkMessageType.refusal.rawValue, !isFinished {
            let refusal = HandshakeMessage.decode(HandshakeMessage.Refusal.self, from: frame)
            state = .done
            return [.failed(.refusedByPeer(refusal?.reason ?? .malformed, retryAfter: refusal?.retryAfter))]
        }
        switch state {
        case .initiatorAwaitingReply(let hello, let ephemeral, let nonce, let request):
            return receiveReply(frame, hello: hello, ephemeral: ephemeral, nonce: nonce, request: request)
        case .responderAwaitingHello(let policy):
            return receiveHello(frame, policy: policy)
        case .responderAwaitingReveal(let hello, let transcript, let ephemeral, let peer, let peerTrusted, let pairingAllowed):
            return receiveReveal(
                frame, hello: hello, transcript: transcript, ephemeral: ephemeral, peer: peer,
                peerTrusted: peerTrusted, pairingAllowed: pairingAllowed)
        case .awaitingAuthentication(let agreement):
            guard frame.type == LinkMessageType.authenticate.rawValue,
                let message = HandshakeMessage.decode(HandshakeMessage.Authenticate.self, from: frame)
            else { return violation("expected authenticate, got message \(frame.type)") }
            guard verify(message.signature, by: agreement.peer, over: agreement.transcript) else { return refuse(.badSignature) }
            state = .done
            return [.established(establishment(agreement, newlyPaired: false))]
        case .awaitingApprovals(let agreement, let local, let remote):
            guard remote == nil, frame.type == LinkMessageType.approval.rawValue,
                let message = HandshakeMessage.decode(HandshakeMessage.Approval.self, from: frame)
            else { return violation("expected approval, got message \(frame.type)") }
            guard message.approved else {
                state = .done
                return [.failed(.refusedByPeer(.rejected, retryAfter: nil))]
            }
            guard let signature = message.signature, verify(signature, by: agreement.peer, over: agreement.transcript) else {
                return refuse(.badSignature)
            }
            state = .awaitingApprovals(agreement, local: local, remote: true)
            return finishApprovals()
        case .done:
            return []
        }
    }

    /// The person's answer on this device to "do both devices show this code?".
    public mutating func decide(approved: Bool) -> [Action] {
        guard case .awaitingApprovals(let agreement, .none, let remote) = state else { return [] }
        guard approved else { return refuse(.rejected) }
        let signature = sign(agreement.transcript)
        state = .awaitingApprovals(agreement, local: true, remote: remote)
        return [.send(HandshakeMessage.encode(.approval, HandshakeMessage.Approval(approved: true, signature: signature)))] + finishApprovals()
    }

    /// Abandons the handshake (a timeout, or the person cancelled): tells the peer it was rejected.
    public mutating func cancel() -> [Action] {
        guard !isFinished else { return [] }
        return refuse(.rejected)
    }

    // MARK: - Steps

    private mutating func receiveHello(_ frame: Frame, policy: ResponderPolicy) -> [Action] {
        guard frame.type == LinkMessageType.hello.rawValue,
            let hello = HandshakeMessage.decode(HandshakeMessage.Hello.self, from: frame),
            hello.v == 1, hello.identityKey.count == 32, hello.commitment.count == 32
        else { return violation("expected hello, got message \(frame.type)") }
        guard let service = policy.services[hello.service] else { return refuse(.unknownService) }
        guard service.allows(platform: hello.platform) else { return refuse(.platformNotAllowed) }
        let peer = PeerIdentity(deviceID: hello.deviceID, name: hello.name, platform: hello.platform, identityKey: Array(hello.identityKey))
        helloPeer = peer
        let peerTrusted = policy.trusted.device(identityKey: peer.identityKey)?.services.contains(hello.service) ?? false
        let lockedFor = policy.pairingLockedFor(peer.fingerprint)
        if !peerTrusted {
            guard hello.purpose == .pair else { return refuse(.notPaired) }
            if let lockedFor {
                state = .done
                return [
                    .send(HandshakeMessage.encode(.refusal, HandshakeMessage.Refusal(reason: .pairingLocked, retryAfter: lockedFor))),
                    .failed(.refused(.pairingLocked)),
                ]
            }
        }
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let reply = HandshakeMessage.encode(
            .helloReply,
            HandshakeMessage.HelloReply(
                deviceID: identity.deviceID, name: identity.name, platform: identity.platform, identityKey: Data(identity.publicKey),
                ephemeralKey: ephemeral.publicKey.rawRepresentation, trustsYou: peerTrusted))
        state = .responderAwaitingReveal(
            hello: hello, transcript: frame.encoded + reply.encoded, ephemeral: ephemeral, peer: peer,
            peerTrusted: peerTrusted, pairingAllowed: lockedFor == nil)
        return [.send(reply)]
    }

    private mutating func receiveReply(
        _ frame: Frame, hello: Frame, ephemeral: Curve25519.KeyAgreement.PrivateKey, nonce: [UInt8],
        request: InitiatorRequest
    ) -> [Action] {
        guard frame.type == LinkMessageType.helloReply.rawValue,
            let reply = HandshakeMessage.decode(HandshakeMessage.HelloReply.self, from: frame), reply.identityKey.count == 32,
            let peerEphemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: reply.ephemeralKey)
        else { return violation("expected hello reply, got message \(frame.type)") }
        let peer = PeerIdentity(deviceID: reply.deviceID, name: reply.name, platform: reply.platform, identityKey: Array(reply.identityKey))
        // Hex digits, in either case as a person may copy them (the fingerprint is lower case).
        if let expected = request.expectedFingerprint, expected.lowercased() != peer.fingerprint { return refuse(.unexpectedIdentity) }
        let weTrust = request.trusted.device(identityKey: peer.identityKey) != nil
        let mode: Mode
        if reply.trustsYou && weTrust {
            mode = .authenticate
        } else if request.purpose == .pair {
            mode = .pair
        } else {
            return refuse(.notPaired)
        }
        let reveal = HandshakeMessage.encode(
            .reveal,
            HandshakeMessage.Reveal(
                ephemeralKey: ephemeral.publicKey.rawRepresentation,
                nonce: Data(nonce), mode: mode))
        guard let shared = try? ephemeral.sharedSecretFromKeyAgreement(with: peerEphemeral) else { return refuse(.malformed) }
        let transcript = Array(SHA256.hash(data: hello.encoded + frame.encoded + reveal.encoded))
        let agreement = Agreement(sharedSecret: shared, transcript: transcript, peer: peer, service: request.service, session: request.session)
        return [.send(reveal)] + begin(mode, agreement)
    }

    private mutating func receiveReveal(
        _ frame: Frame, hello: HandshakeMessage.Hello, transcript: [UInt8],
        ephemeral: Curve25519.KeyAgreement.PrivateKey, peer: PeerIdentity,
        peerTrusted: Bool, pairingAllowed: Bool
    ) -> [Action] {
        guard frame.type == LinkMessageType.reveal.rawValue,
            let reveal = HandshakeMessage.decode(HandshakeMessage.Reveal.self, from: frame)
        else { return violation("expected reveal, got message \(frame.type)") }
        guard Data(SHA256.hash(data: Array(reveal.ephemeralKey) + Array(reveal.nonce))) == hello.commitment,
            let peerEphemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: reveal.ephemeralKey),
            let shared = try? ephemeral.sharedSecretFromKeyAgreement(with: peerEphemeral)
        else { return refuse(.commitmentMismatch) }
        switch reveal.mode {
        case .authenticate where !peerTrusted: return refuse(.notPaired)
        case .pair where hello.purpose != .pair: return violation("pairing without asking to pair")
        case .pair where !pairingAllowed: return refuse(.pairingLocked)
        default: break
        }
        let agreement = Agreement(
            sharedSecret: shared, transcript: Array(SHA256.hash(data: transcript + frame.encoded)),
            peer: peer, service: hello.service, session: hello.session)
        return begin(reveal.mode, agreement)
    }

    private mutating func begin(_ mode: Mode, _ agreement: Agreement) -> [Action] {
        switch mode {
        case .authenticate:
            state = .awaitingAuthentication(agreement)
            return [.send(HandshakeMessage.encode(.authenticate, HandshakeMessage.Authenticate(signature: sign(agreement.transcript))))]
        case .pair:
            state = .awaitingApprovals(agreement, local: nil, remote: nil)
            return [
                .showCode(
                    PairingCode(sharedSecret: agreement.sharedSecret, transcript: agreement.transcript), peer: agreement.peer,
                    service: agreement.service)
            ]
        }
    }

    private mutating func finishApprovals() -> [Action] {
        guard case .awaitingApprovals(let agreement, .some(true), .some(true)) = state else { return [] }
        state = .done
        return [.established(establishment(agreement, newlyPaired: true))]
    }

    private func establishment(_ agreement: Agreement, newlyPaired: Bool) -> LinkEstablishment {
        LinkEstablishment(
            keys: LinkKeys(sharedSecret: agreement.sharedSecret, transcript: agreement.transcript), peer: agreement.peer,
            service: agreement.service, session: agreement.session, newlyPaired: newlyPaired)
    }

    // MARK: - Signatures and refusals

    static func signedBytes(by role: Role, transcript: [UInt8]) -> [UInt8] {
        Array("marquee devicelink v1 \(role == .initiator ? "initiator" : "responder")".utf8) + transcript
    }

    private func sign(_ transcript: [UInt8]) -> Data {
        (try? identity.signingKey.signature(for: Self.signedBytes(by: role, transcript: transcript))) ?? Data()
    }

    private func verify(_ signature: Data, by peer: PeerIdentity, over transcript: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: peer.identityKey) else { return false }
        let peerRole: Role = role == .initiator ? .responder : .initiator
        return key.isValidSignature(signature, for: Self.signedBytes(by: peerRole, transcript: transcript))
    }

    private mutating func refuse(_ reason: RefusalReason) -> [Action] {
        state = .done
        return [.send(HandshakeMessage.encode(.refusal, HandshakeMessage.Refusal(reason: reason))), .failed(.refused(reason))]
    }

    private mutating func violation(_ what: String) -> [Action] {
        state = .done
        return [
            .send(HandshakeMessage.encode(.refusal, HandshakeMessage.Refusal(reason: .unexpectedMessage))),
            .failed(.protocolViolation(what)),
        ]
    }
}
