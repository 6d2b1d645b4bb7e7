import Foundation

/// Why a device turned a connection down during the handshake, as sent in a `refusal`.
public enum RefusalReason: String, Sendable, Codable, Hashable {
    case unknownService = "unknown-service"
    case platformNotAllowed = "platform-not-allowed"
    case notPaired = "not-paired"
    case pairingLocked = "pairing-locked"
    case rejected
    case commitmentMismatch = "commitment-mismatch"
    case badSignature = "bad-signature"
    case unexpectedMessage = "unexpected-message"
    case unexpectedIdentity = "unexpected-identity"
    case malformed
}

/// The handshake's messages. Keys are raw bytes (base64 in JSON).
enum HandshakeMessage {
    /// Initiator → responder: who it is, what it wants, and a commitment to its ephemeral key.
    struct Hello: Codable {
        var v = 1
        var deviceID: String
        var name: String
        var platform: String
        var identityKey: Data
        var service: String
        var session: String
        var purpose: PairingHandshake.Purpose
        var commitment: Data
    }

    /// Responder → initiator: who it is, its ephemeral key, and whether it already trusts the initiator.
    struct HelloReply: Codable {
        var deviceID: String
        var name: String
        var platform: String
        var identityKey: Data
        var ephemeralKey: Data
        var trustsYou: Bool
    }

    /// Initiator → responder: the ephemeral key (and nonce) committed to in `Hello`, and which
    /// way the handshake ends.
    struct Reveal: Codable {
        var ephemeralKey: Data
        var nonce: Data
        var mode: PairingHandshake.Mode
    }

    /// Both ways, for devices that trust each other: a signature over the transcript.
    struct Authenticate: Codable {
        var signature: Data
    }

    /// Both ways, when pairing: the person's answer, signed over the transcript when yes.
    struct Approval: Codable {
        var approved: Bool
        var signature: Data?
    }

    struct Refusal: Codable {
        var reason: RefusalReason
        var retryAfter: Double?
    }

    static func encode<T: Encodable>(_ type: LinkMessageType, _ value: T) -> Frame {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Frame(type, payload: Array((try? encoder.encode(value)) ?? Data()))
    }

    static func decode<T: Decodable>(_ type: T.Type, from frame: Frame) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(frame.payload))
    }
}
