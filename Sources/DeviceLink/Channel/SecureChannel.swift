public import Crypto
import Foundation

/// Keys for one established link: one for each direction, derived with HKDF-SHA256 from the
/// X25519 agreement, salted with the handshake transcript.
public struct LinkKeys: Sendable {
    // swift-crypto's keys are immutable values but not marked Sendable.
    public nonisolated(unsafe) var initiatorToResponder: SymmetricKey
    public nonisolated(unsafe) var responderToInitiator: SymmetricKey

    /// Derives both directions' keys from the shared secret and the transcript hash.
    public init(sharedSecret: SharedSecret, transcript: [UInt8]) {
        initiatorToResponder = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: transcript, sharedInfo: Array("marquee devicelink initiator->responder".utf8), outputByteCount: 32)
        responderToInitiator = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: transcript, sharedInfo: Array("marquee devicelink responder->initiator".utf8), outputByteCount: 32)
    }

    /// Keys given directly rather than derived.
    public init(initiatorToResponder: SymmetricKey, responderToInitiator: SymmetricKey) {
        self.initiatorToResponder = initiatorToResponder
        self.responderToInitiator = responderToInitiator
    }
}

/// Why a sealed frame was not accepted, or could not be sent. Every one ends the connection.
public enum ChannelError: Error, Hashable, CustomStringConvertible {
    /// The frame was altered, replayed, reordered or sealed with another key: ChaCha20-Poly1305
    /// authentication failed for the next expected counter.
    case authenticationFailed(counter: UInt64)
    /// A handshake message arrived on an established channel.
    case unexpectedHandshakeMessage(UInt32)
    /// This direction has used every nonce it may; the connection must be re-established
    /// (which derives new keys).
    case nonceExhausted
    /// A sealed frame shorter than its 16-byte authentication tag (its length in bytes).
    case frameTooShort(Int)

    /// One sentence naming the frame's counter, type or length where it matters.
    public var description: String {
        switch self {
        case .authenticationFailed(let counter): "frame \(counter) failed authentication (altered, replayed, reordered or wrong key)"
        case .unexpectedHandshakeMessage(let type): "handshake message \(type) on an established channel"
        case .nonceExhausted: "this direction of the channel has used all of its nonces"
        case .frameTooShort(let count): "sealed frame of \(count) bytes is shorter than its tag"
        }
    }
}

/// One direction of an encrypted channel: ChaCha20-Poly1305 with a counter nonce.
///
/// The nonce is never sent: both sides count frames, so a replayed, dropped, reordered or
/// altered frame fails authentication and the receiver closes. The frame header (version,
/// type, length) is authenticated too, so a message type cannot be swapped.
public struct ChannelDirection: Sendable {
    private nonisolated(unsafe) let key: SymmetricKey  // immutable; swift-crypto does not mark it Sendable
    /// The counter of the next frame.
    public private(set) var counter: UInt64 = 0
    /// How many frames this direction may carry before its nonces run out.
    public let frameLimit: UInt64

    /// A direction keyed with `key`, starting at counter 0.
    public init(key: SymmetricKey, frameLimit: UInt64 = UInt64.max) {
        self.key = key
        self.frameLimit = frameLimit
    }

    static let tagSize = 16

    private func nonce(_ counter: UInt64) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { bytes[4 + index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64(index))) }
        return try! ChaChaPoly.Nonce(data: bytes)  // 12 bytes is always a valid nonce.
    }

    private static func header(type: UInt32, length: Int) -> [UInt8] {
        var header = [UInt8]()
        Frame.appendHeader(type: type, length: length, to: &header)
        return header
    }

    /// Seals a payload into a frame of `type`.
    public mutating func seal(_ type: UInt32, _ payload: [UInt8]) throws(ChannelError) -> Frame {
        guard counter < frameLimit else { throw .nonceExhausted }
        let header = Self.header(type: type, length: payload.count + Self.tagSize)
        let box: ChaChaPoly.SealedBox
        do { box = try ChaChaPoly.seal(payload, using: key, nonce: nonce(counter), authenticating: header) } catch { throw .nonceExhausted }
        counter += 1
        var sealed = [UInt8]()
        sealed.reserveCapacity(payload.count + Self.tagSize)
        sealed.append(contentsOf: box.ciphertext)
        sealed.append(contentsOf: box.tag)
        return Frame(type: type, payload: sealed)
    }

    /// Opens the next frame; any failure means the stream is no longer trustworthy.
    public mutating func open(_ frame: Frame) throws(ChannelError) -> [UInt8] {
        guard counter < frameLimit else { throw .nonceExhausted }
        if frame.type < 0x10 { throw .unexpectedHandshakeMessage(frame.type) }
        guard frame.payload.count >= Self.tagSize else { throw .frameTooShort(frame.payload.count) }
        let header = Self.header(type: frame.type, length: frame.payload.count)
        let split = frame.payload.count - Self.tagSize
        do {
            let box = try ChaChaPoly.SealedBox(nonce: nonce(counter), ciphertext: frame.payload[..<split], tag: frame.payload[split...])
            let plain = try ChaChaPoly.open(box, using: key, authenticating: header)
            counter += 1
            return Array(plain)
        } catch {
            throw .authenticationFailed(counter: counter)
        }
    }
}

/// Both directions of an established channel, as seen from one side.
public struct SecureChannel: Sendable {
    /// What this side seals and sends.
    public var outbound: ChannelDirection
    /// What this side receives and opens.
    public var inbound: ChannelDirection

    /// The channel for the side that opened the connection (`isInitiator`) or accepted it.
    public init(keys: LinkKeys, isInitiator: Bool, frameLimit: UInt64 = UInt64.max) {
        outbound = ChannelDirection(key: isInitiator ? keys.initiatorToResponder : keys.responderToInitiator, frameLimit: frameLimit)
        inbound = ChannelDirection(key: isInitiator ? keys.responderToInitiator : keys.initiatorToResponder, frameLimit: frameLimit)
    }

    /// Seals `payload` as the next outbound frame of `type`; throws `nonceExhausted` when the direction is used up.
    public mutating func seal(_ type: LinkMessageType, _ payload: [UInt8]) throws(ChannelError) -> Frame {
        try outbound.seal(type.rawValue, payload)
    }

    /// Opens the next inbound frame and returns its payload; throws when it is not the next
    /// frame sealed with the peer's key (altered, replayed, reordered) or is too short.
    public mutating func open(_ frame: Frame) throws(ChannelError) -> [UInt8] {
        try inbound.open(frame)
    }
}
